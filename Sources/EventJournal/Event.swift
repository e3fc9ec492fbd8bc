import Foundation

/// How a record's payload bytes are to be read.
public enum PayloadEncoding: UInt8, Sendable {
    /// Bytes the journal knows nothing about.
    case opaque = 0
    /// UTF-8 JSON text.
    case json = 1
    /// The compact binary encoding of typed events (documented in docs/FORMAT.md).
    case binary = 2
}

/// Correlation, causation and source of an event. Empty strings mean "none".
public struct EventMetadata: Sendable, Hashable {
    public var correlationID: String
    public var causationID: String
    /// Where the event came from, for example `cli` or `import:strong:<digest>`.
    public var source: String

    public init(correlationID: String = "", causationID: String = "", source: String = "") {
        self.correlationID = correlationID
        self.causationID = causationID
        self.source = source
    }
}

/// An event to append.
public struct ProposedEvent: Sendable, Equatable {
    /// The event's id; appending an id that is already stored, with the same content, is an idempotent retry.
    public var id: UUID
    public var type: String
    public var schemaVersion: UInt32
    public var encoding: PayloadEncoding
    public var payload: [UInt8]
    /// When it happened; nil means when the journal records it.
    public var occurredAt: Timestamp?
    public var metadata: EventMetadata

    public init(
        id: UUID = .timeOrdered(), type: String, schemaVersion: UInt32 = 1, encoding: PayloadEncoding,
        payload: [UInt8], occurredAt: Timestamp? = nil, metadata: EventMetadata = .init()
    ) {
        self.id = id
        self.type = type
        self.schemaVersion = schemaVersion
        self.encoding = encoding
        self.payload = payload
        self.occurredAt = occurredAt
        self.metadata = metadata
    }
}

/// One stream's part of an append to several streams at once.
public struct StreamAppend: Sendable {
    public var stream: String
    public var expectedVersion: ExpectedVersion
    public var events: [ProposedEvent]

    public init(stream: String, expectedVersion: ExpectedVersion = .any, events: [ProposedEvent]) {
        self.stream = stream
        self.expectedVersion = expectedVersion
        self.events = events
    }
}

/// A record as another journal held it, for ``Journal/restore(_:)``: its place, its recording time, its event (with
/// its id, occurrence time and metadata) and the chain hash it must come out with.
public struct ExportedRecord: Sendable {
    public var position: UInt64
    public var streamID: String
    public var streamVersion: UInt64
    public var recordedAt: Timestamp
    public var event: ProposedEvent
    public var hash: [UInt8]

    public init(
        position: UInt64, streamID: String, streamVersion: UInt64, recordedAt: Timestamp, event: ProposedEvent,
        hash: [UInt8]
    ) {
        self.position = position
        self.streamID = streamID
        self.streamVersion = streamVersion
        self.recordedAt = recordedAt
        self.event = event
        self.hash = hash
    }
}

/// The version a stream must have for an append to go ahead.
public enum ExpectedVersion: Sendable, Equatable, CustomStringConvertible {
    /// Append whatever the stream's version.
    case any
    /// The stream must not exist yet.
    case noStream
    /// The stream's last event must have this version (versions count from 1).
    case exact(UInt64)

    public var description: String {
        switch self {
        case .any: "any"
        case .noStream: "no stream"
        case .exact(let version): String(version)
        }
    }

    func admits(_ actual: UInt64) -> Bool {
        switch self {
        case .any: true
        case .noStream: actual == 0
        case .exact(let version): actual == version
        }
    }
}

/// What an append did.
public struct AppendResult: Sendable, Equatable {
    /// The global positions of the appended events, in order.
    public let positions: [UInt64]
    /// The stream's version after the append.
    public let streamVersion: UInt64
    /// True when every event was already stored (an idempotent retry) and nothing was written.
    public let wasAlreadyStored: Bool
}

/// The rules for names the journal stores.
enum Names {
    /// LMDB's keys hold at most 511 bytes, and a `streams` key is 8 bytes of version before the stream id.
    static let maximumStreamIDBytes = 500
    static let maximumTypeBytes = 255
    static let maximumMetadataBytes = 1_024
    static let maximumPayloadBytes = 16 << 20

    /// Refuses a stream id no record can have: empty, too long for a key, or with a control character of ASCII's.
    /// Reads and restores take what older versions stored; appends check more (``validateNewStreamID(_:)``).
    static func validateStreamID(_ stream: String) throws(JournalError) {
        let bytes = stream.utf8
        guard !bytes.isEmpty, bytes.count <= maximumStreamIDBytes, !bytes.contains(where: { $0 < 0x20 || $0 == 0x7F })
        else { throw invalidStreamID(stream) }
    }

    /// Refuses the stream id of an append: as ``validateStreamID(_:)`` does, and with a control character or a line
    /// or paragraph separator past ASCII too, or of blanks and invisible characters alone (which print as nothing).
    static func validateNewStreamID(_ stream: String) throws(JournalError) {
        try validateStreamID(stream)
        if hasLineBreakingScalars(stream, orSpaces: false) { throw invalidStreamID(stream) }
        if !stream.unicodeScalars.contains(where: isVisible) { throw invalidStreamID(stream) }
    }

    /// Whether `scalar` prints as something on its own: not a blank, nor an invisible character (a zero-width space,
    /// a variation selector, a filler such as U+3164 or the blank braille pattern), nor a mark, which needs a
    /// character to sit on.
    private static func isVisible(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        guard !properties.isWhitespace, !properties.isDefaultIgnorableCodePoint, scalar.value != 0x2800 else {
            return false
        }
        switch properties.generalCategory {
        case .format, .control, .nonspacingMark, .spacingMark, .enclosingMark: return false
        default: return true
        }
    }

    private static func invalidStreamID(_ stream: String) -> JournalError {
        .invalid(
            "invalid stream id \(escaped(stream))",
            remedy: "use 1 to \(maximumStreamIDBytes) bytes of text with a visible character and without control "
                + "characters or line breaks, such as workout-42")
    }

    /// `text` quoted, with its control characters, and its spaces and invisible characters past ASCII, escaped
    /// (`\u{A}`, `\u{2028}`), so that an error naming it stays on one line and shows what is in it.
    private static func escaped(_ text: String) -> String {
        var quoted = "\""
        for scalar in text.unicodeScalars {
            let isInvisible: Bool
            switch scalar.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator, .spaceSeparator, .format: isInvisible = true
            default: isInvisible = false
            }
            if scalar.value < 0x20 || scalar.value == 0x7F || (scalar.value >= 0x80 && isInvisible) {
                quoted += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                if scalar == "\"" || scalar == "\\" { quoted += "\\" }
                quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    }

    /// Whether `text` has a character past ASCII that is a control (C1, `U+0085`) or a line or paragraph separator
    /// (`U+2028`, `U+2029`), which break a line of `events` on a terminal, or, with `orSpaces`, any other space
    /// (`U+00A0`, `U+3000`). ASCII's are checked byte by byte.
    private static func hasLineBreakingScalars(_ text: String, orSpaces: Bool) -> Bool {
        guard text.utf8.contains(where: { $0 >= 0x80 }) else { return false }
        return text.unicodeScalars.contains { scalar in
            switch scalar.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator: true
            default: orSpaces && scalar.properties.isWhitespace
            }
        }
    }

    /// Refuses the event of an append: its type with a space or a control character (past ASCII too), or a line or
    /// paragraph separator; then as ``validate(_:)`` does.
    static func validateNew(_ event: ProposedEvent) throws(JournalError) {
        if hasLineBreakingScalars(event.type, orSpaces: true) { throw invalidType(event.type) }
        try validate(event)
    }

    private static func invalidType(_ type: String) -> JournalError {
        .invalid(
            "invalid event type \(escaped(type))",
            remedy: "use 1 to \(maximumTypeBytes) bytes without spaces, control characters or line breaks, such as "
                + "SetLogged")
    }

    /// Refuses an event no record can have: a type empty, too long or with a space or a control character of ASCII's,
    /// metadata too long, a time outside the years the journal holds, a payload too large. Restores take what older
    /// versions stored; appends check more (``validateNew(_:)``).
    static func validate(_ event: ProposedEvent) throws(JournalError) {
        let type = event.type.utf8
        guard !type.isEmpty, type.count <= maximumTypeBytes, !type.contains(where: { $0 <= 0x20 || $0 == 0x7F })
        else { throw invalidType(event.type) }
        let metadata = event.metadata
        for field in [metadata.correlationID, metadata.causationID, metadata.source]
        where field.utf8.count > maximumMetadataBytes {
            throw .invalid(
                "metadata field of \(field.utf8.count) bytes",
                remedy: "keep metadata under \(maximumMetadataBytes) bytes")
        }
        if let occurredAt = event.occurredAt, !Timestamp.appendable.contains(occurredAt) {
            throw .invalid(
                "occurrence time \(occurredAt) is outside the years 0001 to 9999",
                remedy: "give a time between 0001-01-01 and 9999-12-31")
        }
        guard event.payload.count <= maximumPayloadBytes else {
            throw .invalid(
                "payload of \(event.payload.count) bytes",
                remedy: "keep each payload under \(maximumPayloadBytes) bytes")
        }
    }
}
