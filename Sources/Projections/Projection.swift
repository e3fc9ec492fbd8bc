/// A read model folded from a journal's events: a name, the version of its code, a digest of the rules it follows,
/// the tables it keeps, and the fold.
///
/// The fold must depend on nothing but the events, the rules and the read model itself (no clock, no environment),
/// so that folding one event at a time, in chunks, or in a full rebuild writes the same bytes.
public protocol Projection<Event>: Sendable {
    associatedtype Event
    /// What ``prepare(_:context:until:)`` works out ahead of a fold; `Never` for a projection that prepares nothing.
    associatedtype Preparation: Sendable = Never
    /// What preparing a chunk needs to know of the read model (see ``preparationContext(in:after:prepared:)``); `Void` for a
    /// projection that needs nothing of it.
    associatedtype PreparationContext: Sendable = Void

    /// Names the projection in checkpoints and database names: 1 to 40 lowercase letters, digits and `-`.
    var name: String { get }
    /// The version of the fold's code: a read model written by another version is rebuilt.
    var version: UInt32 { get }
    /// A digest of the rules the fold follows: a read model built under other rules is rebuilt.
    var rulesDigest: [UInt8] { get }
    /// The tables the read model keeps. ``ReadModel/table(_:)`` takes an index into this list.
    var tables: [String] { get }
    /// The types of the records whose events the fold reads, as the journal names them; nil for every type. A record
    /// of a type no projection of a pass reads is neither decoded nor folded, and the fold may be given events of
    /// other types that another projection reads: it must write the same rows with them as without them.
    var eventTypes: Set<String>? { get }

    /// Folds `events`, which follow every event folded before, in journal order, into the read model.
    func fold(_ events: ArraySlice<Event>, into model: ReadModel) throws

    /// What preparing the chunk that follows `events` needs to know of the read model as it will stand once `events`
    /// (which follow every event folded into `model`, and may be none) are folded into it; `prepared` is what was
    /// prepared of `events`' own fold, if anything. A rebuild asks for it on its folding thread, before that thread
    /// folds `events`, and hands it to the reading thread, which prepares the next chunk meanwhile and cannot read the
    /// folding thread's uncommitted rows.
    func preparationContext(
        in model: ReadModel, after events: ArraySlice<Event>, prepared: Preparation?
    ) throws -> PreparationContext

    /// Works out, from `events` and `context` alone, part of what folding them will need, so that a rebuild can do it
    /// on its reading thread while the chunk before folds. It stops early, with part of the work done, once
    /// `isWanted` returns true (the fold is waiting for the chunk); nil when there is nothing to prepare. The fold
    /// must not rely on `context` being right: a preparation that does not fit the read model is for it to set aside.
    func prepare(_ events: ArraySlice<Event>, context: PreparationContext, until isWanted: () -> Bool) -> Preparation?

    /// Folds a slice of the events that `prepared` was worked out from, as ``fold(_:into:)`` does, and must write
    /// the same rows: the preparation saves work, and changes nothing.
    func fold(_ events: ArraySlice<Event>, prepared: Preparation, into model: ReadModel) throws
}

extension Projection {
    public var eventTypes: Set<String>? { nil }
}

/// The event types that at least one of `projections` reads (``Projection/eventTypes``); nil when one of them reads
/// every type.
public func eventTypes<Event>(readBy projections: [any Projection<Event>]) -> Set<String>? {
    var types: Set<String> = []
    for projection in projections {
        guard let read = projection.eventTypes else { return nil }
        types.formUnion(read)
    }
    return types
}

extension Projection where Preparation == Never {
    public func prepare(
        _ events: ArraySlice<Event>, context: PreparationContext, until isWanted: () -> Bool
    ) -> Never? { nil }

    public func fold(_ events: ArraySlice<Event>, prepared: Never, into model: ReadModel) throws {}
}

extension Projection where PreparationContext == Void {
    public func preparationContext(
        in model: ReadModel, after events: ArraySlice<Event>, prepared: Preparation?
    ) throws {}
}

extension Projection {
    /// The preparation of the chunk after `events`, with the context `model` and `events`' own preparation, if any,
    /// give now (see ``preparationContext(in:after:prepared:)``), giving its result as a value the projector keeps
    /// beside the chunk, whatever the projection; nil for a projection that prepares nothing.
    func preparer(
        in model: ReadModel, after events: ArraySlice<Event>, preparation: (any Sendable)?
    ) throws -> (@Sendable (ArraySlice<Event>, _ isWanted: () -> Bool) -> (any Sendable)?)? {
        guard Preparation.self != Never.self else { return nil }
        let context = try preparationContext(in: model, after: events, prepared: preparation as? Preparation)
        return { events, isWanted in self.prepare(events, context: context, until: isWanted) }
    }

    /// Folds with `prepared` when it is this projection's preparation, else without.
    func fold(_ events: ArraySlice<Event>, preparation prepared: (any Sendable)?, into model: ReadModel) throws {
        if let prepared = prepared as? Preparation {
            try fold(events, prepared: prepared, into: model)
        } else {
            try fold(events, into: model)
        }
    }
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
