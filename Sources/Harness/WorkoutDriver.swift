import ArgumentParser
import EventJournal
import Foundation
import Training

/// The child of the session crash test: drives scripted workouts, one after another, through the training commands
/// the CLI runs, until it is killed. A workout left in progress by a killed driver is finished first (discarded when
/// it has no set yet, as `finish` refuses it then).
struct WorkoutDriver: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "workout-driver", abstract: "Log scripted workouts until killed.")

    @Option(help: "The journal directory.")
    var journal: String

    func run() async throws {
        let log = try TrainingLog(journal: try Journal.open(at: journal))
        var cycle = 0
        while true {
            if let left = try log.query({ try $0.activeWorkout() }) {
                if left.countedSets.isEmpty { try await log.discard() } else { try await log.finish(note: "recovered") }
            }
            try await workout(cycle, log)
            cycle += 1
        }
    }

    private func workout(_ cycle: Int, _ log: TrainingLog) async throws {
        func set(
            _ exercise: String, _ weight: String?, _ unit: MassUnit, _ reps: UInt32, _ kind: SetKind = .normal
        )
            async throws
        {
            let load = weight.map { Weight(ExactDecimal($0)!, unit) }
            try await log.logSet(SetRequest(exercise: exercise, weight: load, reps: reps, kind: kind, rpe: RPE(8)))
        }
        let heavy = String(100 + cycle % 4 * 5)
        try await log.start(name: "Cycle \(cycle)")
        try await log.addExercise("bench press")
        try await set("bench press", "60", .kilograms, 10, .warmup)
        try await set("bench press", heavy, .kilograms, 5)
        try await log.startRest(seconds: 90)
        try await log.extendRest(by: 15)
        try await set("bench press", heavy, .kilograms, 5, .failure)
        try await log.startRest(seconds: 120)
        try await log.pause()
        try await log.resume()
        try await log.skipRest()
        try await set("squat", "225", .pounds, 5)
        try await log.correctSet(4, SetCorrection(reps: 6))
        try await set("pull up", nil, .kilograms, 12)
        try await log.removeSet(5)
        try await set("bench press", "90", .kilograms, 8, .drop)
        try await log.startRest(seconds: 60)
        if cycle % 3 == 2 { try await log.discard() } else { try await log.finish(note: "cycle \(cycle)") }
    }
}

/// One side of a race: loads the state, waits until every party has loaded it (files in a barrier directory), then
/// starts a workout. Exits 0 if its start won.
struct RaceStart: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "race-start", abstract: "Start a workout at the same instant as other processes.")

    @Option(help: "The journal directory.")
    var journal: String

    @Option(help: "A directory the parties meet in.")
    var barrier: String

    @Option(help: "How many parties race.")
    var parties = 2

    func run() async throws {
        let barrier = self.barrier
        let parties = self.parties
        let arrived = OnceFlag()
        // The clock is read after the state is loaded and before the start is decided: the place to meet.
        let log = try TrainingLog(journal: try Journal.open(at: journal)) {
            if arrived.setOnce() { RaceStart.meet(barrier, parties: parties) }
            return .now()
        }
        do {
            let id = try await log.start(name: "race")
            print("won \(id)")
        } catch let error as TrainingError {
            print("lost: \(error)")
            throw ExitCode(3)
        }
    }

    private static func meet(_ directory: String, parties: Int) {
        let me = "\(directory)/\(getpid())"
        _ = FileManager.default.createFile(atPath: me, contents: nil)
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            let present = (try? FileManager.default.contentsOfDirectory(atPath: directory).count) ?? 0
            if present >= parties { return }
            usleep(200)
        }
    }
}

/// A flag that is set once, from any thread.
final class OnceFlag: @unchecked Sendable {
    // Safe: `value` is only touched while holding `lock`.
    private var value = false
    private let lock = NSLock()

    /// Sets the flag; true if it was not set before.
    func setOnce() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if value { return false }
        value = true
        return true
    }
}
