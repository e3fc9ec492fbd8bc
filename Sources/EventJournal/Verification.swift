import LMDB

/// The first thing found wrong by `Journal.verify`.
public struct VerificationProblem: Sendable, CustomStringConvertible {
    /// The first position that does not match, when the problem has one.
    public let position: UInt64?
    public let detail: String
    /// What to do about it.
    public var remedy = "restore the journal from a backup, or keep it for inspection"

    public var description: String {
        position.map { "position \($0): \(detail)" } ?? detail
    }
}

/// What `Journal.verify` checked and found.
public struct VerificationReport: Sendable {
    public let recordsChecked: UInt64
    public let streams: Int
    public let headPosition: UInt64
    /// The chain hash recomputed from the records.
    public let headHash: [UInt8]
    public let problem: VerificationProblem?

    public var isValid: Bool { problem == nil }
}

extension Journal {
    /// Walks every record of one consistent snapshot: checksums, gapless positions, the hash chain, stream versions,
    /// and that every index (`streams`, `stream_heads`, `event_ids`, the head in `meta`) agrees with the records.
    /// Stops at the first problem. `progress` is called now and then with records checked and the head position.
    public func verify(progress: ((UInt64, UInt64) -> Void)? = nil) throws -> VerificationReport {
        // Damaged pages first: LMDB follows a damaged page's pointers wherever they lead, and the record walk reads
        // through LMDB.
        if !pagesChecked, let damage = try mappingStorageErrors({ try store.environment.checkPages() }) {
            return VerificationReport(
                recordsChecked: 0, streams: 0, headPosition: 0, headHash: RecordFormat.zeroHash,
                problem: JournalStore.problem(damage))
        }
        return try mappingStorageErrors { try store.environment.read { try store.verify($0, progress: progress) } }
    }
}

extension JournalStore {
    private struct StreamTally {
        var version: UInt64
        var lastPosition: UInt64
    }

    func verify(_ txn: Transaction, progress: ((UInt64, UInt64) -> Void)?) throws -> VerificationReport {
        var previousHash = RecordFormat.zeroHash
        var checked: UInt64 = 0
        var tallies: [String: StreamTally] = [:]
        func report(_ problem: VerificationProblem?, head: UInt64) -> VerificationReport {
            VerificationReport(
                recordsChecked: checked, streams: tallies.count, headPosition: head, headHash: previousHash,
                problem: problem)
        }
        let head: (position: UInt64, hash: [UInt8])
        do {
            head = try readHead(txn)
        } catch let error as JournalError {
            return report(VerificationProblem(position: nil, detail: error.message), head: 0)
        }

        func walk(_ cursor: Cursor) throws -> VerificationProblem? {
            var entry = try cursor.first()
            while let current = entry {
                let expected = checked + 1
                guard let position = BigEndianKey.decode(current.key) else {
                    return VerificationProblem(position: expected, detail: "an events key is not 8 bytes")
                }
                guard position == expected else {
                    return VerificationProblem(
                        position: expected, detail: "missing record (the next stored position is \(position))")
                }
                let record: EventRecord
                do throws(JournalError) {
                    record = try EventRecord(decoding: current.value, at: position)
                } catch {
                    return VerificationProblem(position: position, detail: error.message)
                }
                guard record.previousHash == previousHash else {
                    return VerificationProblem(
                        position: position, detail: "hash chain broken: the previous-hash field does not match")
                }
                let stream = record.streamID
                let version = (tallies[stream]?.version ?? 0) + 1
                guard record.streamVersion == version else {
                    return VerificationProblem(
                        position: position,
                        detail: "stream \(stream) version \(record.streamVersion), expected \(version)")
                }
                let positionKey = BigEndianKey.encode(position)
                guard try txn.value(forKey: Self.streamKey(stream, version: version), in: streams) == positionKey else {
                    return VerificationProblem(
                        position: position, detail: "the streams index does not point at this record")
                }
                guard try txn.value(forKey: record.id.bytes, in: eventIDs) == positionKey else {
                    return VerificationProblem(
                        position: position, detail: "the event_ids index does not point at this record")
                }
                previousHash = RecordFormat.chainHash(previous: previousHash, record: record.bytes)
                tallies[stream] = StreamTally(version: version, lastPosition: position)
                checked = position
                if checked % 16_384 == 0 { progress?(checked, head.position) }
                entry = try cursor.next()
            }
            return nil
        }
        // A damaged page, of records or of an index read for one, is the next record's problem, and ends the walk.
        let recordProblem: VerificationProblem? = try txn.withCursor(on: events) { cursor in
            do {
                return try walk(cursor)
            } catch let error as LMDBError where error.isDamage {
                return VerificationProblem(position: checked + 1, detail: "a page holding it or its index is damaged")
            }
        }
        if let recordProblem { return report(recordProblem, head: head.position) }
        progress?(checked, head.position)

        if head.position != checked {
            return report(
                VerificationProblem(
                    position: min(head.position, checked) + 1,
                    detail: "the head says \(head.position) but the records end at \(checked)"),
                head: head.position)
        }
        if head.hash != previousHash {
            return report(
                VerificationProblem(
                    position: checked, detail: "the stored head hash does not match the recomputed chain"),
                head: head.position)
        }
        for (database, expected) in [(streams, Int(checked)), (eventIDs, Int(checked)), (streamHeads, tallies.count)] {
            let entries = try txn.statistics(of: database).entries
            if entries != expected {
                return report(
                    VerificationProblem(
                        position: nil, detail: "\(database.name) has \(entries) entries where \(expected) are expected"),
                    head: head.position)
            }
        }
        for (stream, tally) in tallies {
            let stored: (version: UInt64, lastPosition: UInt64)
            do {
                stored = try streamHead(stream, txn)
            } catch let error as JournalError {
                return report(
                    VerificationProblem(position: tally.lastPosition, detail: error.message), head: head.position)
            }
            if stored.version != tally.version || stored.lastPosition != tally.lastPosition {
                return report(
                    VerificationProblem(
                        position: tally.lastPosition,
                        detail:
                            "stream_heads says \(stream) is at version \(stored.version), the records say \(tally.version)"
                    ), head: head.position)
            }
        }
        return report(nil, head: head.position)
    }

    /// The problem a damaged page is: the journal's, or, in a database of the read models kept beside it, theirs.
    static func problem(_ damage: PageDamage) -> VerificationProblem {
        let journals = [
            "(meta)", "(free pages)", "(names)", metaName, eventsName, streamsName, streamHeadsName, eventIDsName,
        ]
        guard journals.contains(damage.database) else {
            return VerificationProblem(
                position: nil, detail: "\(damage) (a read model's: the journal's records are not affected)",
                remedy: "copy the records into a new journal and use that one, whose read models are built anew: "
                    + "liftledger export --format jsonl --output FILE, then liftledger import-journal FILE "
                    + "--journal NEW (rebuild cannot mend the page in place)")
        }
        // A damaged record's node in `events` is keyed by its position.
        let position = damage.database == eventsName ? damage.key?.withUnsafeBytes(BigEndianKey.decode) : nil
        return VerificationProblem(position: position, detail: "\(damage)")
    }
}
