import ArgumentParser
import EventJournal
import Foundation
import Training

struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Log two workouts into a fresh journal in a temporary directory, then show what it holds.",
        discussion: "Uses the same training commands as start, log, rest and finish, with the clock set back.")

    @Flag(help: "Keep the temporary journal and print its path, instead of deleting it.")
    var keep = false

    func run() async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("liftledger-demo-\(UUID().uuidString.lowercased())").path
        defer { if !keep { try? FileManager.default.removeItem(atPath: directory) } }
        let journal = try Journal.open(at: directory, create: true)
        let now = Timestamp.now()
        let clock = DemoClock(now.microsecondsSinceEpoch - 3 * 86_400 * 1_000_000)
        let log = try TrainingLog(journal: journal, clock: clock.read, source: "cli:demo")
        func set(
            _ words: String, _ kind: SetKind = .normal, rpe: Double? = nil, after minutes: Double = 3
        )
            async throws
        {
            clock.advance(minutes: minutes)
            let entry = try SetEntry(words: words.split(separator: " ").map(String.init), defaultUnit: .kilograms)
            try await log.logSet(
                SetRequest(
                    exercise: entry.exercise, weight: entry.weight, reps: entry.reps, kind: kind,
                    rpe: rpe.flatMap(RPE.init)))
        }

        try await log.addToRoutine("Push", exercise: "bench press", sets: 3, reps: 5...8, restSeconds: 180)
        try await log.addToRoutine("Push", exercise: "overhead press", sets: 3, reps: 6...10, restSeconds: 120)
        // Three days ago: every working bench set reached 8 reps.
        try await log.start(routine: "Push")
        try await set("bench press 60kg x 10", .warmup)
        try await set("bench press 90kg x 8", rpe: 8)
        try await log.startRest(seconds: 180)
        try await set("bench press 90kg x 8", rpe: 9, after: 4)
        try await set("overhead press 115lb x 6", after: 5)
        try await set("overhead press 115lb x 5", .failure)
        clock.advance(minutes: 20)
        try await log.finish(note: "Felt strong on bench.")

        // Today, 25 minutes ago: the workout still in progress, its rest timer running.
        clock.set(now.microsecondsSinceEpoch - 25 * 60 * 1_000_000)
        try await log.start(routine: "Push")
        try await set("bench press 60kg x 10", .warmup)
        try await set("bench press 92.5kg x 6", rpe: 8.5)
        try await log.pause()
        clock.advance(minutes: 6)
        try await log.resume()
        try await set("bench press 92.5kg x 6", rpe: 9, after: 4)
        clock.set(now.microsecondsSinceEpoch - 50 * 1_000_000)
        try await log.startRest(seconds: 180)

        Terminal.write("A fresh journal at \(directory), written by the training commands.\n\n$ liftledger status\n")
        guard let session = try log.activeSession(at: now) else {
            throw CLIError(message: "the demo's workout is not in progress", remedy: "report this as a bug")
        }
        Terminal.write(StatusCommand.text(session, timeZone: .current))
        Terminal.write("\n$ liftledger events --stream \(session.workout.id)\n")
        var printer = RecordPrinter(json: false)
        for record in try journal.readStream(session.workout.id) { printer.print(record) }
        let report = try journal.verify()
        let statistics = try journal.statistics()
        Terminal.write(
            """

            verify: \(report.isValid ? "ok" : "FAILED"), \(report.recordsChecked) records, hash chain intact
            events \(statistics.events), streams \(statistics.streams), head \(statistics.headPosition), \
            \(statistics.fileBytes) bytes on disk

            """)
        if keep { Terminal.write("kept: liftledger --journal \(directory) status\n") }
    }
}

/// The demo's clock, set back and moved forward by the script.
private final class DemoClock: @unchecked Sendable {
    // Safe: `microseconds` is only touched while holding `lock`.
    private var microseconds: Int64
    private let lock = NSLock()

    init(_ microseconds: Int64) { self.microseconds = microseconds }

    var read: @Sendable () -> Timestamp {
        { [self] in lock.withLock { Timestamp(microsecondsSinceEpoch: microseconds) } }
    }

    func advance(minutes: Double) { lock.withLock { microseconds += Int64(minutes * 60_000_000) } }

    func set(_ value: Int64) { lock.withLock { microseconds = value } }
}
