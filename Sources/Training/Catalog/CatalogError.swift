/// The bundled exercise catalog could not be loaded: what went wrong and how to fix it.
public struct CatalogError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public let message: String
    /// What the user can do about it.
    public let remedy: String

    public init(_ message: String, remedy: String) {
        self.message = message
        self.remedy = remedy
    }

    public var description: String { "\(message); \(remedy)" }
}
