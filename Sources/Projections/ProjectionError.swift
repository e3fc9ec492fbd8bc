/// A failure of the projection engine: a matchable code, what went wrong, and what to do about it.
public struct ProjectionError: Error, Sendable, CustomStringConvertible {
    public enum Code: Sendable, Equatable {
        /// A projection whose name or tables break the naming rules.
        case invalidDefinition
        /// A name that is not one of the store's projections.
        case unknownProjection
        /// A checkpoint or rebuild marker whose bytes do not parse.
        case corruptCheckpoint
        /// An event the projection's decoder refuses.
        case undecodableEvent
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
