import ArgumentParser
import EventJournal
import Foundation

struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Log a short workout into a fresh journal in a temporary directory, then show it.",
        discussion: "Uses the same code paths as 'append', 'events', 'verify' and 'stats'.")

    @Flag(help: "Keep the temporary journal and print its path, instead of deleting it.")
    var keep = false

    func run() async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("liftledger-demo-\(UUID().uuidString.lowercased())").path
        defer { if !keep { try? FileManager.default.removeItem(atPath: directory) } }
        let journal = try Journal.open(at: directory, create: true)
        let workout = "workout-" + UUID.timeOrdered().uuidString.lowercased()
        let start = Timestamp.now().microsecondsSinceEpoch - 55 * 60 * 1_000_000
        func at(minutes: Int) -> Timestamp {
            Timestamp(microsecondsSinceEpoch: start + Int64(minutes) * 60 * 1_000_000)
        }
        let script: [(Int, String, String)] = [
            (0, "WorkoutStarted", #"{"name": "Push A", "routine": "push-a"}"#),
            (
                1, "ExerciseAdded",
                #"{"exercise": "Barbell_Bench_Press_-_Medium_Grip", "name": "Bench Press (Barbell)"}"#
            ),
            (
                3, "SetLogged",
                #"{"exercise": "Barbell_Bench_Press_-_Medium_Grip", "weight": {"value": 60, "unit": "kg"}, "reps": 10, "type": "warmup"}"#
            ),
            (
                6, "SetLogged",
                #"{"exercise": "Barbell_Bench_Press_-_Medium_Grip", "weight": {"value": 90, "unit": "kg"}, "reps": 5, "type": "normal", "rpe": 8}"#
            ),
            (6, "RestTimerStarted", #"{"seconds": 180, "endsAt": "\#(at(minutes: 9))"}"#),
            (
                10, "SetLogged",
                #"{"exercise": "Barbell_Bench_Press_-_Medium_Grip", "weight": {"value": 90, "unit": "kg"}, "reps": 5, "type": "normal", "rpe": 8.5}"#
            ),
            (12, "ExerciseAdded", #"{"exercise": "Standing_Military_Press", "name": "Overhead Press (Barbell)"}"#),
            (
                15, "SetLogged",
                #"{"exercise": "Standing_Military_Press", "weight": {"value": 115, "unit": "lb"}, "reps": 6, "type": "normal"}"#
            ),
            (
                19, "SetLogged",
                #"{"exercise": "Standing_Military_Press", "weight": {"value": 115, "unit": "lb"}, "reps": 5, "type": "failure"}"#
            ),
            (55, "WorkoutFinished", #"{"note": "Felt strong on bench."}"#),
        ]
        var version: UInt64 = 0
        for (minutes, type, data) in script {
            let event = ProposedEvent(
                type: type, encoding: .json, payload: try AppendCommand.validatedJSON(data),
                occurredAt: at(minutes: minutes), metadata: EventMetadata(correlationID: workout, source: "cli:demo"))
            let expected: ExpectedVersion = version == 0 ? .noStream : .exact(version)
            version = try await journal.append([event], to: workout, expectedVersion: expected).streamVersion
        }
        Terminal.write("A fresh journal at \(directory) holding one workout (\(workout)):\n\n")
        var printer = RecordPrinter(json: false)
        try journal.forEachRecord { printer.print($0) }
        let report = try journal.verify()
        Terminal.write(
            "\nverify: \(report.isValid ? "ok" : "FAILED"), \(report.recordsChecked) records, hash chain intact\n\n")
        let statistics = try journal.statistics()
        Terminal.write(
            """
            events          \(statistics.events)
            streams         \(statistics.streams)
            head position   \(statistics.headPosition)
            head hash       \(statistics.headHash.hexString)
            size on disk    \(statistics.fileBytes) bytes

            """)
        if keep { Terminal.write("kept: liftledger --journal \(directory) events\n") }
    }
}
