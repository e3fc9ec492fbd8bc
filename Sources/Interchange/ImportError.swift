/// An import or export that was refused: nothing was written. The message says what is wrong (with the line, when a
/// row is); the remedy, how to fix it.
public struct ImportError: Error, Sendable, CustomStringConvertible {
    public enum Code: Sendable, Equatable {
        /// The file is not one of the layouts this build reads.
        case unknownLayout
        /// A row or field does not parse.
        case malformed
        /// The file carries no unit and none was given, or the one given does not fit the numbers.
        case unit
        /// The file holds nothing to import.
        case empty
        /// A mapping file that does not parse, or names no exercise.
        case mapping
        /// The file could not be read or written.
        case file
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
