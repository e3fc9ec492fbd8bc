/// A command that was refused: nothing was written. The message says what is wrong; the remedy, how to fix it.
public struct TrainingError: Error, Sendable, CustomStringConvertible {
    public enum Code: Sendable, Equatable {
        /// `start` while a workout is in progress.
        case workoutInProgress
        /// A workout command with no workout in progress.
        case noActiveWorkout
        /// A name or number that matches nothing.
        case notFound
        /// An exercise that is neither in the catalog nor custom.
        case unknownExercise
        /// A value outside what the rules allow.
        case invalidValue
        /// A weight so far above the previous one that it needs `--confirm`.
        case needsConfirmation
        /// The command does not apply in the current state.
        case notAllowed
        /// What the command asks for holds already (a workout paused again, deleted again): nothing is written. The
        /// command line says so and exits 0, as for any command that finds nothing to change.
        case alreadyDone
        /// A stored training event whose payload does not decode.
        case undecodable
        /// Other writers kept changing the same stream; the command gave up.
        case contention
    }

    public let code: Code
    public let message: String
    public let remedy: String

    public init(_ code: Code, _ message: String, remedy: String) {
        self.code = code
        self.message = message
        self.remedy = remedy
    }

    public var description: String { "\(message); \(remedy)" }
}
