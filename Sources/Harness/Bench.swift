import ArgumentParser
import EventJournal
import Foundation
import LMDB

/// Benchmarks, printed as one JSON object. Every journal figure stands beside its peer measured in the same run:
/// raw LMDB doing exactly the same puts (or the same scan) with the same bytes, and nothing else.
struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench", abstract: "Measure the journal and the read models against their peers.",
        subcommands: [JournalBench.self, ProjectionsBench.self, ImportBench.self])
}

struct JournalBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "journal",
        abstract: "Appends (one writer, 32 writers, batches of 10,000) and a full read, against raw LMDB.")

    @Flag(help: "Fewer events and one repetition: a smoke test, not a measurement.")
    var quick = false

    @Option(help: "Where the benchmark journals go (default: a new temporary directory, removed afterwards).")
    var directory: String?

    mutating func run() async throws {
        let scratch = ScratchDirectory(given: directory, prefix: "liftledger-bench")
        defer { withExtendedLifetime(scratch) {} }
        let root = scratch.path
        let single = quick ? 200 : 2_000
        let perWriter = quick ? 20 : 250
        let batches = quick ? 2 : 20
        let repetitions = quick ? 1 : 5
        var runs: [String: [Double]] = [:]
        var counter = 0
        func fresh() -> String {
            counter += 1
            return "\(root)/\(counter)"
        }
        precondition(!Self.payloads.isEmpty)  // made now, outside the timings
        for repetition in 0..<repetitions {
            // One event per append, one writer, durable: each append waits for its own fsync.
            let singleJournal = try Journal.open(at: fresh(), options: Self.options, create: true)
            let singleRate = try await Self.rate(events: single) {
                for index in 0..<single {
                    _ = try await singleJournal.append([Self.event(index)], to: "bench-single")
                }
            }
            runs["durableSingleWriter", default: []].append(singleRate)
            let singleRecords = try Self.allRecords(singleJournal)
            let rawSinglePath = fresh()
            runs["rawSingleCommits", default: []].append(
                try Self.rawPuts(singleRecords, perCommit: 1, at: rawSinglePath))
            try Self.requireSameContents(singleJournal.path, rawSinglePath)

            // 32 writers, one event per append each: the writer thread commits what queued during the last fsync.
            // Beside it, the same without the zero-filled space past the last page (each commit that needs a new page
            // then makes the file longer, and its sync flushes the new size too); the two take turns going first.
            let sharedJournal = try Journal.open(at: fresh(), options: Self.options, create: true)
            let unreservedJournal = try Journal.open(at: fresh(), options: Self.unreserved, create: true)
            let turns = repetition % 2 == 0 ? [sharedJournal, unreservedJournal] : [unreservedJournal, sharedJournal]
            for journal in turns {
                let rate = try await Self.rate(events: 32 * perWriter) {
                    try await Self.appendFrom32Writers(perWriter, to: journal)
                }
                runs[journal === sharedJournal ? "durable32Writers" : "durable32WritersUnreserved", default: []]
                    .append(rate)
            }
            // The ceiling for 32 writers: raw LMDB doing the same puts, 32 events per commit.
            let concurrentRecords = try Self.allRecords(sharedJournal)
            runs["rawCommitsOf32", default: []].append(try Self.rawPuts(concurrentRecords, perCommit: 32, at: fresh()))

            // Batches of 10,000 events per append.
            let batchJournal = try Journal.open(at: fresh(), options: Self.options, create: true)
            let batchRate = try await Self.rate(events: batches * 10_000) {
                for batch in 0..<batches {
                    let events = (0..<10_000).map { Self.event(batch * 10_000 + $0) }
                    _ = try await batchJournal.append(events, to: "bench-batch-\(batch % 4)")
                }
            }
            runs["durableBatches10000", default: []].append(batchRate)
            let batchRecords = try Self.allRecords(batchJournal)
            runs["rawBatchedPuts", default: []].append(try Self.rawPuts(batchRecords, perCommit: 10_000, at: fresh()))

            // A full forward read of the batch journal, against a raw cursor scan of its events database.
            let total = batchRecords.count
            runs["fullRead", default: []].append(
                try await Self.rate(events: total) {
                    var seen = 0
                    try batchJournal.forEachRecord { _ in seen += 1 }
                    precondition(seen == total)
                })
            runs["rawScan", default: []].append(try Self.rawScan(batchJournal.path, expected: total))
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        func figure(_ key: String) -> Double { median(runs[key] ?? [0]) }
        /// The median over repetitions of `numerator / denominator` within each repetition: each pair was measured
        /// moments apart, which cancels most of the drift of the disk's speed between repetitions.
        func ratio(_ numerator: String, _ denominator: String) -> Double {
            median(zip(runs[numerator] ?? [], runs[denominator] ?? []).map { $0 / $1 })
        }
        // Targets from the journal issue; nil for a ratio shown only to explain another.
        let ratios: [(String, Double, Double?)] = [
            ("durableSingleWriterVsRaw", ratio("durableSingleWriter", "rawSingleCommits"), 0.8),
            ("durable32WritersVsSingleWriter", ratio("durable32Writers", "durableSingleWriter"), 20),
            ("rawCommitsOf32VsRawSingleCommits", ratio("rawCommitsOf32", "rawSingleCommits"), nil),
            ("durable32WritersVsUnreserved", ratio("durable32Writers", "durable32WritersUnreserved"), nil),
            ("batchesVsRawBatchedPuts", ratio("durableBatches10000", "rawBatchedPuts"), 0.4),
            ("fullReadVsRawScan", ratio("fullRead", "rawScan"), 0.25),
        ]
        var lines = [
            "{",
            #"  "unit": "events per second (median of \#(repetitions)); ratios: median of per-repetition ratios","#,
        ]
        for key in runs.keys.sorted() { lines.append(#"  "\#(key)": \#(Int(figure(key))),"#) }
        lines.append(#"  "ratios": {"#)
        for (index, (name, value, target)) in ratios.enumerated() {
            let comma = index == ratios.count - 1 ? "" : ","
            let rounded = (value * 1_000).rounded() / 1_000
            let verdict = target.map { #""target": \#($0), "met": \#(value >= $0)"# } ?? #""target": null"#
            lines.append(#"    "\#(name)": {"value": \#(rounded), \#(verdict)}\#(comma)"#)
        }
        lines.append("  },")
        lines.append(#"  "quick": \#(quick)"#)
        lines.append("}")
        print(lines.joined(separator: "\n"))
    }

    static let options = JournalOptions(durability: .durable, initialMapSize: 1 << 30)
    static let unreserved = JournalOptions(durability: .durable, initialMapSize: 1 << 30, reservesFileSpace: false)

    /// 32 concurrent writers, each appending `perWriter` events one at a time to a stream of its own.
    static func appendFrom32Writers(_ perWriter: Int, to journal: Journal) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<32 {
                let stream = "bench-writer-\(writer)"
                group.addTask {
                    for index in 0..<perWriter { _ = try await journal.append([Self.event(index)], to: stream) }
                }
            }
            try await group.waitForAll()
        }
    }

    /// A set-logged event of a realistic size (about 150 bytes of JSON), with a new id. Its payload is one of
    /// ``payloads``, made before any timing starts: the timed loops measure appends, not string formatting.
    static func event(_ index: Int) -> ProposedEvent {
        ProposedEvent(
            type: "SetLogged", encoding: .json, payload: payloads[index % payloads.count],
            metadata: EventMetadata(correlationID: "bench", source: "bench"))
    }

    /// The payloads ``event(_:)`` cycles through: every weight from 100 to 149 kg with every rep count from 1 to 12.
    static let payloads: [[UInt8]] = (0..<(50 * 12)).map { index in
        let payload =
            #"{"exercise":"Barbell_Squat","weight":{"value":\#(100 + index % 50),"unit":"kg"},"#
            + #""reps":\#(1 + index / 50),"type":"normal","rpe":8.5,"note":"bench"}"#
        return Array(payload.utf8)
    }

    static func rate(events: Int, _ body: () async throws -> Void) async throws -> Double {
        let started = ContinuousClock.now
        try await body()
        return Double(events) / seconds(ContinuousClock.now - started)
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    static func allRecords(_ journal: Journal) throws -> [EventRecord] {
        var records: [EventRecord] = []
        try journal.forEachRecord { records.append($0) }
        return records
    }

    /// Raw LMDB: the journal's puts for `records` (record, stream index, event id index, stream head, head), with
    /// the same keys and bytes, `perCommit` records per durable commit, and nothing else.
    static func rawPuts(_ records: [EventRecord], perCommit: Int, at path: String) throws -> Double {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let environment = try Environment.open(path: path, options: EnvironmentOptions(mapSize: 1 << 30))
        let databases = try environment.openDatabases(
            ["meta", "events", "streams", "stream_heads", "event_ids"], create: true)
        let (meta, events, streams, heads, ids) = (
            databases[0], databases[1], databases[2], databases[3], databases[4]
        )
        struct Puts {
            var position: [UInt8]
            var record: [UInt8]
            var streamKey: [UInt8]
            var id: [UInt8]
            var stream: [UInt8]
            var head: [UInt8]
            var journalHead: [UInt8]
        }
        let puts = records.map { record in
            let position = BigEndianKey.encode(record.position)
            return Puts(
                position: position, record: Array(record.bytes),
                streamKey: BigEndianKey.encode(record.streamVersion) + Array(record.streamID.utf8),
                id: withUnsafeBytes(of: record.id.uuid) { Array($0) }, stream: Array(record.streamID.utf8),
                head: BigEndianKey.encode(record.streamVersion) + position, journalHead: position + record.hash)
        }
        let headKey = Array("head".utf8)
        let started = ContinuousClock.now
        for start in stride(from: 0, to: puts.count, by: perCommit) {
            try environment.write { txn in
                let slice = puts[start..<min(start + perCommit, puts.count)]
                for put in slice {
                    try txn.put(put.record, forKey: put.position, in: events, options: .append)
                    try txn.put(put.position, forKey: put.streamKey, in: streams)
                    try txn.put(put.position, forKey: put.id, in: ids)
                }
                // The journal writes one stream head per stream per append and one journal head per commit.
                var lastHead: [[UInt8]: [UInt8]] = [:]
                for put in slice { lastHead[put.stream] = put.head }
                for (stream, head) in lastHead { try txn.put(head, forKey: stream, in: heads) }
                try txn.put(slice.last!.journalHead, forKey: headKey, in: meta)
            }
        }
        return Double(puts.count) / seconds(ContinuousClock.now - started)
    }

    /// Checks that the raw peer did the journal's puts: every entry of the four data databases is the same.
    static func requireSameContents(_ journalPath: String, _ rawPath: String) throws {
        let names = ["events", "streams", "stream_heads", "event_ids"]
        func contents(_ path: String) throws -> [[[UInt8]]] {
            let environment = try Environment.open(path: path, options: EnvironmentOptions(mapSize: 1 << 30))
            let databases = try environment.openDatabases(names, create: false)
            return try environment.read { txn in
                try databases.map { database in
                    try txn.withCursor(on: database) { cursor in
                        var entries: [[UInt8]] = []
                        var entry = try cursor.first()
                        while let current = entry {
                            entries.append(Array(current.key) + [0xFF] + Array(current.value))
                            entry = try cursor.next()
                        }
                        return entries
                    }
                }
            }
        }
        guard try contents(journalPath) == contents(rawPath) else {
            throw HarnessError("the raw peer's puts differ from the journal's: the benchmark compares unlike work")
        }
    }

    /// Raw LMDB: a cursor over the journal's events database, touching every value, in one read transaction.
    static func rawScan(_ path: String, expected: Int) throws -> Double {
        let environment = try Environment.open(path: path, options: EnvironmentOptions(mapSize: 1 << 30))
        let events = try environment.openDatabases(["events"], create: false)[0]
        let started = ContinuousClock.now
        let (count, checksum) = try environment.read { txn in
            try txn.withCursor(on: events) { cursor in
                var count = 0
                var checksum = 0
                var entry = try cursor.first()
                while let current = entry {
                    count += 1
                    checksum &+= current.value.count &+ Int(current.value[current.value.count - 1])
                    entry = try cursor.next()
                }
                return (count, checksum)
            }
        }
        let rate = Double(count) / seconds(ContinuousClock.now - started)
        precondition(count == expected && checksum != 0)
        return rate
    }
}
