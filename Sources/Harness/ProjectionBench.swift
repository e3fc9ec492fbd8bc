import ArgumentParser
import CSQLite
import EventJournal
import Foundation
import LMDB
import Projections
import Training

#if canImport(Glibc)
    import Glibc
#endif

/// The read models against their peers, measured in one run on generated journals: a full rebuild beside raw LMDB
/// scanning the same journal and beside the same folds fed from SQLite rows with JSON payloads (checked to write
/// the same read models), and, to show what its commits' syncs cost, beside itself on a copy of the journal whose
/// commits do not sync, and, to show what reading and decoding alone cost, beside one thread decoding the journal, and
/// what the folds alone cost, beside them fed events decoded beforehand;
/// the latency of an append and a query at two journal sizes; cold-process queries beside `liftledger --version`;
/// and the rebuild's peak memory at two journal sizes.
struct ProjectionsBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "projections",
        abstract: "Rebuild, query latency, cold starts and rebuild memory, each beside its peer.")

    @Flag(help: "Small journals and fewer repetitions: a smoke test, not a measurement.")
    var quick = false

    @Option(help: "Where the benchmark journals go (default: a new temporary directory, removed afterwards).")
    var directory: String?

    @Option(help: "The path of the liftledger executable to time (default: beside this one).")
    var liftledger: String?

    mutating func run() async throws {
        let scratch = ScratchDirectory(given: directory, prefix: "liftledger-bench-projections")
        defer { withExtendedLifetime(scratch) {} }
        let root = scratch.path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let tool =
            liftledger ?? (URL(fileURLWithPath: ownExecutablePath()).deletingLastPathComponent().path + "/liftledger")
        let sizes =
            quick ? (small: 2_000, main: 20_000, large: 100_000) : (small: 10_000, main: 1_000_000, large: 5_000_000)
        let repetitions = quick ? 1 : 5
        var report: [(String, String)] = []

        let main = try await Self.generate(at: root + "/main", events: sizes.main)
        // A copy of it opened relaxed, whose commits do not sync: how much of a rebuild the syncs take.
        let unsyncedPath = root + "/unsynced"
        try FileManager.default.createDirectory(atPath: unsyncedPath, withIntermediateDirectories: false)
        try FileManager.default.copyItem(atPath: main.path + "/data.mdb", toPath: unsyncedPath + "/data.mdb")
        let unsyncedModels = try TrainingReadModels(
            journal: Journal.open(at: unsyncedPath, options: JournalOptions(durability: .relaxed)))
        let small = try await Self.generate(at: root + "/small", events: sizes.small)
        let events = try main.head().position

        // Full rebuild of every read model, against raw LMDB scanning the same journal's events, and against the same
        // folds fed from SQLite rows with JSON payloads, repetitions interleaved.
        let models = try TrainingReadModels(journal: main)
        let rules = try models.currentRules()
        let sqlitePath = root + "/peer.sqlite"
        try Self.exportToSQLite(main, path: sqlitePath)
        var rebuild: [Double] = []
        // The processor time of the rebuild (every thread's, user and system) over its wall time, and the same for the
        // peer: how many of the machine's cores each kept busy.
        var rebuildBusyCores: [Double] = []
        var peerBusyCores: [Double] = []
        var unsynced: [Double] = []
        var scan: [Double] = []
        var decodedScan: [Double] = []
        var peer: [Double] = []
        var peerFold: [Double] = []
        var ceiling: [Double] = []
        var peerStore: ReadModelStore?
        for repetition in 0..<repetitions {
            let rebuildTime = try Self.wallAndProcessorSeconds { try models.rebuild() }
            rebuild.append(Double(events) / rebuildTime.wall)
            rebuildBusyCores.append(rebuildTime.processor / rebuildTime.wall)
            unsynced.append(Double(events) / (try Self.seconds { try unsyncedModels.rebuild() }))
            scan.append(try JournalBench.rawScan(main.path, expected: Int(events)))
            decodedScan.append(try Self.decodedScan(main, expected: Int(events)))
            // The peer's read models are synced at each commit, as the rebuild's are beside the journal.
            let peerPath = root + "/peer-models-\(repetition)"
            try FileManager.default.createDirectory(atPath: peerPath, withIntermediateDirectories: false)
            let store = try ReadModelStore(
                environment: Environment.open(path: peerPath), projections: TrainingReadModels.descriptors)
            let peerTime = try Self.wallAndProcessorSeconds {
                try Self.foldFromSQLite(sqlitePath, into: store, rules: rules)
            }
            peer.append(Double(events) / peerTime.wall)
            peerBusyCores.append(peerTime.processor / peerTime.wall)
            peerStore = store
            let foldPath = root + "/peer-fold-\(repetition)"
            try FileManager.default.createDirectory(atPath: foldPath, withIntermediateDirectories: false)
            let foldStore = try ReadModelStore(
                environment: Environment.open(path: foldPath), projections: TrainingReadModels.descriptors)
            peerFold.append(Double(events) / (try Self.peerFoldSeconds(sqlitePath, into: foldStore, rules: rules)))
            // The time of an event in the peer over the least a rebuild could spend on it with every core busy.
            let cores = Double(ProcessInfo.processInfo.activeProcessorCount)
            ceiling.append(cores * (1 / peer.last!) / (1 / decodedScan.last! + 1 / peerFold.last!))
        }
        let ours = try ReadModelDigestCommand.digests(
            of: ReadModelStore(environment: main.environment, projections: TrainingReadModels.descriptors))
        guard let peerStore, try ReadModelDigestCommand.digests(of: peerStore).map(\.sha256) == ours.map(\.sha256)
        else {
            throw HarnessError(
                "the SQLite peer's read models differ from the rebuild's: the benchmark compares unlike work")
        }
        report += [
            ("events", String(events)),
            ("rebuildEventsPerSecond", String(Int(Self.median(rebuild)))),
            ("rawScanEventsPerSecond", String(Int(Self.median(scan)))),
            ("sqliteJSONPeerEventsPerSecond", String(Int(Self.median(peer)))),
            ("rebuildVsSQLitePeer", Self.verdict(Self.median(zip(rebuild, peer).map(/)), target: 10)),
            ("rebuildVsRawScan", Self.verdict(Self.median(zip(rebuild, scan).map(/)), target: 0.1)),
            // Not a target: the same rebuild with commits that do not sync, to show what the syncs cost.
            ("unsyncedRebuildEventsPerSecond", String(Int(Self.median(unsynced)))),
            ("unsyncedRebuildVsRawScan", String((Self.median(zip(unsynced, scan).map(/)) * 1_000).rounded() / 1_000)),
            // Not a target: the events read, checked and decoded on one thread, as a rebuild's reading thread does
            // before it folds anything.
            ("decodedScanEventsPerSecond", String(Int(Self.median(decodedScan)))),
            ("decodedScanVsRawScan", String((Self.median(zip(decodedScan, scan).map(/)) * 1_000).rounded() / 1_000)),
            // Not a target: the peer's folds alone, fed events decoded beforehand. The folds are the same code in the
            // rebuild and in the peer, so they bound the ratio: were the rebuild to keep every core busy with nothing
            // but the decoded scan's work and these folds, it would run this many times the peer.
            ("peerFoldOnlyEventsPerSecond", String(Int(Self.median(peerFold)))),
            ("rebuildVsSQLitePeerCeiling", String((Self.median(ceiling) * 1_000).rounded() / 1_000)),
            // Not targets: how many cores the rebuild and the peer kept busy, beside how many this machine has.
            ("rebuildBusyCores", String(format: "%.2f", Self.median(rebuildBusyCores))),
            ("sqliteJSONPeerBusyCores", String(format: "%.2f", Self.median(peerBusyCores))),
            ("processorCores", String(ProcessInfo.processInfo.activeProcessorCount)),
            // Not a target: the ratios differ from one processor to another, so a figure names the one it came from.
            ("processorModel", Self.processorModel.debugDescription),
            ("readModelMebibytes", String(format: "%.1f", Double(ours.map(\.bytes).reduce(0, +)) / 1_048_576)),
        ]

        // One append and a records query for one exercise, at both sizes, interleaved.
        let smallModels = try TrainingReadModels(journal: small)
        try smallModels.catchUp()
        try models.catchUp()
        var latencySmall: [Double] = []
        var latencyMain: [Double] = []
        for index in 0..<(quick ? 5 : 41) {
            latencySmall.append(try await Self.appendThenQuery(small, smallModels, index))
            latencyMain.append(try await Self.appendThenQuery(main, models, index))
        }
        report += [
            ("appendThenPRsMillisecondsAt\(sizes.small)", Self.milliseconds(Self.median(latencySmall))),
            ("appendThenPRsMillisecondsAt\(sizes.main)", Self.milliseconds(Self.median(latencyMain))),
            (
                "appendThenPRsLargeVsSmall",
                Self.verdict(Self.median(latencyMain) / Self.median(latencySmall), target: 1.5, atMost: true)
            ),
        ]

        // Cold processes: status and prs on the large journal against printing the version.
        var version: [Double] = []
        var status: [Double] = []
        var records: [Double] = []
        for _ in 0..<(quick ? 3 : 21) {
            version.append(try Self.run([tool, "--version"]).seconds)
            status.append(try Self.run([tool, "status", "--journal", main.path]).seconds)
            records.append(try Self.run([tool, "prs", "squat", "--journal", main.path]).seconds)
        }
        report += [
            ("versionMilliseconds", Self.milliseconds(Self.median(version))),
            ("coldStatusMilliseconds", Self.milliseconds(Self.median(status))),
            ("coldPRsMilliseconds", Self.milliseconds(Self.median(records))),
            ("coldStatusVsVersion", Self.verdict(Self.median(status) / Self.median(version), target: 3, atMost: true)),
            ("coldPRsVsVersion", Self.verdict(Self.median(records) / Self.median(version), target: 3, atMost: true)),
        ]

        // Peak memory of a rebuild in a process of its own, at two sizes, each over read models built before (so that
        // both replace old ones).
        let large = try await Self.generate(at: root + "/large", events: sizes.large)
        try TrainingReadModels(journal: large).catchUp()
        let largePath = large.path
        let mainPath = main.path
        let mainMemory = try Self.peakMemory([tool, "rebuild", "--journal", mainPath])
        let largeMemory = try Self.peakMemory([tool, "rebuild", "--journal", largePath])
        report += [
            ("largeEvents", String(try large.head().position)),
            ("rebuildPeakKilobytesAt\(sizes.main)", String(mainMemory)),
            ("rebuildPeakKilobytesAt\(sizes.large)", String(largeMemory)),
            (
                "rebuildPeakLargeVsMain",
                Self.verdict(Double(largeMemory) / Double(mainMemory), target: 1.5, atMost: true)
            ),
            ("quick", String(quick)),
        ]
        print("{\n" + report.map { "  \"\($0.0)\": \($0.1)" }.joined(separator: ",\n") + "\n}")
    }

    // MARK: Journals

    /// A generated journal of at least `events` events, written in relaxed mode, then opened as users open it.
    static func generate(at path: String, events: Int) async throws -> Journal {
        do {
            let journal = try Journal.open(
                at: path, options: JournalOptions(durability: .relaxed, initialMapSize: 1 << 30), create: true)
            var generator = TrainingGenerator(seed: 7)
            var written = 0
            while written < events {
                let (stream, batch) = generator.next()
                _ = try await journal.append(batch, to: stream)
                written += batch.count
            }
            try journal.environment.sync()
        }
        return try Journal.open(at: path)
    }

    /// One small workout appended in one append (durable), then the squat's records asked for: the read models
    /// catch up first. Returns seconds.
    static func appendThenQuery(_ journal: Journal, _ models: TrainingReadModels, _ index: Int) async throws -> Double {
        let at = Timestamp.now()
        let set = SetDetails(
            exerciseId: "Barbell_Full_Squat", weight: Weight(ExactDecimal(Int64(60 + index % 40)), .kilograms), reps: 5)
        let events: [any TrainingEventPayload] = [
            WorkoutStarted(name: "Bench"), ExerciseAdded(exerciseId: "Barbell_Full_Squat", exerciseName: "Squat"),
            SetLogged(setNumber: 1, set: set), WorkoutFinished(),
        ]
        return try await seconds {
            _ = try await journal.append(events.map { $0.proposed(occurredAt: at) }, to: "bench-workout-\(index)")
            let rules = try models.catchUp()
            let records = try models.read(rules: rules) { try $0.latestRecords(of: "Barbell_Full_Squat") }
            precondition(!records.isEmpty)
        }
    }

    // MARK: The SQLite peer

    /// Writes every record of `journal` as a row of an SQLite table, its payload as the JSON `events --json` shows
    /// under `data`: how an app built on Codable would keep the same events. Not timed.
    static func exportToSQLite(_ journal: Journal, path: String) throws {
        let database = try SQLite(path: path)
        try database.execute(
            "CREATE TABLE events (position INTEGER PRIMARY KEY, stream_id TEXT NOT NULL, stream_version INTEGER NOT "
                + "NULL, type TEXT NOT NULL, occurred_at INTEGER NOT NULL, recorded_at INTEGER NOT NULL, payload TEXT "
                + "NOT NULL)")
        try database.execute("BEGIN")
        let insert = try database.prepare("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?)")
        let encoder = JSONEncoder()
        try journal.forEachRecord { record in
            guard let event = try TrainingEvent.decode(record) else { return }
            let json = try encoder.encode(event.payload)
            try insert.run([
                .integer(Int64(record.position)), .text(record.streamID), .integer(Int64(record.streamVersion)),
                .text(record.type), .integer(record.occurredAt.microsecondsSinceEpoch),
                .integer(record.recordedAt.microsecondsSinceEpoch), .text(String(decoding: json, as: UTF8.self)),
            ])
        }
        // What the peer's fold reads a finished workout's events by (see `SQLiteWorkoutEvents`).
        try database.execute("CREATE INDEX events_by_stream ON events (stream_id, position)")
        try database.execute("COMMIT")
    }

    /// Reads every row in order, decodes its JSON payload with `JSONDecoder` into the training event types, and feeds
    /// the same projections as a rebuild, chunk by chunk, into `store`.
    static func foldFromSQLite(_ path: String, into store: ReadModelStore, rules: Rules) throws {
        let database = try SQLite(path: path)
        let projections = try peerProjections(database, rules: rules)
        try readChunks(database, of: projections) { chunk, last in
            try store.fold(projections, chunk, through: last)
        }
    }

    /// The peer's folds alone: every row read and decoded first, not timed, then the same projections fed the same
    /// chunks into `store`. Returns the seconds the folds took.
    static func peerFoldSeconds(_ path: String, into store: ReadModelStore, rules: Rules) throws -> Double {
        let database = try SQLite(path: path)
        let projections = try peerProjections(database, rules: rules)
        var chunks: [(events: [RecordedTrainingEvent], last: UInt64)] = []
        try readChunks(database, of: projections) { chunk, last in chunks.append((Array(chunk), last)) }
        return try seconds {
            for (events, last) in chunks { try store.fold(projections, events[...], through: last) }
        }
    }

    /// The projections a rebuild folds, reading finished workouts' events from the peer's table.
    private static func peerProjections(
        _ database: SQLite, rules: Rules
    ) throws -> [any Projection<RecordedTrainingEvent>] {
        [PlanProjection(), TrainingProjection(rules: rules, workoutEvents: try SQLiteWorkoutEvents(database))]
    }

    /// Reads every row in order, decodes its JSON payload with `JSONDecoder` into the training event types, and hands
    /// `body` the events in chunks of 65,536, each with the position of the last row read.
    private static func readChunks(
        _ database: SQLite, of projections: [any Projection<RecordedTrainingEvent>],
        _ body: (ArraySlice<RecordedTrainingEvent>, UInt64) throws -> Void
    ) throws {
        let select = try database.prepare("SELECT \(SQLiteWorkoutEvents.columns) FROM events ORDER BY position")
        // The records of types no projection reads are passed over undecoded, as the rebuild passes them over.
        let readTypes = eventTypes(readBy: projections)
        let decoder = JSONDecoder()
        var chunk: [RecordedTrainingEvent] = []
        var last: UInt64 = 0
        try select.forEachRow { row in
            last = UInt64(row.integer(0))
            if let readTypes, !readTypes.contains(row.text(3)) { return }
            guard let event = try SQLiteWorkoutEvents.event(row, decoder) else { return }
            chunk.append(event)
            if chunk.count == 65_536 {
                try body(chunk[...], last)
                chunk.removeAll(keepingCapacity: true)
            }
        }
        try body(chunk[...], last)
    }

    // MARK: Processes and figures

    struct Finished {
        var seconds: Double
        var maximumResidentKilobytes: Int
    }

    /// Runs a program to its end with its output discarded; its wall time and peak resident memory.
    static func run(_ arguments: [String]) throws -> Finished {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let started = ContinuousClock.now
        let rc = posix_spawn(&pid, arguments[0], &actions, nil, argv, environ)
        guard rc == 0 else { throw HarnessError("posix_spawn \(arguments[0]) failed: \(rc)") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw HarnessError("wait4 failed: errno \(errno)") }
        }
        let elapsed = JournalBench.seconds(ContinuousClock.now - started)
        guard status == 0 else {
            throw HarnessError("\(arguments.joined(separator: " ")) exited with status \(status)")
        }
        return Finished(seconds: elapsed, maximumResidentKilobytes: usage.ru_maxrss)
    }

    /// The peak resident memory of a program, in kilobytes, measured by a child of this executable that starts it:
    /// `posix_spawn` shares the parent's memory until `exec`, and Linux counts that in the new program's peak, so the
    /// program must start from a small process, not from this one.
    static func peakMemory(_ arguments: [String]) throws -> Int {
        let measurer = try ChildProcess([ownExecutablePath(), "peak-memory", "--"] + arguments)
        let status = measurer.wait()
        guard status == 0, let line = measurer.lines.last, let kilobytes = Int(line) else {
            throw HarnessError("peak-memory \(arguments.joined(separator: " ")) failed: status \(status)")
        }
        return kilobytes
    }

    /// Events per second of reading every record of `journal` as a fold does (its checksum and structure checked)
    /// and decoding its training event, on one thread, in one read transaction; the events are not kept.
    static func decodedScan(_ journal: Journal, expected: Int) throws -> Double {
        var records = 0
        var decoded = 0
        let time = try seconds {
            try journal.environment.read { transaction in
                try journal.withRecords(from: 1, in: transaction) { reader in
                    while let record = try reader.next() {
                        records += 1
                        if try RecordedTrainingEvent(record) != nil { decoded += 1 }
                    }
                }
            }
        }
        precondition(records == expected && decoded > 0)
        return Double(records) / time
    }

    static func seconds(_ body: () throws -> Void) throws -> Double {
        let started = ContinuousClock.now
        try body()
        return JournalBench.seconds(ContinuousClock.now - started)
    }

    /// The wall time of `body`, and the processor time (user and system, every thread) this process spent meanwhile,
    /// in seconds.
    static func wallAndProcessorSeconds(_ body: () throws -> Void) throws -> (wall: Double, processor: Double) {
        let before = processorSeconds()
        let wall = try seconds(body)
        return (wall, processorSeconds() - before)
    }

    /// The processor time, user and system, that every thread of this process has spent so far, in seconds.
    static func processorSeconds() -> Double {
        var usage = rusage()
        #if canImport(Glibc)
            getrusage(RUSAGE_SELF.rawValue, &usage)  // Glibc's RUSAGE_SELF comes in as a case of an enum
        #else
            getrusage(RUSAGE_SELF, &usage)
        #endif
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    static func seconds(_ body: () async throws -> Void) async throws -> Double {
        let started = ContinuousClock.now
        try await body()
        return JournalBench.seconds(ContinuousClock.now - started)
    }

    /// The processor's model name as Linux reports it (`/proc/cpuinfo`), or "unknown".
    static var processorModel: String {
        let information = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let line = information.split(separator: "\n").first { $0.hasPrefix("model name") }
        return line.flatMap { $0.split(separator: ":", maxSplits: 1).last }.map {
            $0.trimmingCharacters(in: .whitespaces)
        } ?? "unknown"
    }

    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    static func milliseconds(_ seconds: Double) -> String { String((seconds * 100_000).rounded() / 100) }

    /// `{"value": 12.3, "target": 10, "met": true}`: at least the target, or with `atMost`, at most.
    static func verdict(_ value: Double, target: Double, atMost: Bool = false) -> String {
        let met = atMost ? value <= target : value >= target
        let rounded = (value * 1_000).rounded() / 1_000
        return #"{"value": \#(rounded), "\#(atMost ? "atMost" : "atLeast")": \#(target), "met": \#(met)}"#
    }
}

/// The SQLite peer's workout events, read from its table by stream: the peer's fold reads every event from SQLite.
///
/// `@unchecked Sendable`: the peer folds on one thread, the one that made it, and its statement is used there alone.
final class SQLiteWorkoutEvents: WorkoutEventSource, @unchecked Sendable {
    /// The columns an event is read from, in the order `event(_:_:)` reads them.
    static let columns = "position, stream_id, stream_version, type, occurred_at, recorded_at, payload"
    private let select: SQLite.Statement
    private let decoder = JSONDecoder()

    init(_ database: SQLite) throws {
        select = try database.prepare(
            "SELECT \(Self.columns) FROM events WHERE stream_id = ? AND position < ? ORDER BY position")
    }

    func events(
        of stream: String, before position: UInt64, in transaction: Transaction
    ) throws
        -> [RecordedTrainingEvent]
    {
        var events: [RecordedTrainingEvent] = []
        try select.forEachRow(binding: [.text(stream), .integer(Int64(clamping: position))]) { row in
            if let event = try Self.event(row, decoder) { events.append(event) }
        }
        return events
    }

    /// The event of a row of `columns`, its JSON payload decoded with `decoder`; nil for a type it does not know.
    static func event(_ row: SQLite.Row, _ decoder: JSONDecoder) throws -> RecordedTrainingEvent? {
        guard let event = try TrainingEvent.decode(typeName: row.text(3), json: Data(row.text(6).utf8), using: decoder)
        else { return nil }
        return RecordedTrainingEvent(
            position: UInt64(row.integer(0)), streamID: row.text(1), streamVersion: UInt64(row.integer(2)),
            occurredAt: Timestamp(microsecondsSinceEpoch: row.integer(4)),
            recordedAt: Timestamp(microsecondsSinceEpoch: row.integer(5)), event: event)
    }
}

/// A minimal SQLite connection for the benchmark's peer.
final class SQLite {
    private let handle: OpaquePointer

    init(path: String) throws {
        var handle: OpaquePointer?
        guard sqlite3_open(path, &handle) == SQLITE_OK, let handle else {
            throw HarnessError("sqlite3_open \(path) failed")
        }
        self.handle = handle
    }

    deinit { sqlite3_close(handle) }

    func execute(_ sql: String) throws {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
            throw HarnessError("sqlite3_exec failed: \(String(cString: sqlite3_errmsg(handle)))")
        }
    }

    func prepare(_ sql: String) throws -> Statement {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw HarnessError("sqlite3_prepare_v2 failed: \(String(cString: sqlite3_errmsg(handle)))")
        }
        return Statement(statement)
    }

    enum Value {
        case integer(Int64)
        case text(String)
    }

    final class Statement {
        private let statement: OpaquePointer

        init(_ statement: OpaquePointer) { self.statement = statement }

        deinit { sqlite3_finalize(statement) }

        /// Binds `values` and steps once (an insert).
        func run(_ values: [Value]) throws {
            sqlite3_reset(statement)
            bind(values)
            guard sqlite3_step(statement) == SQLITE_DONE else { throw HarnessError("sqlite3_step failed") }
        }

        private func bind(_ values: [Value]) {
            for (index, value) in values.enumerated() {
                switch value {
                case .integer(let number): sqlite3_bind_int64(statement, Int32(index + 1), number)
                case .text(let text):
                    // SQLITE_TRANSIENT: SQLite copies the text before this call returns.
                    sqlite3_bind_text(
                        statement, Int32(index + 1), text, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
                }
            }
        }

        /// Binds `values` and steps through every row.
        func forEachRow(binding values: [Value] = [], _ body: (Row) throws -> Void) throws {
            sqlite3_reset(statement)
            bind(values)
            while true {
                let rc = sqlite3_step(statement)
                if rc == SQLITE_DONE { return }
                guard rc == SQLITE_ROW else { throw HarnessError("sqlite3_step failed: \(rc)") }
                try body(Row(statement: statement))
            }
        }
    }

    /// The current row of a statement; valid only inside `forEachRow`'s closure.
    struct Row {
        let statement: OpaquePointer

        func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }

        func text(_ column: Int32) -> String {
            guard let text = sqlite3_column_text(statement, column) else { return "" }
            return String(cString: text)
        }
    }
}

/// Runs a program and prints its peak resident memory in kilobytes: started from this small process, the figure is
/// the program's own (see `ProjectionsBench.peakMemory`).
struct PeakMemoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "peak-memory", abstract: "Run a program and print its peak resident memory in kilobytes.")

    @Argument(parsing: .captureForPassthrough, help: "The program and its arguments.")
    var command: [String]

    func run() async throws {
        let arguments = command.first == "--" ? Array(command.dropFirst()) : command
        writeLine(String(try ProjectionsBench.run(arguments).maximumResidentKilobytes))
    }
}
