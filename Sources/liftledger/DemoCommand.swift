import ArgumentParser
import EventJournal
import Foundation
import Interchange
import Training

struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Import the bundled real exports into a fresh journal, then show what a new user looks at first.",
        discussion: """
            The four exports in Fixtures/exports (Strong in English and Chinese, Hevy, FitNotes; their licences \
            beside them) go into one journal in a temporary directory, through the same importer as \
            liftledger import. Then: recent history, top records, streaks, the last four weeks' muscle balance and \
            insights, as of the last workout.
            """)

    @Flag(help: "Keep the temporary journal and print its path, instead of deleting it.")
    var keep = false

    @Option(
        help: ArgumentHelp(
            "Where the exports are (default: Fixtures/exports of the source tree this program was built in).",
            valueName: "dir"))
    var fixtures: String?

    func run() async throws {
        let exports = try fixtures ?? Self.bundledExports()
        let files: [(String, MassUnit?)] = [
            ("strong-2026.csv", .kilograms), ("strong-zh-2020-2023.csv", .pounds), ("hevy-kg-2022-2026.csv", nil),
            ("fitnotes-2022-2025.csv", nil),
        ]
        // Looked for before anything is made or printed: a refused demo prints its error alone.
        for (file, _) in files where !FileManager.default.isReadableFile(atPath: exports + "/" + file) {
            throw CLIError(
                message: "cannot read \(exports)/\(file)",
                remedy: "give --fixtures a directory holding the four exports of Fixtures/exports")
        }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("liftledger-demo-\(UUID().uuidString.lowercased())").path
        if !keep { TemporaryJournal.removeAtExit(directory) }
        defer { TemporaryJournal.remove() }
        let journal = try Journal.open(at: directory, create: true)
        let log = try TrainingLog(journal: journal, source: "cli:demo")
        try await log.updateProfile(ProfileUpdated(timeZone: "UTC"))
        Terminal.write("A fresh journal at \(directory); the bundled exports, imported:\n\n")
        for (file, unit) in files {
            let report = try await Importer(log: log).importFile(
                at: exports + "/" + file, options: ImportOptions(unit: unit))
            let custom = report.exercises.filter(\.isCustom).count
            Terminal.write(
                "$ liftledger import \(file)\(unit.map { " --unit \($0.rawValue)" } ?? "")\n"
                    + "  \(report.layout): \(report.workoutsAdded) workouts, \(report.sets) sets "
                    + "(\(counted(report.warmupSets, "warm-up"))), "
                    + "\(Self.kilograms(Double(report.volumeMilligrams), digits: 1)) kg with warm-ups; "
                    + "\(report.exercises.count - custom) exercise names mapped to the catalog, \(custom) custom\n")
        }
        try log.query { snapshot in
            let history = try snapshot.history()
            guard let last = history.last else { return }
            let zone = snapshot.rules.timeZone
            let today = LocalDate(dayNumber: LocalDate.dayNumber(of: last.startedAt, in: zone))
            let catalog = try snapshot.catalog()
            func name(_ id: String) -> String { catalog.exercise(id: id)?.name ?? id }
            // Each section is a summary, headed by the command that gives it in full.
            var text =
                "\nAs of the last workout, \(today):\n\nThe last five workouts (in full: liftledger history --last 5)\n"
            let nameWidth = columnWidth(history.suffix(5).map(\.name), least: 14, most: 34)
            for workout in history.suffix(5) {
                text +=
                    "  \(LocalDate(dayNumber: LocalDate.dayNumber(of: workout.startedAt, in: zone)))  "
                    + padded(fitted(workout.name, nameWidth - 2), nameWidth)
                    + padded(TrainingFormat.workoutDuration(workout), 12)
                    + "\(workout.sets) sets, \(Self.kilograms(Double(workout.volume), digits: 1)) kg\n"
            }
            text +=
                "\nRecords of the five exercises trained most, heaviest and estimated 1RM (in full: liftledger prs "
                + "--as-of \(today))\n"
            let busiest = try snapshot.exercisesTrained().map { ($0, try snapshot.sessions(of: $0).count) }
                .sorted { ($1.1, $0.0) < ($0.1, $1.0) }.prefix(5)
            for (id, sessions) in busiest {
                let records = try snapshot.latestRecords(of: id)
                let heaviest =
                    records[.heaviestWeight].map { "\(Self.kilograms($0.current.value.doubleValue)) kg" } ?? "-"
                let estimate =
                    records[.estimatedOneRepMax].map { "\(Self.kilograms($0.current.value.doubleValue)) kg" } ?? "-"
                text += "  " + padded(name(id), 36) + padded("heaviest \(heaviest)", 20) + "e1RM \(estimate)"
                text += "  (\(sessions) sessions)\n"
            }
            let streak = try snapshot.streak(today: today)
            text += "\nThe streak (in full: liftledger streak --as-of \(today))\n"
            text += "  current \(streak.current) weeks, longest \(streak.longest) weeks "
            text += "(weeks with at least \(streak.weeklyTarget) workout)\n"
            let balance = try snapshot.balance(weeks: 4, today: today)
            text += "\nSets per muscle over four weeks (in full: liftledger balance --weeks 4 --as-of \(today))\n"
            for muscle in balance.muscles.filter({ $0.sets > 0 }).prefix(8) {
                text += "  " + padded(muscle.name, 14) + padded(String(muscle.sets) + " sets", 14)
                text += muscle.isFlagged ? "low\n" : "\n"
            }
            if let ratio = balance.pushPullRatio { text += "  push/pull \((ratio * 100).rounded() / 100)\n" }
            text += "\nInsights (in full: liftledger insights --as-of \(today))\n"
            for insight in try snapshot.insights(today: today, names: name, unit: .kilograms).prefix(6) {
                text += "  \(insight.kind.rawValue): \(insight.message)\n"
            }
            Terminal.write(text)
        }
        let report = try journal.verify()
        let statistics = try journal.statistics()
        Terminal.write(
            """

            verify: \(report.problem.map { "FAILED, \($0)" } ?? "ok, hash chain intact"), \
            \(report.recordsChecked) records; \(statistics.fileBytes / 1_048_576) MiB on disk

            """)
        // The commands above name no journal: without --keep, they would ask the user's own.
        Terminal.write(
            keep
                ? "kept: liftledger history --journal \(Shell.word(directory))\n"
                : "the journal is removed now; to run the commands above on it, run demo --keep and give them its "
                    + "--journal\n")
    }

    /// A mass given in milligrams, in kilograms to `digits` decimals: the demo's profile gives weights in kilograms.
    private static func kilograms(_ milligrams: Double, digits: UInt8 = 2) -> String {
        MassUnit.kilograms.text(milligrams: milligrams, digits: digits)
    }

    /// Fixtures/exports of the source tree the executable was built in (`.build/<configuration>/liftledger`).
    static func bundledExports() throws -> String {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent()
        for _ in 0..<6 {
            let candidate = directory.appendingPathComponent("Fixtures/exports").path
            if FileManager.default.fileExists(atPath: candidate + "/hevy-kg-2022-2026.csv") { return candidate }
            directory.deleteLastPathComponent()
        }
        throw CLIError(
            message:
                "the bundled exports are not where they should be (Fixtures/exports of the source tree this program "
                + "was built in: it was moved or copied)",
            remedy: "run tools/liftledger demo in the repository, or give --fixtures DIR")
    }
}
