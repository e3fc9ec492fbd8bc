import ArgumentParser

/// Test and measurement programs for the journal, run by tools/crash-test, tools/bench and the tests. Not
/// installed for users.
@main
struct Harness: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "liftledger-harness",
        abstract: "Crash, contention and benchmark programs for the LiftLedger journal.",
        subcommands: [
            CrashTest.self, AppendWorker.self, ContendWorker.self, Bench.self, SessionCrashTest.self,
            WorkoutDriver.self, RaceStart.self, GenerateCommand.self, ProjectCommand.self, ReadModelDigestCommand.self,
            PreparedFoldDigestCommand.self,
            PeakMemoryCommand.self, FuzzImport.self, KilledWritersTest.self, MapGrowthUnderLimit.self,
        ]
    )
}
