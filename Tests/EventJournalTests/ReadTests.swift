import EventJournal
import Foundation
import Testing

struct ReadTests {
    @Test func forEachRecordReadsEverythingInOrderAcrossChunks() async throws {
        let test = try TestJournal()
        for batch in 0..<10 {
            _ = try await test.journal.append((0..<100).map { event("\(batch)-\($0)") }, to: "s-\(batch % 3)")
        }
        var positions: [UInt64] = []
        try test.journal.forEachRecord(chunkSize: 64) { positions.append($0.position) }
        #expect(positions == Array(1...1_000))
        var limited: [UInt64] = []
        try test.journal.forEachRecord(from: 990, limit: 5, chunkSize: 2) { limited.append($0.position) }
        #expect(limited == [990, 991, 992, 993, 994])
        #expect(try test.journal.record(at: 1_001) == nil)
        #expect(try test.journal.records(from: 1_000, limit: 10).map(\.position) == [1_000])
        #expect(try test.journal.readStream("s-0", limit: 0).isEmpty)
        #expect(try test.journal.readStream("s-0", from: 2, direction: .backward, limit: 0).isEmpty)
    }

    /// A stream's records are read in version order whether they lie close together (read in turn) or further apart
    /// than a read passes over (looked up through the index), and the reading stops where the caller says.
    @Test func aStreamsRecordsAreReadInPlaceWhereverTheyLie() async throws {
        let test = try TestJournal()
        let journal = test.journal
        // Positions, by hand: target 1-3; other 4-303 (300 records, more than a read passes over); target 304-305;
        // other 306-315; target 316.
        _ = try await journal.append((0..<3).map { event("t\($0)") }, to: "target")
        _ = try await journal.append((0..<300).map { event("o\($0)") }, to: "other")
        _ = try await journal.append((3..<5).map { event("t\($0)") }, to: "target")
        _ = try await journal.append((300..<310).map { event("o\($0)") }, to: "other")
        _ = try await journal.append([event("t5")], to: "target")
        let read = { (stream: String, count: Int) throws -> [(UInt64, UInt64, String)] in
            try journal.environment.read { transaction in
                var seen: [(UInt64, UInt64, String)] = []
                try journal.forEachRecord(of: stream, in: transaction) { record in
                    seen.append(
                        (record.position, record.streamVersion, String(decoding: record.payload, as: UTF8.self)))
                    return seen.count < count
                }
                return seen
            }
        }
        let target = try read("target", .max)
        #expect(target.map(\.0) == [1, 2, 3, 304, 305, 316])
        #expect(target.map(\.1) == [1, 2, 3, 4, 5, 6])
        #expect(target.map(\.2) == (0..<6).map { #"{"marker":"t\#($0)"}"# })
        #expect(try read("target", 4).map(\.0) == [1, 2, 3, 304])
        #expect(try read("other", .max).map(\.0) == Array(4...303) + Array(306...315))
        #expect(try read("no-such-stream", .max).isEmpty)
        #expect(try journal.readStream("target").map(\.position) == target.map(\.0))
        var inItsOwnTransaction: [UInt64] = []
        try journal.forEachRecord(of: "target") { record in
            inItsOwnTransaction.append(record.position)
            return true
        }
        #expect(inItsOwnTransaction == target.map(\.0))
        let invalid = await journalError { _ = try read("", .max) }
        #expect(invalid?.code == .invalidArgument)
    }

    /// A record read in place tells what the same record copied out does, and the reader goes on in position order
    /// from where it starts, to the head.
    @Test func recordsReadInPlaceMatchTheRecordsCopiedOut() async throws {
        let test = try TestJournal()
        for batch in 0..<5 {
            let events = (0..<20).map { event("\(batch)-\($0)", type: $0.isMultiple(of: 2) ? "Even" : "Odd") }
            _ = try await test.journal.append(events, to: "stream-\(batch % 2)")
        }
        let copied = try test.journal.records(from: 95, limit: 10)
        #expect(copied.map(\.position) == Array(95...100))
        let views = try test.journal.environment.read { transaction in
            try test.journal.withRecords(from: 95, in: transaction) { reader in
                var seen: [(UInt64, String, String, UInt64, [UInt8], Timestamp, UInt32)] = []
                while let view = try reader.next() {
                    seen.append(
                        (
                            view.position, view.streamID, view.type, view.streamVersion, Array(view.payload),
                            view.occurredAt, view.schemaVersion
                        ))
                }
                return seen
            }
        }
        #expect(views.count == copied.count)
        for (view, record) in zip(views, copied) {
            #expect(view.0 == record.position && view.1 == record.streamID && view.2 == record.type)
            #expect(view.3 == record.streamVersion && view.4 == Array(record.payload))
            #expect(view.5 == record.occurredAt && view.6 == record.schemaVersion)
            // A record copied out lends the same view of itself.
            record.withView { lent in
                #expect(lent.position == record.position && Array(lent.bytes) == Array(record.bytes))
                #expect(Array(lent.typeUTF8) == Array(record.type.utf8))
            }
        }
        // The last batch went to stream-0 (batch 4): its 20th event is that stream's 60th.
        #expect(views.last?.1 == "stream-0" && views.last?.3 == 60)
        let pastTheHead = try test.journal.environment.read { transaction in
            try test.journal.withRecords(from: 101, in: transaction) { try $0.next()?.position }
        }
        #expect(pastTheHead == nil)
    }

    @Test func followYieldsEventsAsTheyAreCommitted() async throws {
        let test = try TestJournal()
        let journal = test.journal
        _ = try await journal.append([event("old")], to: "s")
        let follower = Task {
            var seen: [String] = []
            for try await record in journal.follow(from: 1, pollInterval: .milliseconds(5)) {
                seen.append(String(decoding: record.payload, as: UTF8.self))
                if seen.count == 3 { break }
            }
            return seen
        }
        try await Task.sleep(for: .milliseconds(50))
        _ = try await journal.append([event("new-1")], to: "s")
        _ = try await journal.append([event("new-2")], to: "t")
        // Should the events never come, cancelling ends the follow (and fails the test) instead of hanging.
        let watchdog = Task {
            try await Task.sleep(for: .seconds(20))
            follower.cancel()
        }
        let seen = try await follower.value
        watchdog.cancel()
        #expect(seen == ["old", "new-1", "new-2"].map { #"{"marker":"\#($0)"}"# })
    }

    @Test func recordsCarryTheHashChain() async throws {
        let test = try TestJournal()
        _ = try await test.journal.append([event("1"), event("2"), event("3")], to: "s")
        let records = try test.journal.records(from: 1, limit: 3)
        #expect(records[0].previousHash == [UInt8](repeating: 0, count: 32))
        #expect(records[1].previousHash == records[0].hash)
        #expect(records[2].previousHash == records[1].hash)
        #expect(try test.journal.head().hash == records[2].hash)
    }
}
