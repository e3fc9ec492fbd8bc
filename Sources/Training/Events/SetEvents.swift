/// What kind of set: counted as work, or not.
public enum SetKind: String, Sendable, Hashable, CaseIterable, Encodable {
    case normal
    case warmup
    case drop
    case failure

    var code: UInt64 {
        switch self {
        case .normal: 1
        case .warmup: 2
        case .drop: 3
        case .failure: 4
        }
    }

    init(code: UInt64) throws(PayloadError) {
        guard let kind = Self.allCases.first(where: { $0.code == code }) else {
            throw PayloadError("unknown set kind \(code)")
        }
        self = kind
    }
}

/// Rate of perceived exertion, 1 to 10 in half steps.
public struct RPE: Sendable, Hashable, CustomStringConvertible, Encodable {
    /// Twice the RPE: 2 to 20.
    public let halfSteps: UInt8

    /// Nil unless `value` is 1 to 10 in steps of 0.5.
    public init?(_ value: Double) {
        let doubled = value * 2
        guard doubled.isFinite, doubled == doubled.rounded(), (2...20).contains(doubled) else { return nil }
        halfSteps = UInt8(doubled)
    }

    /// Nil unless `value` is exactly 1 to 10 in steps of 0.5 (8.4999999999999999 is not 8.5).
    public init?(_ value: ExactDecimal) {
        guard value.scale <= 1, let tenths = value.scaled(toDigits: 1), tenths % 5 == 0, (10...100).contains(tenths)
        else { return nil }
        halfSteps = UInt8(tenths / 5)
    }

    init(halfSteps: UInt64) throws(PayloadError) {
        guard (2...20).contains(halfSteps) else { throw PayloadError("RPE of \(halfSteps) half steps") }
        self.halfSteps = UInt8(halfSteps)
    }

    public var value: Double { Double(halfSteps) / 2 }

    public var description: String { halfSteps % 2 == 0 ? String(halfSteps / 2) : String(value) }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

/// The fields of a set as logged or corrected.
public struct SetDetails: Sendable, Hashable, Encodable {
    public var exerciseId: String
    /// Nil for a body-weight set.
    public var weight: Weight?
    public var reps: UInt32
    public var kind: SetKind
    public var rpe: RPE?
    public var note: String?
    public var durationSeconds: UInt32?
    public var distanceMeters: ExactDecimal?

    public init(
        exerciseId: String, weight: Weight?, reps: UInt32, kind: SetKind = .normal, rpe: RPE? = nil,
        note: String? = nil, durationSeconds: UInt32? = nil, distanceMeters: ExactDecimal? = nil
    ) {
        self.exerciseId = exerciseId
        self.weight = weight
        self.reps = reps
        self.kind = kind
        self.rpe = rpe
        self.note = note
        self.durationSeconds = durationSeconds
        self.distanceMeters = distanceMeters
    }

    /// Fields 2 to 9 of `SetLogged` and `SetCorrected`.
    func write(to writer: inout PayloadWriter) {
        writer.string(2, exerciseId)
        if let weight { writer.message(3) { weight.write(to: &$0) } }
        writer.unsigned(4, UInt64(reps))
        writer.unsigned(5, kind.code)
        writer.unsigned(6, rpe.map { UInt64($0.halfSteps) })
        writer.string(7, note)
        writer.unsigned(8, durationSeconds.map(UInt64.init))
        writer.string(9, distanceMeters?.description)
    }

    /// Reads fields 2 to 9 of the current version; returns false for a field that is not one of them.
    mutating func read(_ field: Field) throws(PayloadError) -> Bool {
        switch field.number {
        case 2: exerciseId = try field.sharedString()
        case 3: weight = try Weight(reading: field.message())
        case 4: reps = try field.integer()
        case 5: kind = try SetKind(code: field.unsigned())
        case 6: rpe = try RPE(halfSteps: field.unsigned())
        case 7: note = try field.string()
        case 8: durationSeconds = try field.integer()
        case 9: distanceMeters = try field.decimal()
        default: return false
        }
        return true
    }

    private enum CodingKeys: String, CodingKey {
        case exerciseId, weight, reps, kind, rpe, note, durationSeconds, distanceMeters
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(exerciseId, forKey: .exerciseId)
        try container.encodeIfPresent(weight, forKey: .weight)
        try container.encode(reps, forKey: .reps)
        try container.encode(kind, forKey: .kind)
        try container.encodeIfPresent(rpe, forKey: .rpe)
        try container.encodeIfPresent(note, forKey: .note)
        try container.encodeIfPresent(durationSeconds, forKey: .durationSeconds)
        try container.encodeIfPresent(distanceMeters?.description, forKey: .distanceMeters)
    }
}

/// A set was logged in a workout. Set numbers count from 1 within the workout and are never reused.
///
/// Schema version 2 keeps the weight as entered (value and unit). Version 1 kept kilograms as a binary64 and the
/// RPE as a binary64; it is upcast on reading (see `upcast(from:payload:)` and docs/FORMAT.md).
public struct SetLogged: TrainingEventPayload {
    public static let typeName = "SetLogged"
    public static let schemaVersion: UInt32 = 2

    public var setNumber: UInt32
    public var set: SetDetails

    public init(setNumber: UInt32, set: SetDetails) {
        self.setNumber = setNumber
        self.set = set
    }

    public func write(to writer: inout PayloadWriter) {
        writer.unsigned(1, UInt64(setNumber))
        set.write(to: &writer)
    }

    public init(reading reader: inout PayloadReader) throws(PayloadError) {
        var setNumber: UInt32?
        var set = SetDetails(exerciseId: "", weight: nil, reps: 0)
        while let field = try reader.next() {
            if field.number == 1 { setNumber = try field.integer() } else { _ = try set.read(field) }
        }
        guard let setNumber, !set.exerciseId.isEmpty else {
            throw .missing("setNumber or exerciseId", in: Self.typeName)
        }
        self.init(setNumber: setNumber, set: set)
    }

    /// Version 1: 1 setNumber, 2 exerciseId, 3 weightKg (binary64; absent for body weight), 4 reps, 5 kind,
    /// 6 rpe (binary64), 7 note. The kilograms become an entered value in kg, written the shortest way that reads
    /// back as the same binary64 (so 102.5 stays 102.5).
    public static func upcast(from version: UInt32, payload: UnsafeRawBufferPointer) throws(PayloadError) -> SetLogged {
        guard version == 1 else { throw PayloadError("SetLogged has no schema version \(version)") }
        var reader = PayloadReader(payload)
        var setNumber: UInt32?
        var set = SetDetails(exerciseId: "", weight: nil, reps: 0)
        while let field = try reader.next() {
            switch field.number {
            case 1: setNumber = try field.integer()
            case 2: set.exerciseId = try field.sharedString()
            case 3: set.weight = Weight(try kilograms(fromVersion1: field.double()), .kilograms)
            case 4: set.reps = try field.integer()
            case 5: set.kind = try SetKind(code: field.unsigned())
            case 6:
                let value = try field.double()
                guard let rpe = RPE(value) else { throw PayloadError("RPE \(value) in a version 1 SetLogged") }
                set.rpe = rpe
            case 7: set.note = try field.string()
            default: continue
            }
        }
        guard let setNumber, !set.exerciseId.isEmpty else { throw .missing("setNumber or exerciseId", in: typeName) }
        return SetLogged(setNumber: setNumber, set: set)
    }

    private static func kilograms(fromVersion1 value: Double) throws(PayloadError) -> ExactDecimal {
        guard value.isFinite, value >= 0 else { throw PayloadError("weight \(value) in a version 1 SetLogged") }
        var shortest = "\(value)"
        if shortest.hasSuffix(".0") { shortest.removeLast(2) }
        if let exact = ExactDecimal(shortest) { return exact }
        return ExactDecimal(significand: Int64((value * 1e8).rounded()), scale: 8)!
    }

    private enum CodingKeys: String, CodingKey { case setNumber }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(setNumber, forKey: .setNumber)
        try set.encode(to: encoder)
    }
}

/// A logged set was replaced by corrected values (the original event stays in the journal).
public struct SetCorrected: TrainingEventPayload {
    public static let typeName = "SetCorrected"

    public var setNumber: UInt32
    public var set: SetDetails

    public init(setNumber: UInt32, set: SetDetails) {
        self.setNumber = setNumber
        self.set = set
    }

    public func write(to writer: inout PayloadWriter) {
        writer.unsigned(1, UInt64(setNumber))
        set.write(to: &writer)
    }

    public init(reading reader: inout PayloadReader) throws(PayloadError) {
        let logged = try SetLogged(reading: &reader)
        self.init(setNumber: logged.setNumber, set: logged.set)
    }

    private enum CodingKeys: String, CodingKey { case setNumber }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(setNumber, forKey: .setNumber)
        try set.encode(to: encoder)
    }
}

/// A logged set no longer counts.
public struct SetRemoved: TrainingEventPayload {
    public static let typeName = "SetRemoved"

    public var setNumber: UInt32

    public init(setNumber: UInt32) { self.setNumber = setNumber }

    public func write(to writer: inout PayloadWriter) { writer.unsigned(1, UInt64(setNumber)) }

    public init(reading reader: inout PayloadReader) throws(PayloadError) {
        var setNumber: UInt32?
        while let field = try reader.next() {
            if field.number == 1 { setNumber = try field.integer() }
        }
        guard let setNumber else { throw .missing("setNumber", in: Self.typeName) }
        self.init(setNumber: setNumber)
    }
}
