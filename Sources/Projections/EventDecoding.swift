import EventJournal

#if !compiler(>=6.2)
    /// Swift 6.2's marker of a type whose metatype may cross threads, which it checks; an empty stand-in before it.
    public protocol SendableMetatype {}
#endif

/// How a projector reads, from the journal's records, the events its projections fold.
///
/// A type rather than a closure, so that the loop that reads and decodes a chunk calls `decode` directly, inlined,
/// rather than through a closure for every record. Its metatype is sendable: a projector reads chunks through it on
/// another thread (see ``ChunkPrefetch``).
public protocol EventDecoding: SendableMetatype {
    associatedtype Event: Sendable

    /// The event `record` holds; nil passes the record over (another domain's event, a newer schema than this build
    /// reads). A record it throws for stops the fold. The record is lent for the call (see ``RecordView``): the event
    /// must copy what it keeps of it.
    static func decode(_ record: RecordView) throws -> Event?

    /// Decodes `record` as ``decode(_:)`` does, straight into `destination`, uninitialized memory that the event
    /// then occupies; returns false where ``decode(_:)`` returns nil, and leaves it uninitialized then and when it
    /// throws. A chunk's events are made where the chunk keeps them, rather than moved there.
    static func decode(_ record: RecordView, into destination: UnsafeMutablePointer<Event>) throws -> Bool
}

extension EventDecoding {
    @inlinable
    public static func decode(_ record: RecordView, into destination: UnsafeMutablePointer<Event>) throws -> Bool {
        guard let event = try decode(record) else { return false }
        destination.initialize(to: event)
        return true
    }
}
