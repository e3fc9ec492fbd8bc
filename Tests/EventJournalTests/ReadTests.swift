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
