import EventJournal
import Foundation
import LMDB
import Projections
import TestSupport
import Testing

/// The engine with a small projection of its own: events counted per stream and per type. Expected counts come
/// from the events the test appends, counted by hand in each test.
struct ProjectorTests {
    let directory: TemporaryDirectory
    let journal: Journal

    init() throws {
        directory = try TemporaryDirectory()
        journal = try Journal.open(
            at: directory.child("journal"), options: JournalOptions(durability: .relaxed), create: true)
    }

    func projector(_ projections: [Counts]) throws -> Projector<Counts.Event> {
        let store = try ReadModelStore(
            environment: journal.environment, projections: projections.map(ProjectionDescriptor.init))
        return Projector(journal: journal, store: store, decoding: Counts.self)
    }

    func append(_ types: [String], to stream: String) async throws {
        _ = try await journal.append(
            types.map { ProposedEvent(type: $0, encoding: .opaque, payload: []) }, to: stream)
    }

    @Test func catchUpFoldsEachNewEventOnceAndMovesTheCheckpointToTheHead() async throws {
        let counts = Counts()
        let projector = try projector([counts])
        try await append(["A", "B", "A"], to: "one")
        try projector.catchUp([counts])
        try await append(["A"], to: "two")
        try await append(["C", "C"], to: "one")
        try projector.catchUp([counts])
        try projector.catchUp([counts])  // nothing new: nothing folded twice
        let model = try contents(projector, counts)
        #expect(model.streams == ["one": 5, "two": 1])
        #expect(model.types == ["A": 3, "B": 1, "C": 2])
        #expect(model.checkpoint.position == 6)
    }

    @Test func foldingOneEventAtATimeWritesWhatOneChunkWrites() async throws {
        for index in 0..<50 { try await append(["T\(index % 7)"], to: "s\(index % 5)") }
        let one = Counts()
        let byOne = try projector([one])
        try byOne.catchUp([one], chunkSize: 1)
        let single = try contents(byOne, one)
        let other = Counts(name: "counts-b")
        let all = try projector([other])
        try all.catchUp([other])
        let whole = try contents(all, other)
        #expect(single.streams == whole.streams && single.types == whole.types)
        #expect(whole.streams.values.reduce(0, +) == 50)
    }

    @Test func aFoldThatFailsCommitsNothing() async throws {
        try await append(["A", "A"], to: "one")
        let counts = Counts()
        let projector = try projector([counts])
        try projector.catchUp([counts])
        try await append(["A", "poison", "A"], to: "one")
        #expect(throws: Counts.Poison.self) { try projector.catchUp([counts]) }
        let model = try contents(projector, counts)
        #expect(model.streams == ["one": 2] && model.checkpoint.position == 2)
    }

    /// After a rebuild swaps, the tables of the old slot are emptied: those with overflow pages a bounded number of
    /// rows at a time, the others at once.
    @Test func aSwapEmptiesTheOldSlot() async throws {
        for index in 0..<40 { try await append(["T\(index % 3)"], to: "s\(index % 4)") }
        let small = Counts(name: "small")
        let large = Counts(name: "large", rowSize: 3_000)
        let projector = try projector([small, large])
        try projector.catchUp([small, large])
        let names = ["small", "large"].flatMap { name in
            ["streams", "types"].flatMap { table in (0...1).map { "rm.\(name).\(table).\($0)" } }
        }
        let databases = Dictionary(
            uniqueKeysWithValues: zip(names, try journal.environment.openDatabases(names, create: false)))
        func statistics(_ name: String) throws -> DatabaseStatistics {
            try journal.environment.read { try $0.statistics(of: databases[name]!) }
        }
        #expect(
            try statistics("rm.small.streams.0").entries == 4 && statistics("rm.small.streams.0").overflowPages == 0)
        #expect(try statistics("rm.large.streams.0").entries == 4 && statistics("rm.large.streams.0").overflowPages > 0)

        try projector.rebuild([small, large])
        for name in names {
            // Slot 1 now holds the 4 streams and 3 types; slot 0 holds nothing.
            let expected = name.hasSuffix(".0") ? 0 : (name.contains("streams") ? 4 : 3)
            #expect(try statistics(name).entries == expected, "\(name)")
        }
        #expect(try statistics("rm.large.types.0").overflowPages == 0)
        #expect(try contents(projector, large).streams == ["s0": 10, "s1": 10, "s2": 10, "s3": 10])
    }

    @Test func otherRulesRebuildIntoTheSpareSlotAndSwap() async throws {
        try await append(["A", "B"], to: "one")
        try await append(["A"], to: "two")
        let everything = Counts()
        let projector = try projector([everything])
        try projector.catchUp([everything])
        let before = try contents(projector, everything)
        #expect(before.checkpoint.slot == 0)
        // The same projection under a rule that counts only stream "one": a rebuild, into slot 1.
        let onlyOne = Counts(onlyStream: "one")
        try projector.catchUp([onlyOne])
        let after = try contents(projector, onlyOne)
        #expect(after.streams == ["one": 2] && after.types == ["A": 1, "B": 1])
        #expect(after.checkpoint.slot == 1 && after.checkpoint.rulesDigest == onlyOne.rulesDigest)
    }

    /// `foldNew` folds new events into a read model its projection built, and leaves one built under other rules as
    /// it is, where `catchUp` would rebuild it: a query folding into the read model another process is replacing
    /// must not rebuild under the rules before when that process swaps its own in first. By hand: the three events
    /// of stream "one" and the one of "two", and after the swap the events since, unfolded.
    @Test func foldNewFoldsIntoItsOwnReadModelAndNeverRebuilds() async throws {
        try await append(["A", "B"], to: "one")
        try await append(["A"], to: "two")
        let everything = Counts()
        let projector = try projector([everything])
        try projector.catchUp([everything])
        try await append(["C"], to: "one")
        try projector.foldNew([everything])
        let folded = try contents(projector, everything)
        #expect(folded.streams == ["one": 3, "two": 1] && folded.checkpoint.position == 4)
        // Another process swaps in a read model under another rule; events follow.
        let onlyOne = Counts(onlyStream: "one")
        try projector.catchUp([onlyOne])
        try await append(["D"], to: "two")
        try projector.foldNew([everything])
        let left = try contents(projector, onlyOne)
        #expect(left.checkpoint.rulesDigest == onlyOne.rulesDigest && left.checkpoint.slot == 1)
        #expect(left.checkpoint.position == 4 && left.streams == ["one": 3])
    }

    /// Catch-up rebuilds a read model it found stale with `onlyIfStale`: if another process has swapped in one built
    /// by the same code and rules since, nothing is folded and the live slot stays. A rebuild asked for by name
    /// rebuilds anyway, into the other slot.
    @Test func aRebuildOnlyIfStaleLeavesACurrentReadModel() async throws {
        try await append(["A", "B"], to: "one")
        try await append(["A"], to: "two")
        let built = Counts(onlyStream: "one")
        let projector = try projector([built])
        try projector.catchUp([built])
        let skipped = Counts(onlyStream: "one")
        #expect(try projector.rebuild([skipped], onlyIfStale: true).isEmpty)
        #expect(skipped.seen.value == 0)
        #expect(try contents(projector, skipped).checkpoint.slot == 0)
        let asked = Counts(onlyStream: "one")
        try projector.rebuild([asked])
        #expect(asked.seen.value == 3)
        let after = try contents(projector, asked)
        #expect(after.checkpoint.slot == 1 && after.streams == ["one": 2])
    }

    /// A rebuild whose process dies between chunks leaves the old read model answering and a marker; the next
    /// process resumes it, and the result is what one uninterrupted rebuild writes.
    @Test func anInterruptedRebuildResumesAndQueriesReadTheOldModelMeanwhile() async throws {
        for index in 0..<30 { try await append(["T\(index % 3)"], to: "s\(index % 4)") }
        let old = Counts()
        let projector = try projector([old])
        try projector.catchUp([old])
        let failing = Counts(onlyStream: "s1", failAfter: 12)
        #expect(throws: Counts.Poison.self) { try projector.rebuild(failing, chunkSize: 4) }
        let meanwhile = try contents(projector, old)
        #expect(meanwhile.streams.values.reduce(0, +) == 30 && meanwhile.checkpoint.slot == 0)
        #expect(try projector.store.read { try $0.isRebuilding(old.name) })
        let resumed = Counts(onlyStream: "s1")
        try projector.rebuild(resumed, chunkSize: 4)
        // Chunks of 4: events 1-4 and 5-8 were committed; the third chunk failed at event 12 and was rolled back,
        // so the resumed rebuild folds events 9 to 30.
        #expect(resumed.seen.value == 22)
        #expect(try !projector.store.read { try $0.isRebuilding(old.name) })
        let after = try contents(projector, resumed)
        #expect(after.streams == ["s1": 8] && after.checkpoint.slot == 1)  // streams s1: events 2, 6, ..., 30
    }

    /// A rebuild reads each next chunk while it folds the current one; a chunk read short of a head that has moved on
    /// since must not end the rebuild. Six events in chunks of 4: the read of events 5 and 6 begins while events 1
    /// to 4 fold; ten events then come in (7 to 16, all to stream s1), before the second chunk folds. The swap must
    /// wait for them: s1 then holds events 2 and 6 of the first six, and the ten.
    @Test func eventsAppendedDuringARebuildAreFoldedBeforeItSwaps() async throws {
        for index in 0..<6 { try await append(["T"], to: "s\(index % 4)") }
        let old = Counts()
        let projector = try projector([old])
        try projector.catchUp([old])
        let rebuilt = Counts(onlyStream: "s1")
        let journal = journal
        let appended = Counts.Seen()
        // The rebuild runs on a thread of its own, which may block while the appends (async) complete.
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
            Thread {
                continuation.resume(
                    with: Result {
                        try projector.rebuild(rebuilt, chunkSize: 4) { _, _, _ in
                            guard appended.value == 0 else { return }
                            appended.value = 1
                            let done = DispatchSemaphore(value: 0)
                            Task.detached {
                                _ = try await journal.append(
                                    (0..<10).map { _ in ProposedEvent(type: "T", encoding: .opaque, payload: []) },
                                    to: "s1")
                                done.signal()
                            }
                            done.wait()
                        }
                    })
            }.start()
        }
        let after = try contents(projector, rebuilt)
        #expect(after.streams == ["s1": 12] && after.checkpoint.position == 16 && after.checkpoint.slot == 1)
    }

    /// A projection that reads types A and B only. The journal, by hand: stream one holds A, B, C, A, C (positions 1
    /// to 5), stream two holds B and C (6 and 7), so that the last records are of a type it does not read. Its fold
    /// is given one's A, B, A and two's B, whether it catches up, rebuilds in chunks of two (read ahead on another
    /// thread) or replays; its checkpoint still reaches 7. In a pass with a projection that reads every type, both
    /// are given every event: the records of each type are decoded once for all.
    @Test func recordsOfTypesNoProjectionReadsAreNeitherDecodedNorFolded() async throws {
        try await append(["A", "B", "C", "A", "C"], to: "one")
        try await append(["B", "C"], to: "two")
        let expected: (streams: [String: UInt64], types: [String: UInt64]) = (["one": 3, "two": 1], ["A": 2, "B": 2])
        let caughtUp = Counts(name: "caught-up", eventTypes: ["A", "B"])
        let rebuilt = Counts(name: "rebuilt", eventTypes: ["A", "B"])
        let projector = try projector([caughtUp, rebuilt])
        try projector.catchUp([caughtUp], chunkSize: 2)
        try projector.rebuild(rebuilt, chunkSize: 2)
        for counts in [caughtUp, rebuilt] {
            let model = try contents(projector, counts)
            #expect(model.streams == expected.streams && model.types == expected.types, "\(counts.name)")
            #expect(model.checkpoint.position == 7, "\(counts.name)")
        }
        let replayed = Counts(name: "replayed", eventTypes: ["A", "B"])
        let scratch = try ReadModelStore.scratch(projections: [ProjectionDescriptor(replayed)])
        let replay = Projector(journal: journal, store: scratch, decoding: Counts.self)
        try replay.replay([replayed], through: 7, chunkSize: 2)
        let model = try contents(replay, replayed)
        #expect(model.streams == expected.streams && model.types == expected.types)

        let narrow = Counts(name: "narrow", eventTypes: ["A"])
        let every = Counts(name: "every")
        let both = try self.projector([narrow, every])
        try both.catchUp([narrow, every])
        for counts in [narrow, every] {
            let model = try contents(both, counts)
            #expect(model.types == ["A": 2, "B": 2, "C": 3], "\(counts.name)")
        }
    }

    @Test func aReplayIntoAScratchStoreStopsAtThePositionGiven() async throws {
        try await append(["A", "B", "C"], to: "one")
        try await append(["D"], to: "two")
        let counts = Counts()
        let scratch = try ReadModelStore.scratch(projections: [ProjectionDescriptor(counts)])
        let projector = Projector(journal: journal, store: scratch, decoding: Counts.self)
        try projector.replay([counts], through: 2)
        let model = try contents(projector, counts)
        #expect(model.streams == ["one": 2] && model.types == ["A": 1, "B": 1] && model.checkpoint.position == 2)
        #expect(throws: ProjectionError.self) { try projector.catchUp([counts]) }
    }

    @Test func namesOutsideTheRulesAreRefused() throws {
        #expect(throws: ProjectionError.self) {
            try ReadModelStore(
                environment: journal.environment,
                projections: [ProjectionDescriptor(name: "Bad Name", version: 1, rulesDigest: [], tables: ["t"])])
        }
    }

    /// A table that a new version of a projection no longer has keeps its rows when a store opens, and is emptied,
    /// in both slots, once a rebuild swaps the new version's read model in; the databases stay, for a process still
    /// running the old code.
    @Test func theTablesANewVersionNoLongerHasAreEmptiedWhenItsReadModelIsSwappedIn() async throws {
        try await append(["A", "B"], to: "one")
        let counts = Counts()
        try projector([counts]).catchUp([counts])
        let environment = journal.environment
        let types = try environment.openDatabases(["rm.counts.types.0", "rm.counts.types.1"], create: false)
        // A row in the spare slot too, as a rebuild by the old version cut short would leave.
        try environment.write { try $0.put([1], forKey: Array("A".utf8), in: types[1]) }
        func entries(_ database: Database) throws -> Int {
            try environment.read { try $0.statistics(of: database) }.entries
        }
        var fewer = counts
        fewer.tables = ["streams"]
        fewer.version = 2
        let projector = try projector([fewer])
        #expect(try entries(types[0]) == 2 && entries(types[1]) == 1)
        try projector.catchUp([fewer])
        #expect(try entries(types[0]) == 0 && entries(types[1]) == 0)
        #expect(try environment.databaseNames().contains("rm.counts.types.0"))
        let streams = try projector.store.read { snapshot in
            var streams: [String: UInt64] = [:]
            try #require(try snapshot.model(fewer.name)).table(0).scan { key, value in
                streams[String(decoding: key, as: UTF8.self)] = value.bigEndian(UInt64.self, at: 0)
                return true
            }
            return streams
        }
        #expect(streams == ["one": 2])
    }

    /// Keys worked out by hand: a table of streams "a", "ab", "b", "ba", "c" in byte order.
    @Test func scansKeepToTheirPrefixInBothDirections() async throws {
        for stream in ["c", "ab", "b", "ba", "a"] { try await append(["E"], to: stream) }
        let counts = Counts()
        let projector = try projector([counts])
        try projector.catchUp([counts])
        func keys(prefix: String, from start: String? = nil, reverse: Bool = false) throws -> [String] {
            try projector.store.read { snapshot in
                var keys: [String] = []
                try #require(try snapshot.model(counts.name)).table(0).scan(
                    prefix: Array(prefix.utf8), from: start.map { Array($0.utf8) }, reverse: reverse
                ) { key, _ in
                    keys.append(String(decoding: key, as: UTF8.self))
                    return true
                }
                return keys
            }
        }
        #expect(try keys(prefix: "") == ["a", "ab", "b", "ba", "c"])
        #expect(try keys(prefix: "b") == ["b", "ba"])
        #expect(try keys(prefix: "b", from: "b0") == ["ba"])
        #expect(try keys(prefix: "b", from: "bb") == [])
        #expect(try keys(prefix: "", reverse: true) == ["c", "ba", "b", "ab", "a"])
        #expect(try keys(prefix: "b", reverse: true) == ["ba", "b"])
        #expect(try keys(prefix: "b", from: "ba", reverse: true) == ["b"])
        // A start past every key of the prefix begins at the prefix's last key, not at the table's.
        #expect(try keys(prefix: "b", from: "z", reverse: true) == ["ba", "b"])
        #expect(try keys(prefix: "a", from: "", reverse: true) == [])
    }

    @Test func misuseIsRefusedBeforeAnythingIsWritten() async throws {
        try await append(["A"], to: "one")
        let counts = Counts()
        let projector = try projector([counts])
        #expect(throws: ProjectionError.self) { try projector.catchUp([counts], chunkSize: 0) }
        #expect(throws: ProjectionError.self) { try projector.rebuild([counts], chunkSize: 0) }
        #expect(throws: ProjectionError.self) { try projector.catchUp([counts, counts]) }
        var other = Counts()
        other.name = "other"
        #expect(throws: ProjectionError.self) { try projector.catchUp([other]) }
        #expect(try projector.store.read { try $0.model(counts.name) } == nil)
    }

    // MARK: Helpers

    struct Contents {
        var streams: [String: UInt64] = [:]
        var types: [String: UInt64] = [:]
        var checkpoint: Checkpoint
    }

    func contents(_ projector: Projector<Counts.Event>, _ counts: Counts) throws -> Contents {
        try projector.store.read { snapshot in
            let model = try #require(try snapshot.model(counts.name))
            var contents = Contents(checkpoint: model.checkpoint)
            try model.table(0).scan { key, value in
                contents.streams[String(decoding: key, as: UTF8.self)] = value.bigEndian(UInt64.self, at: 0)
                return true
            }
            try model.table(1).scan { key, value in
                contents.types[String(decoding: key, as: UTF8.self)] = value.bigEndian(UInt64.self, at: 0)
                return true
            }
            return contents
        }
    }
}

/// Counts events per stream and per type; the rule `onlyStream` counts one stream's events only. `failAfter` makes
/// the fold throw at that many events, like a process dying in the middle of a rebuild.
struct Counts: Projection, EventDecoding {
    struct Event: Sendable {
        let stream: String
        let type: String
    }

    struct Poison: Error {}

    /// How many events the fold has seen, across calls.
    final class Seen: @unchecked Sendable {
        // Safe: the tests fold on one thread at a time.
        var value = 0
    }

    var name = "counts"
    var version: UInt32 = 1
    var onlyStream: String?
    var failAfter: Int?
    /// The size of each stored count, padded with zeros: past half a page, rows go to overflow pages.
    var rowSize = 8
    var seen = Seen()
    /// Counts per stream, and per type while the projection has the `types` table.
    var tables = ["streams", "types"]
    var eventTypes: Set<String>?

    var rulesDigest: [UInt8] { Array((onlyStream ?? "*").utf8) }

    static func decode(_ record: RecordView) throws -> Event? {
        Event(stream: record.streamID, type: record.type)
    }

    func fold(_ events: ArraySlice<Event>, into model: ReadModel) throws {
        for event in events {
            seen.value += 1
            if event.type == "poison" || seen.value == failAfter { throw Poison() }
            if let onlyStream, event.stream != onlyStream { continue }
            try increment(model.table(0), Array(event.stream.utf8))
            if tables.count > 1 { try increment(model.table(1), Array(event.type.utf8)) }
        }
    }

    private func increment(_ table: ReadModelTable, _ key: [UInt8]) throws {
        let current = try table.withValue(forKey: key) { $0.bigEndian(UInt64.self, at: 0) } ?? 0
        var value: [UInt8] = []
        value.appendBigEndian(current + 1)
        value += [UInt8](repeating: 0, count: max(0, rowSize - value.count))
        try table.put(value, forKey: key)
    }
}
