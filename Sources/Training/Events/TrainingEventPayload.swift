import EventJournal
import Foundation

/// One kind of training event: its type name and schema version in the journal, and its binary encoding
/// (docs/FORMAT.md). `Encodable` gives the JSON that `liftledger events --json` prints under `data`.
public protocol TrainingEventPayload: Sendable, Equatable, Encodable {
    static var typeName: String { get }
    /// The version this build writes; older versions are upcast on reading.
    static var schemaVersion: UInt32 { get }

    func write(to writer: inout PayloadWriter)
    /// Reads a payload of the current schema version.
    init(reading reader: inout PayloadReader) throws(PayloadError)
    /// Reads a payload of an older schema version as the current one.
    static func upcast(from version: UInt32, payload: UnsafeRawBufferPointer) throws(PayloadError) -> Self
}

extension TrainingEventPayload {
    public static var schemaVersion: UInt32 { 1 }

    public static func upcast(from version: UInt32, payload: UnsafeRawBufferPointer) throws(PayloadError) -> Self {
        throw PayloadError("\(typeName) has no schema version \(version) (this build reads up to \(schemaVersion))")
    }

    /// Reads a payload stored with `version`, upcasting it when it is older than the current one.
    public static func decode(version: UInt32, payload: UnsafeRawBufferPointer) throws(PayloadError) -> Self {
        guard version == schemaVersion else { return try upcast(from: version, payload: payload) }
        var reader = PayloadReader(payload)
        return try Self(reading: &reader)
    }

    /// The payload's bytes.
    public var encoded: [UInt8] {
        var writer = PayloadWriter()
        write(to: &writer)
        return writer.finish()
    }

    /// The event ready to append, with a fresh time-ordered id unless one is given.
    public func proposed(
        id: UUID = .timeOrdered(), occurredAt: Timestamp? = nil, metadata: EventMetadata = .init(source: "cli")
    ) -> ProposedEvent {
        ProposedEvent(
            id: id, type: Self.typeName, schemaVersion: Self.schemaVersion, encoding: .binary, payload: encoded,
            occurredAt: occurredAt, metadata: metadata)
    }
}

extension PayloadError {
    static func missing(_ field: String, in type: String) -> PayloadError {
        PayloadError("\(type) lacks its \(field)")
    }
}
