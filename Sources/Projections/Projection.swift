/// A read model folded from a journal's events: a name, the version of its code, a digest of the rules it follows,
/// the tables it keeps, and the fold.
///
/// The fold must depend on nothing but the events, the rules and the read model itself (no clock, no environment),
/// so that folding one event at a time, in chunks, or in a full rebuild writes the same bytes.
public protocol Projection<Event>: Sendable {
    associatedtype Event

    /// Names the projection in checkpoints and database names: 1 to 40 lowercase letters, digits and `-`.
    var name: String { get }
    /// The version of the fold's code: a read model written by another version is rebuilt.
    var version: UInt32 { get }
    /// A digest of the rules the fold follows: a read model built under other rules is rebuilt.
    var rulesDigest: [UInt8] { get }
    /// The tables the read model keeps. ``ReadModel/table(_:)`` takes an index into this list.
    var tables: [String] { get }

    /// Folds `events`, which follow every event folded before, in journal order, into the read model.
    func fold(_ events: ArraySlice<Event>, into model: ReadModel) throws
}

/// What a projection is, without its fold: what the store needs to open its tables and check its checkpoint.
public struct ProjectionDescriptor: Sendable, Hashable {
    public let name: String
    public let version: UInt32
    public let rulesDigest: [UInt8]
    public let tables: [String]

    public init(name: String, version: UInt32, rulesDigest: [UInt8], tables: [String]) {
        self.name = name
        self.version = version
        self.rulesDigest = rulesDigest
        self.tables = tables
    }

    public init(_ projection: some Projection) {
        self.init(
            name: projection.name, version: projection.version, rulesDigest: projection.rulesDigest,
            tables: projection.tables)
    }

    /// True when a read model with `checkpoint` was built by this version under these rules.
    func isBuilt(by checkpoint: Checkpoint) -> Bool {
        checkpoint.version == version && checkpoint.rulesDigest == rulesDigest
    }
}
