import EventJournal

/// A rest timer started; it ends at `endsAt`, a wall-clock instant, so it keeps counting while no process runs.
public struct RestTimerStarted: TrainingEventPayload {
    public static let typeName = "RestTimerStarted"

    public var durationSeconds: UInt32
    public var endsAt: Timestamp
    /// The set it follows, if any.
    public var afterSet: UInt32?

    public init(durationSeconds: UInt32, endsAt: Timestamp, afterSet: UInt32? = nil) {
        self.durationSeconds = durationSeconds
        self.endsAt = endsAt
        self.afterSet = afterSet
    }

    public func write(to writer: inout PayloadWriter) {
        writer.unsigned(1, UInt64(durationSeconds))
        writer.timestamp(2, endsAt)
        writer.unsigned(3, afterSet.map(UInt64.init))
    }

    public init(reading reader: inout PayloadReader) throws(PayloadError) {
        var durationSeconds: UInt32 = 0
        var endsAt: Timestamp?
        var afterSet: UInt32?
        while let field = try reader.next() {
            switch field.number {
            case 1: durationSeconds = try field.integer()
            case 2: endsAt = try field.timestamp()
            case 3: afterSet = try field.integer()
            default: continue
            }
        }
        guard let endsAt else { throw .missing("endsAt", in: Self.typeName) }
        self.init(durationSeconds: durationSeconds, endsAt: endsAt, afterSet: afterSet)
    }

    private enum CodingKeys: String, CodingKey { case durationSeconds, endsAt, afterSet }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(durationSeconds, forKey: .durationSeconds)
        try container.encode(endsAt.description, forKey: .endsAt)
        try container.encodeIfPresent(afterSet, forKey: .afterSet)
    }
}

/// The running rest timer was lengthened (or shortened, with a negative `bySeconds`) to end at `endsAt`.
public struct RestTimerExtended: TrainingEventPayload {
    public static let typeName = "RestTimerExtended"

    public var bySeconds: Int32
    public var endsAt: Timestamp

    public init(bySeconds: Int32, endsAt: Timestamp) {
        self.bySeconds = bySeconds
        self.endsAt = endsAt
    }

    public func write(to writer: inout PayloadWriter) {
        writer.signed(1, Int64(bySeconds))
        writer.timestamp(2, endsAt)
    }

    public init(reading reader: inout PayloadReader) throws(PayloadError) {
        var bySeconds: Int32 = 0
        var endsAt: Timestamp?
        while let field = try reader.next() {
            switch field.number {
            case 1:
                guard let value = Int32(exactly: try field.signed()) else {
                    throw PayloadError("bySeconds out of range")
                }
                bySeconds = value
            case 2: endsAt = try field.timestamp()
            default: continue
            }
        }
        guard let endsAt else { throw .missing("endsAt", in: Self.typeName) }
        self.init(bySeconds: bySeconds, endsAt: endsAt)
    }

    private enum CodingKeys: String, CodingKey { case bySeconds, endsAt }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(bySeconds, forKey: .bySeconds)
        try container.encode(endsAt.description, forKey: .endsAt)
    }
}

/// The running rest timer was stopped early, when the event occurred.
public struct RestTimerSkipped: TrainingEventPayload {
    public static let typeName = "RestTimerSkipped"
    public init() {}
    public func write(to writer: inout PayloadWriter) {}
    public init(reading reader: inout PayloadReader) throws(PayloadError) { try reader.skipAll() }
}

/// The rest timer ran out at `endedAt` (recorded by the next command after it did).
public struct RestTimerFinished: TrainingEventPayload {
    public static let typeName = "RestTimerFinished"

    public var endedAt: Timestamp

    public init(endedAt: Timestamp) { self.endedAt = endedAt }

    public func write(to writer: inout PayloadWriter) { writer.timestamp(1, endedAt) }

    public init(reading reader: inout PayloadReader) throws(PayloadError) {
        var endedAt: Timestamp?
        while let field = try reader.next() {
            if field.number == 1 { endedAt = try field.timestamp() }
        }
        guard let endedAt else { throw .missing("endedAt", in: Self.typeName) }
        self.init(endedAt: endedAt)
    }

    private enum CodingKeys: String, CodingKey { case endedAt }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(endedAt.description, forKey: .endedAt)
    }
}
