import Foundation
import LMDB
import Synchronization

/// The journal's databases and the operations on them inside a transaction. See docs/FORMAT.md for the layout.
final class JournalStore: Sendable {
    static let metaName = "meta"
    static let eventsName = "events"
    static let streamsName = "streams"
    static let streamHeadsName = "stream_heads"
    static let eventIDsName = "event_ids"

    /// Whether this process has appended records, to any journal: set once a transaction that wrote some commits.
    static let hasAppended = Atomic<Bool>(false)

    enum MetaKey {
        static let format = Array("format".utf8)
        static let journalID = Array("journal_id".utf8)
        static let createdAt = Array("created_at".utf8)
        static let head = Array("head".utf8)
    }

    let environment: Environment
    let meta: Database
    let events: Database
    let streams: Database
    let streamHeads: Database
    let eventIDs: Database
    let journalID: UUID
    /// Whether appends keep zero-filled space past the last page (``Environment/reserveFileSpace(in:)``).
    let reservesFileSpace: Bool
    /// Whether this store made the journal (its identity and empty head) as it opened.
    let madeJournal: Bool

    /// Opens the databases of a journal; with `create`, makes them (and the journal's identity) first. An existing
    /// journal is opened without `create`, so that nothing is written to a directory that turns out not to be one.
    init(environment: Environment, create: Bool, reservesFileSpace: Bool) throws {
        let names = [Self.metaName, Self.eventsName, Self.streamsName, Self.streamHeadsName, Self.eventIDsName]
        let databases: [Database]
        var made = false
        do {
            databases = try environment.openDatabases(names, create: create) { txn, databases in
                made = try create && Self.initialize(meta: databases[0], txn)
            }
        } catch let error as LMDBError where error.code == .notFound {
            throw JournalError(
                .notAJournal, "\(environment.path) lacks one of the journal's databases (\(error.operation))",
                remedy: "restore the journal from a backup")
        } catch let error as LMDBError {
            throw JournalError.storage(error)
        }
        self.environment = environment
        self.reservesFileSpace = reservesFileSpace
        self.madeJournal = made
        (meta, events, streams, streamHeads, eventIDs) = (
            databases[0], databases[1], databases[2], databases[3], databases[4]
        )
        let meta = databases[0]
        let storedID = try mappingStorageErrors {
            try environment.read { try $0.value(forKey: MetaKey.journalID, in: meta) }
        }
        guard let storedID, storedID.count == 16 else {
            throw JournalError(
                .notAJournal, "\(environment.path) has no journal id", remedy: "restore the journal from a backup")
        }
        journalID = UUID(bytes: storedID)
    }

    /// Writes a new journal's identity and empty head, unless another process has just done so; returns whether it
    /// wrote them.
    private static func initialize(meta: Database, _ txn: Transaction) throws -> Bool {
        var format: [UInt8] = []
        format.appendBigEndian(Journal.formatVersion)
        guard try txn.put(format, forKey: MetaKey.format, in: meta, options: .noOverwrite) else { return false }
        try txn.put(UUID().bytes, forKey: MetaKey.journalID, in: meta)
        try txn.put(
            BigEndianKey.encode(UInt64(bitPattern: Timestamp.now().microsecondsSinceEpoch)), forKey: MetaKey.createdAt,
            in: meta)
        try txn.put(BigEndianKey.encode(0) + RecordFormat.zeroHash, forKey: MetaKey.head, in: meta)
        return true
    }

    // MARK: Keys

    /// The `streams` index key: version first, then the stream id, so that one commit's entries for many streams
    /// at similar versions share leaf pages (see docs/FORMAT.md).
    static func streamKey(_ stream: String, version: UInt64) -> [UInt8] {
        var key: [UInt8] = []
        key.reserveCapacity(8 + stream.utf8.count)
        key.appendBigEndian(version)
        key.append(contentsOf: stream.utf8)
        return key
    }

    /// A big-endian integer that fills `raw` exactly, or nil when the sizes differ.
    static func integer<T: FixedWidthInteger>(_: T.Type, _ raw: UnsafeRawBufferPointer) -> T? {
        raw.count == MemoryLayout<T>.size ? raw.bigEndian(T.self, at: 0) : nil
    }

    // MARK: Reading inside a transaction

    func readHead(_ txn: Transaction) throws -> (position: UInt64, hash: [UInt8]) {
        let head = try txn.withValue(forKey: MetaKey.head, in: meta) { raw -> (UInt64, [UInt8])? in
            guard raw.count == 40 else { return nil }
            return (raw.bigEndian(UInt64.self, at: 0), Array(raw[8..<40]))
        }
        guard let head, let head else {
            throw JournalError(
                .corruptRecord, "the journal's head entry is missing or damaged",
                remedy: "restore the journal from a backup")
        }
        return head
    }

    func streamHead(_ stream: String, _ txn: Transaction) throws -> (version: UInt64, lastPosition: UInt64) {
        var key = stream
        let head = try key.withUTF8 { key in
            try txn.withValue(forKey: UnsafeRawBufferPointer(key), in: streamHeads) { raw in
                guard raw.count == 16 else {
                    throw JournalError.corrupt(0, "the stream_heads entry of \(stream) has \(raw.count) bytes, not 16")
                }
                return (raw.bigEndian(UInt64.self, at: 0), raw.bigEndian(UInt64.self, at: 8))
            }
        }
        return head ?? (0, 0)
    }

    func record(at position: UInt64, _ txn: Transaction) throws -> EventRecord? {
        try txn.withValue(forKey: BigEndianKey.encode(position), in: events) { raw in
            try EventRecord(decoding: raw, at: position)
        }
    }

    func records(from position: UInt64, limit: Int, _ txn: Transaction) throws -> [EventRecord] {
        guard limit > 0 else { return [] }
        // The records are copied into one buffer of the exact size (one allocation for the chunk, not one per record,
        // and no regrowth), from where the cursor found them in the map: valid until the transaction writes or ends.
        var found: [(position: UInt64, value: UnsafeRawBufferPointer)] = []
        found.reserveCapacity(min(limit, 4_096))
        try txn.withCursor(on: events) { cursor in
            var entry = try cursor.seek(atLeast: BigEndianKey.encode(max(position, 1)))
            while let current = entry, found.count < limit {
                guard let key = BigEndianKey.decode(current.key) else {
                    throw JournalError.corrupt(0, "an events key of \(current.key.count) bytes")
                }
                found.append((key, current.value))
                entry = try cursor.next()
            }
        }
        let buffer = [UInt8](unsafeUninitializedCapacity: found.reduce(0) { $0 + $1.value.count }) { bytes, count in
            let destination = UnsafeMutableRawBufferPointer(bytes)
            for (_, value) in found {
                let end = count + value.count
                UnsafeMutableRawBufferPointer(rebasing: destination[count..<end]).copyMemory(from: value)
                count = end
            }
        }
        var start = 0
        return try found.map { record in
            defer { start += record.value.count }
            return try EventRecord(decoding: buffer[start..<(start + record.value.count)], at: record.position)
        }
    }

    /// Calls `body` with a reader of the records from `position` on, in `txn`.
    func withRecords<Result>(
        from position: UInt64, _ txn: Transaction, _ body: (inout RecordReader) throws -> Result
    ) throws -> Result {
        try txn.withCursor(on: events) { cursor in
            var reader = RecordReader(cursor, from: position)
            return try body(&reader)
        }
    }

    func streamRecords(
        _ stream: String, from version: UInt64, direction: ReadDirection, limit: Int, _ txn: Transaction
    ) throws -> [EventRecord] {
        guard limit > 0 else { return [] }
        let last = try streamHead(stream, txn).version
        let versions: [UInt64]
        switch direction {
        case .forward:
            let first = max(version, 1)
            versions = first <= last ? Array(first...min(last, first &+ UInt64(clamping: limit) &- 1)) : []
        case .backward:
            let top = min(version == 0 ? last : version, last)
            versions =
                top >= 1 ? Array((max(1, top - min(top - 1, UInt64(clamping: limit) &- 1))...top).reversed()) : []
        }
        return try versions.map { version in
            let position = try indexedPosition(stream, version: version, txn)
            guard let record = try record(at: position, txn) else {
                throw JournalError.corrupt(position, "the streams index points to no record for \(stream)")
            }
            return record
        }
    }

    /// Calls `body` with each record of `stream`, oldest first, until it returns false. A stream's records mostly lie
    /// close together: they are read with one cursor from the first one's position, passing over other streams'
    /// records, and looked up through the `streams` index only when they lie far apart.
    func forEachStreamRecord(_ stream: String, _ txn: Transaction, _ body: (RecordView) throws -> Bool) throws {
        let last = try streamHead(stream, txn).version
        guard last >= 1 else { return }
        var version: UInt64 = 1
        let streamBytes = Array(stream.utf8)
        var wantsMore = true
        try txn.withCursor(on: events) { cursor in
            var entry = try cursor.seek(atLeast: BigEndianKey.encode(try indexedPosition(stream, version: 1, txn)))
            var passedOver = 0
            while wantsMore, version <= last, passedOver < Self.recordsPassedOverAtMost, let current = entry {
                guard let position = BigEndianKey.decode(current.key) else {
                    throw JournalError.corrupt(0, "an events key of \(current.key.count) bytes")
                }
                let record = try RecordView(checking: current.value, at: position)
                if record.field(record.header.fields.streamID).elementsEqual(streamBytes) {
                    guard record.streamVersion == version else {
                        throw JournalError.corrupt(
                            position,
                            "\(stream) version \(record.streamVersion) stands where version \(version) belongs")
                    }
                    wantsMore = try body(record)
                    version += 1
                    passedOver = 0
                } else {
                    passedOver += 1
                }
                entry = try cursor.next()
            }
        }
        while wantsMore, version <= last {
            let position = try indexedPosition(stream, version: version, txn)
            let found = try txn.withValue(forKey: BigEndianKey.encode(position), in: events) { raw in
                try body(try RecordView(checking: raw, at: position))
            }
            guard let found else {
                throw JournalError.corrupt(position, "the streams index points to no record for \(stream)")
            }
            wantsMore = found
            version += 1
        }
    }

    /// How many other streams' records a read of one stream passes over before it looks its next record up instead.
    static let recordsPassedOverAtMost = 256

    /// The position of `stream`'s record `version`, from the `streams` index.
    private func indexedPosition(_ stream: String, version: UInt64, _ txn: Transaction) throws -> UInt64 {
        let position = try txn.withValue(forKey: Self.streamKey(stream, version: version), in: streams) {
            BigEndianKey.decode($0)
        }
        guard let position, let position else {
            throw JournalError.corrupt(0, "the streams index has no entry for \(stream) version \(version)")
        }
        return position
    }

    // MARK: Appending

    /// Applies one batch of appends in a single write transaction (one commit, one fsync). A request that fails its
    /// checks gets its own error and writes nothing; the others go ahead. A storage failure fails the whole batch.
    func commit(_ requests: [AppendRequest]) -> [Result<AppendResult, Error>] {
        do {
            var appended = false
            let results = try environment.write { txn in
                var head = try readHead(txn)
                let headBefore = head.position
                let recordedAt = Timestamp.now()
                var results: [Result<AppendResult, Error>] = []
                results.reserveCapacity(requests.count)
                for request in requests {
                    do {
                        let plan = try check(request, txn)
                        results.append(.success(try write(request, plan: plan, head: &head, at: recordedAt, txn)))
                    } catch let error as JournalError {
                        results.append(.failure(error))
                    }
                }
                if head.position != headBefore { try finishAppending(at: head, txn) }
                appended = head.position != headBefore
                return results
            }
            // Committed (the closure may have run more than once, and a commit can fail after it).
            if appended { Self.hasAppended.store(true, ordering: .relaxed) }
            do {
                try syncIfRetried(results.contains { (try? $0.get())?.wasAlreadyStored == true })
            } catch {
                let failure = JournalError.storage(error)
                return results.map { (try? $0.get())?.wasAlreadyStored == true ? .failure(failure) : $0 }
            }
            return results
        } catch let error as LMDBError {
            let failure = JournalError.storage(error)
            return requests.map { _ in .failure(failure) }
        } catch {
            return requests.map { _ in .failure(error) }
        }
    }

    /// Applies `requests` in one write transaction, all or nothing: the first that fails its checks throws, and
    /// nothing is written.
    func commitAll(_ requests: [AppendRequest]) throws -> [AppendResult] {
        var appended = false
        let results = try mappingStorageErrors {
            try environment.write { txn in
                var head = try readHead(txn)
                let headBefore = head.position
                let recordedAt = Timestamp.now()
                var results: [AppendResult] = []
                for request in requests {
                    results.append(try write(request, plan: try check(request, txn), head: &head, at: recordedAt, txn))
                }
                if head.position != headBefore { try finishAppending(at: head, txn) }
                appended = head.position != headBefore
                return results
            }
        }
        if appended { Self.hasAppended.store(true, ordering: .relaxed) }
        try mappingStorageErrors { try syncIfRetried(results.contains(where: \.wasAlreadyStored)) }
        return results
    }

    /// In durable mode, syncs before a retry is acknowledged as stored already: a commit that writes nothing syncs
    /// nothing, and what the retry found may have been stored by a relaxed writer (another process) not yet synced.
    private func syncIfRetried(_ retried: Bool) throws(LMDBError) {
        guard retried, !environment.options.noSync else { return }
        try environment.sync()
    }

    /// Writes records exactly as another journal held them, continuing this one, in one write transaction: each must
    /// take the next position and its stream's next version, must not repeat a stored event id, and must come out
    /// with the chain hash the export gives. `records` starts the records from the first (again, when the map
    /// grows and the transaction runs again); what it returns gives them one at a time, inside the transaction, and
    /// nil after the last, and an error it throws writes nothing. Returns the number of records written.
    func restore(_ records: () -> Journal.NextRecord) throws -> Int {
        let count = try mappingStorageErrors {
            try environment.write { txn in
                let next = records()
                var head = try readHead(txn)
                var count = 0
                // A restore checks first that the journal is empty; another process may have written to it since,
                // while the export was read.
                var given = try next()
                if given?.position == 1, head.position > 0 {
                    let held = "\(head.position) record" + (head.position == 1 ? "" : "s")
                    throw JournalError.invalid(
                        "the journal is no longer empty: it holds \(held), written after the restore began",
                        remedy: "import an export into a new journal: liftledger init --journal NEW, then "
                            + "import-journal there")
                }
                var versions: [String: UInt64] = [:]
                while let exported = given {
                    try Names.validateStreamID(exported.streamID)
                    try Names.validate(exported.event)
                    let version = try versions[exported.streamID] ?? streamHead(exported.streamID, txn).version
                    guard exported.position == head.position + 1, exported.streamVersion == version + 1 else {
                        throw JournalError.invalid(
                            "record \(exported.position) (\(exported.streamID) version \(exported.streamVersion)) does "
                                + "not continue the journal at position \(head.position + 1)",
                            remedy: "import an export whole, in order, into an empty journal")
                    }
                    let stored = try withUnsafeBytes(of: exported.event.id.uuid) { id in
                        try txn.withValue(forKey: id, in: eventIDs) { _ in true }
                    }
                    guard stored == nil else {
                        throw JournalError(
                            .duplicateEventID,
                            "event id \(exported.event.id.uuidString.lowercased()) of record \(exported.position) is stored already",
                            remedy: "import an export into an empty journal")
                    }
                    let record = RecordFormat.encode(
                        exported.event, stream: exported.streamID, position: exported.position,
                        streamVersion: exported.streamVersion, recordedAt: exported.recordedAt, previousHash: head.hash)
                    let hash = RecordFormat.chainHash(previous: head.hash, record: record[...])
                    guard hash == exported.hash else {
                        throw JournalError(
                            .corruptRecord, "record \(exported.position) does not reproduce its exported hash",
                            remedy: "the export was changed or damaged; export the journal again",
                            position: exported.position)
                    }
                    let positionKey = BigEndianKey.encode(exported.position)
                    try txn.put(record, forKey: positionKey, in: events, options: .append)
                    try txn.put(
                        positionKey, forKey: Self.streamKey(exported.streamID, version: exported.streamVersion),
                        in: streams)
                    try withUnsafeBytes(of: exported.event.id.uuid) { id in
                        try positionKey.withUnsafeBytes { _ = try txn.put($0, forKey: id, in: eventIDs) }
                    }
                    try txn.put(
                        BigEndianKey.encode(exported.streamVersion) + positionKey,
                        forKey: Array(exported.streamID.utf8), in: streamHeads)
                    versions[exported.streamID] = exported.streamVersion
                    head = (exported.position, hash)
                    count += 1
                    given = try next()
                }
                // No records (an empty journal's export): nothing is written, not even the head.
                if count > 0 { try finishAppending(at: head, txn) }
                return count
            }
        }
        if count > 0 { Self.hasAppended.store(true, ordering: .relaxed) }
        return count
    }

    /// Ends a transaction that appended records: stores the new head, and keeps space past the last page.
    private func finishAppending(at head: (position: UInt64, hash: [UInt8]), _ txn: Transaction) throws {
        try txn.put(BigEndianKey.encode(head.position) + head.hash, forKey: MetaKey.head, in: meta)
        if reservesFileSpace { try environment.reserveFileSpace(in: txn) }
    }

    /// The position of the record with event id `id`, if stored.
    func position(ofEvent id: UUID, _ txn: Transaction) throws -> UInt64? {
        let found = try withUnsafeBytes(of: id.uuid) { key in
            try txn.withValue(forKey: key, in: eventIDs) { BigEndianKey.decode($0) }
        }
        return found ?? nil
    }

    private enum Plan {
        case alreadyStored(AppendResult)
        case append(fromVersion: UInt64)
    }

    /// Everything that can reject a request, checked before it writes anything.
    private func check(_ request: AppendRequest, _ txn: Transaction) throws -> Plan {
        var seen = Set<UUID>()
        for event in request.events where request.events.count > 1 && !seen.insert(event.id).inserted {
            throw JournalError(
                .duplicateEventID, "event id \(event.id.uuidString.lowercased()) appears twice in one append",
                remedy: "give every event in an append its own id")
        }
        var stored: [EventRecord] = []
        for event in request.events {
            let position = try withUnsafeBytes(of: event.id.uuid) { id in
                try txn.withValue(forKey: id, in: eventIDs) { BigEndianKey.decode($0) }
            }
            guard let position, let position else { continue }
            guard let record = try record(at: position, txn) else {
                throw JournalError.corrupt(position, "the event_ids index names a missing record")
            }
            guard record.hasSameContent(as: event, in: request.stream) else {
                throw JournalError(
                    .duplicateEventID,
                    "event id \(event.id.uuidString.lowercased()) is already stored at position \(position) with other content",
                    remedy: "give a new event a new id; reuse an id only to retry the very same append",
                    position: position
                )
            }
            stored.append(record)
        }
        if let last = stored.last {
            guard stored.count == request.events.count else {
                throw JournalError(
                    .duplicateEventID,
                    "\(stored.count) of the \(request.events.count) events of this append are stored already",
                    remedy: "retry an append with exactly the events it first had", position: stored[0].position)
            }
            guard zip(stored, stored.dropFirst()).allSatisfy({ $0.position + 1 == $1.position }) else {
                throw JournalError(
                    .duplicateEventID, "the events of this append are stored already, but not in this order",
                    remedy: "retry an append with exactly the events it first had, in the same order",
                    position: stored[0].position)
            }
            let version = try streamHead(request.stream, txn).version
            return .alreadyStored(
                AppendResult(
                    positions: stored.map(\.position), streamVersion: max(version, last.streamVersion),
                    wasAlreadyStored: true))
        }
        let current = try streamHead(request.stream, txn).version
        guard request.expectedVersion.admits(current) else {
            throw JournalError(
                .wrongExpectedVersion,
                "stream \(request.stream) is at version \(current), the append expected \(request.expectedVersion)",
                remedy: "read the stream again, re-check the command, and retry with expected version \(current)",
                actualVersion: current)
        }
        return .append(fromVersion: current)
    }

    /// Writes the request's records and index entries. Throws only storage errors (which abort the batch).
    private func write(
        _ request: AppendRequest, plan: Plan, head: inout (position: UInt64, hash: [UInt8]), at recordedAt: Timestamp,
        _ txn: Transaction
    ) throws -> AppendResult {
        guard case .append(var version) = plan else {
            if case .alreadyStored(let result) = plan { return result }
            preconditionFailure("unhandled append plan")
        }
        var positions: [UInt64] = []
        positions.reserveCapacity(request.events.count)
        for event in request.events {
            let position = head.position + 1
            version += 1
            let record = RecordFormat.encode(
                event, stream: request.stream, position: position, streamVersion: version, recordedAt: recordedAt,
                previousHash: head.hash)
            try withUnsafeBytes(of: position.bigEndian) { positionKey in
                _ = try record.withUnsafeBytes { try txn.put($0, forKey: positionKey, in: events, options: .append) }
                _ = try Self.streamKey(request.stream, version: version).withUnsafeBytes {
                    try txn.put(positionKey, forKey: $0, in: streams)
                }
                _ = try withUnsafeBytes(of: event.id.uuid) { try txn.put(positionKey, forKey: $0, in: eventIDs) }
            }
            head = (position, RecordFormat.chainHash(previous: head.hash, record: record))
            positions.append(position)
        }
        try txn.put(
            BigEndianKey.encode(version) + BigEndianKey.encode(head.position), forKey: Array(request.stream.utf8),
            in: streamHeads)
        return AppendResult(positions: positions, streamVersion: version, wasAlreadyStored: false)
    }

    // MARK: Statistics

    func statistics(path: String) throws -> JournalStatistics {
        let info = environment.info()
        let (head, streamCount, format, createdAt) = try mappingStorageErrors {
            try environment.read { txn in
                (
                    try readHead(txn), try txn.statistics(of: streamHeads).entries,
                    (try txn.withValue(forKey: MetaKey.format, in: meta) { Self.integer(UInt32.self, $0) } ?? nil) ?? 0,
                    (try txn.withValue(forKey: MetaKey.createdAt, in: meta) { Self.integer(UInt64.self, $0) } ?? nil)
                        ?? 0
                )
            }
        }
        let attributes = try? FileManager.default.attributesOfItem(atPath: path + "/" + JournalDirectory.dataFile)
        return JournalStatistics(
            journalID: journalID, formatVersion: format,
            createdAt: Timestamp(microsecondsSinceEpoch: Int64(bitPattern: createdAt)), events: head.position,
            streams: streamCount, headPosition: head.position, headHash: head.hash,
            fileBytes: (attributes?[.size] as? Int) ?? 0, usedBytes: (info.lastPage + 1) * environment.pageSize,
            mapSize: info.mapSize)
    }
}
