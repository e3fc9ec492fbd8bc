import EventJournal

/// What a personal record measures.
public enum RecordKind: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The heaviest weight of a set (for an assisted exercise: the least assistance).
    case heaviestWeight
    /// The best estimated one-rep max, by the rule's formula.
    case estimatedOneRepMax
    /// The best weight × reps of one set.
    case bestSetVolume
    /// The most reps in one set.
    case mostReps
    /// The best weight for exactly this many reps, 1 to 12 (for an assisted exercise: the least assistance).
    case repMaximum(UInt32)
    /// The best volume of the exercise in one workout.
    case bestSessionVolume
    /// The longest set, in seconds.
    case longestDuration
    /// The longest set, in distance.
    case longestDistance

    public static let allCases: [RecordKind] =
        [
            .heaviestWeight, .estimatedOneRepMax, .bestSetVolume, .mostReps, .bestSessionVolume, .longestDuration,
            .longestDistance,
        ] + (1...12).map { RecordKind.repMaximum(UInt32($0)) }

    /// The byte that stands for the kind in keys: 1 to 7, and 16 + r for an r-rep maximum.
    var code: UInt8 {
        switch self {
        case .heaviestWeight: 1
        case .estimatedOneRepMax: 2
        case .bestSetVolume: 3
        case .mostReps: 4
        case .bestSessionVolume: 5
        case .longestDuration: 6
        case .longestDistance: 7
        case .repMaximum(let reps): 16 + UInt8(reps)
        }
    }

    init?(code: UInt8) {
        guard let kind = Self.allCases.first(where: { $0.code == code }) else { return nil }
        self = kind
    }

    /// The name in commands and JSON: `heaviest`, `e1rm`, `set-volume`, `most-reps`, `session-volume`, `duration`,
    /// `distance`, `5rm`.
    public var description: String {
        switch self {
        case .heaviestWeight: "heaviest"
        case .estimatedOneRepMax: "e1rm"
        case .bestSetVolume: "set-volume"
        case .mostReps: "most-reps"
        case .bestSessionVolume: "session-volume"
        case .longestDuration: "duration"
        case .longestDistance: "distance"
        case .repMaximum(let reps): "\(reps)rm"
        }
    }

    /// The kind named `name`, in any case (`e1RM`, as tables head the column, is `e1rm`).
    public init?(name: String) {
        let name = name.lowercased()
        guard let kind = Self.allCases.first(where: { $0.description == name }) else { return nil }
        self = kind
    }

    public var isRepMaximum: Bool {
        if case .repMaximum = self { return true }
        return false
    }

    /// Whether the kind's value is a mass (a weight, an estimate or a volume), rather than reps, seconds or metres.
    public var isMass: Bool {
        switch self {
        case .heaviestWeight, .repMaximum, .estimatedOneRepMax, .bestSetVolume, .bestSessionVolume: true
        case .mostReps, .longestDuration, .longestDistance: false
        }
    }

    /// Whether less is better for an assisted exercise (less assistance), where the kind applies to one at all.
    fileprivate var isWeight: Bool { self == .heaviestWeight || isRepMaximum }

    public static func < (lhs: RecordKind, rhs: RecordKind) -> Bool { lhs.code < rhs.code }
}

/// One personal record: its value, the set (or workout) that made it, when, and the journal position of the event
/// that gave that set its values. The `records` table keeps each exercise's records of each kind in the order they
/// were set, so the one before a record is the previous record.
public struct RecordEntry: Sendable, Equatable {
    public var kind: RecordKind
    /// 1 for the first record of its kind, counting up.
    public var sequence: UInt32
    /// Milligrams for weights, estimates and volumes (see ``Weight/milligrams(times:)``), reps, seconds, or
    /// millimetres.
    public var value: Score
    public var workoutId: String
    /// The set, or nil for a session record.
    public var setNumber: UInt32?
    public var startedAt: Timestamp
    public var achievedAt: Timestamp
    public var position: UInt64
    public var weight: Weight?
    public var reps: UInt32
    public var rpe: RPE?

    /// Writes the `records` row.
    func writeRow(to writer: inout PayloadWriter) {
        writer.unsigned(1, UInt64(kind.code))
        writer.unsigned(2, UInt64(sequence))
        writer.signed(3, value.numerator)
        writer.signed(4, value.denominator)
        writer.string(5, workoutId)
        writer.unsigned(6, setNumber.map(UInt64.init))
        writer.timestamp(7, startedAt)
        writer.timestamp(8, achievedAt)
        writer.unsigned(9, position)
        if let weight { writer.message(10) { weight.writeRow(to: &$0) } }
        writer.unsigned(11, UInt64(reps))
        writer.unsigned(12, rpe.map { UInt64($0.halfSteps) })
    }

    init(
        kind: RecordKind, sequence: UInt32, value: Score, workoutId: String, setNumber: UInt32?,
        startedAt: Timestamp, achievedAt: Timestamp, position: UInt64, weight: Weight?, reps: UInt32, rpe: RPE?
    ) {
        self.kind = kind
        self.sequence = sequence
        self.value = value
        self.workoutId = workoutId
        self.setNumber = setNumber
        self.startedAt = startedAt
        self.achievedAt = achievedAt
        self.position = position
        self.weight = weight
        self.reps = reps
        self.rpe = rpe
    }

    init(decoding bytes: UnsafeRawBufferPointer) throws(PayloadError) {
        var reader = PayloadReader(bytes)
        var kind: RecordKind?
        var numerator: Int64 = 0
        var denominator: Int64 = 1
        let zero = Timestamp(microsecondsSinceEpoch: 0)
        self.init(
            kind: .mostReps, sequence: 0, value: Score(0), workoutId: "", setNumber: nil, startedAt: zero,
            achievedAt: zero, position: 0, weight: nil, reps: 0, rpe: nil)
        while let field = try reader.next() {
            switch field.number {
            case 1: kind = RecordKind(code: try field.integer())
            case 2: sequence = try field.integer()
            case 3: numerator = try field.signed()
            case 4: denominator = try field.signed()
            case 5: workoutId = try field.string()
            case 6: setNumber = try field.integer()
            case 7: startedAt = try field.timestamp()
            case 8: achievedAt = try field.timestamp()
            case 9: position = try field.unsigned()
            case 10: weight = try Weight(row: field.message())
            case 11: reps = try field.integer()
            case 12: rpe = try RPE(halfSteps: field.unsigned())
            default: continue
            }
        }
        guard let kind, denominator > 0 else { throw PayloadError("a stored record lacks its kind or value") }
        self.kind = kind
        value = Score(numerator, over: denominator)
    }
}

extension RecordEntry {
    /// What a fold needs of a stored record to count on from it: its value, its sequence, and the workout that made
    /// it (as a workout key), read without the rest.
    struct Placing {
        var value: Score
        var sequence: UInt32
        var workoutKey: [UInt8]

        init(decoding bytes: UnsafeRawBufferPointer) throws(PayloadError) {
            var reader = PayloadReader(bytes)
            var sequence: UInt32 = 0
            var numerator: Int64 = 0
            var denominator: Int64 = 1
            var workoutId = ""
            var startedAt = Timestamp(microsecondsSinceEpoch: 0)
            while let field = try reader.next() {
                switch field.number {
                case 2: sequence = try field.integer()
                case 3: numerator = try field.signed()
                case 4: denominator = try field.signed()
                case 5: workoutId = try field.string()
                case 7: startedAt = try field.timestamp()
                default: continue
                }
            }
            guard denominator > 0 else { throw PayloadError("a stored record has no value") }
            value = Score(numerator, over: denominator)
            self.sequence = sequence
            workoutKey = Key().instant(startedAt).text(workoutId).bytes
        }
    }
}

/// The best value of each record kind so far, and how many records of that kind there were: a slot per kind code, so
/// that the fold, which looks a kind up several times per set, does not hash.
struct RecordBests: Sendable {
    typealias Entry = (value: Score, count: UInt32)

    /// By kind code; empty until a best is set, so that an exercise with no records yet costs no allocation.
    private var slots: [Entry?] = []

    /// Every kind, in the order of their codes.
    static let kindsByCode = RecordKind.allCases.sorted { $0.code < $1.code }

    subscript(kind: RecordKind) -> Entry? {
        get { slots.isEmpty ? nil : slots[Int(kind.code)] }
        set {
            if slots.isEmpty {
                guard newValue != nil else { return }
                slots = Array(repeating: nil, count: Int(Self.kindsByCode.last!.code) + 1)
            }
            slots[Int(kind.code)] = newValue
        }
    }
}

/// Where an exercise's records stand: the best of each kind so far and how many records of it there were, and the
/// last workout folded in (a later one can be added on; an earlier one, or a change, means counting again).
struct RecordState: Sendable, Equatable {
    var lastWorkoutKey: [UInt8]?
    var best = RecordBests()

    static func == (lhs: RecordState, rhs: RecordState) -> Bool {
        lhs.lastWorkoutKey == rhs.lastWorkoutKey
            && RecordKind.allCases.allSatisfy { kind in
                switch (lhs.best[kind], rhs.best[kind]) {
                case (nil, nil): true
                case (let left?, let right?): left.value == right.value && left.count == right.count
                default: false
                }
            }
    }

    /// Writes the `record-state` row.
    func writeRow(to writer: inout PayloadWriter) {
        if let lastWorkoutKey { writer.bytes(1, lastWorkoutKey) }
        for kind in RecordBests.kindsByCode {
            guard let entry = best[kind] else { continue }
            writer.message(2) { nested in
                nested.unsigned(1, UInt64(kind.code))
                nested.signed(2, entry.value.numerator)
                nested.signed(3, entry.value.denominator)
                nested.unsigned(4, UInt64(entry.count))
            }
        }
    }

    init() {}

    init(decoding bytes: UnsafeRawBufferPointer) throws(PayloadError) {
        var reader = PayloadReader(bytes)
        while let field = try reader.next() {
            switch field.number {
            case 1: lastWorkoutKey = Array(try field.bytes())
            case 2:
                var nested = try field.message()
                var kind: RecordKind?
                var numerator: Int64 = 0
                var denominator: Int64 = 1
                var count: UInt32 = 0
                while let inner = try nested.next() {
                    switch inner.number {
                    case 1: kind = RecordKind(code: try inner.integer())
                    case 2: numerator = try inner.signed()
                    case 3: denominator = try inner.signed()
                    case 4: count = try inner.integer()
                    default: continue
                    }
                }
                if let kind, denominator > 0 { best[kind] = (Score(numerator, over: denominator), count) }
            default: continue
            }
        }
    }
}

/// Decides which sets and sessions of one exercise set records, in the order they happened: a value sets a record
/// when it is strictly better than the best before it (a tie is not a record).
struct RecordTracker {
    /// An assisted exercise: for weights, less (assistance) is better; estimates and volumes do not apply.
    let isAssisted: Bool
    let rules: Rules
    var state: RecordState

    /// The records `set` sets, with the state moved past them.
    mutating func consider(_ set: SetFact) -> [RecordEntry] {
        guard set.isRecordCandidate else { return [] }
        let details = set.details
        var entries: [RecordEntry] = []
        func offer(_ kind: RecordKind, _ value: Score) {
            guard let sequence = record(kind, value) else { return }
            entries.append(
                RecordEntry(
                    kind: kind, sequence: sequence, value: value, workoutId: set.workoutId, setNumber: set.number,
                    startedAt: set.startedAt, achievedAt: set.loggedAt, position: set.position, weight: details.weight,
                    reps: details.reps, rpe: details.rpe))
        }
        if let duration = details.durationSeconds, duration > 0 { offer(.longestDuration, Score(Int64(duration))) }
        if let distance = details.distanceMeters, let millimetres = distance.scaled(toDigits: 3), millimetres > 0 {
            offer(.longestDistance, Score(millimetres))
        }
        if details.reps >= 1 {
            let reps = Int64(details.reps)
            offer(.mostReps, Score(reps))
            // An assisted exercise's weight is help: a set at body weight had none.
            if let weight = set.milligrams ?? (isAssisted ? 0 : nil), weight > 0 || isAssisted {
                offer(.heaviestWeight, Score(weight))
                if details.reps <= 12 { offer(.repMaximum(details.reps), Score(weight)) }
                if !isAssisted {
                    if let weight = details.weight,
                        let estimate = OneRepMaximum.estimate(
                            of: weight, reps: details.reps, rpe: details.rpe, rules: rules)
                    {
                        offer(.estimatedOneRepMax, estimate)
                    }
                    if let volume = details.weight?.milligrams(times: details.reps) {
                        offer(.bestSetVolume, Score(volume))
                    }
                }
            }
        }
        return entries
    }

    /// The session-volume record `session` sets, if any.
    mutating func consider(_ session: SessionFact) -> [RecordEntry] {
        guard !isAssisted, session.recordVolume > 0 else { return [] }
        let value = Score(session.recordVolume)
        guard let sequence = record(.bestSessionVolume, value) else { return [] }
        return [
            RecordEntry(
                kind: .bestSessionVolume, sequence: sequence, value: value, workoutId: session.workoutId,
                setNumber: nil, startedAt: session.startedAt, achievedAt: session.startedAt,
                position: session.position, weight: nil, reps: session.reps, rpe: nil)
        ]
    }

    /// The sequence number of the record `value` sets for `kind`, with the state moved past it; nil when it sets none.
    private mutating func record(_ kind: RecordKind, _ value: Score) -> UInt32? {
        let lowerIsBetter = isAssisted && kind.isWeight
        let best = state.best[kind]
        if let best {
            guard lowerIsBetter ? value < best.value : best.value < value else { return nil }
        }
        let count = (best?.count ?? 0) + 1
        state.best[kind] = (value, count)
        return count
    }
}
