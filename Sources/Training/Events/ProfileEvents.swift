/// The profile changed; only the fields present change (stream `profile`).
public struct ProfileUpdated: TrainingEventPayload {
    public static let typeName = "ProfileUpdated"

    public var name: String?
    public var age: UInt32?
    public var heightCentimeters: ExactDecimal?
    public var unit: MassUnit?
    /// An IANA time zone name such as `Europe/Berlin`: the user's local days are counted in it.
    public var timeZone: String?

    public init(
        name: String? = nil, age: UInt32? = nil, heightCentimeters: ExactDecimal? = nil, unit: MassUnit? = nil,
        timeZone: String? = nil
    ) {
        self.name = name
        self.age = age
        self.heightCentimeters = heightCentimeters
        self.unit = unit
        self.timeZone = timeZone
    }

    public func write(to writer: inout PayloadWriter) {
        writer.string(1, name)
        writer.unsigned(2, age.map(UInt64.init))
        writer.string(3, heightCentimeters?.description)
        writer.unsigned(4, unit?.code)
        writer.string(5, timeZone)
    }

    public init(reading reader: inout PayloadReader) throws(PayloadError) {
        self.init()
        while let field = try reader.next() {
            switch field.number {
            case 1: name = try field.string()
            case 2: age = try field.integer()
            case 3: heightCentimeters = try field.decimal()
            case 4: unit = try MassUnit(code: field.unsigned())
            case 5: timeZone = try field.string()
            default: continue
            }
        }
    }

    private enum CodingKeys: String, CodingKey { case name, age, heightCentimeters, unit, timeZone }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(name, forKey: .name)
        try container.encodeIfPresent(age, forKey: .age)
        try container.encodeIfPresent(heightCentimeters?.description, forKey: .heightCentimeters)
        try container.encodeIfPresent(unit?.rawValue, forKey: .unit)
        try container.encodeIfPresent(timeZone, forKey: .timeZone)
    }
}

/// A body-weight measurement, taken when the event occurred (stream `profile`).
public struct BodyWeightRecorded: TrainingEventPayload {
    public static let typeName = "BodyWeightRecorded"

    public var weight: Weight

    public init(weight: Weight) { self.weight = weight }

    public func write(to writer: inout PayloadWriter) {
        writer.message(1) { weight.write(to: &$0) }
    }

    public init(reading reader: inout PayloadReader) throws(PayloadError) {
        var weight: Weight?
        while let field = try reader.next() {
            if field.number == 1 { weight = try Weight(reading: field.message()) }
        }
        guard let weight else { throw .missing("weight", in: Self.typeName) }
        self.weight = weight
    }
}

extension Field {
    /// An `ExactDecimal` stored as its text.
    public func decimal() throws(PayloadError) -> ExactDecimal {
        let bytes = try bytes()
        guard let value = ExactDecimal(utf8: bytes) else {
            let text = String(decoding: bytes, as: UTF8.self)
            throw PayloadError("field \(number) is not a decimal number: \(text.debugDescription)")
        }
        return value
    }
}
