import EventJournal

// The rows of the training read model's tables, each in the binary encoding of the events (docs/FORMAT.md lists
// their fields). A row holds everything a query or a later fold needs, so that neither replays events.

/// A set that counts (of a finished, not deleted workout, not removed, of an exercise still in it). The `sessions`
/// table keeps an exercise's counted sets in one workout in its row under the exercise, the workout's start and the
/// workout, in the order of their numbers.
public struct SetFact: Sendable, Equatable {
    public var workoutId: String
    public var number: UInt32
    public var startedAt: Timestamp
    public var details: SetDetails
    public var loggedAt: Timestamp
    /// The position of the event that gave the set its values.
    public var position: UInt64
    /// Over 1,000 reps or 1,000 kg, or in a workout dated before 2000 or after it was recorded.
    public var isImplausible: Bool
    /// Kept out of records and volume: implausible while the rule says so.
    public var isExcluded: Bool

    /// The entered weight in milligrams; nil for a body-weight set.
    public var milligrams: Int64? { details.weight?.milligrams }

    /// Whether it may make a record: a working set (not a warm-up) that is not excluded.
    var isRecordCandidate: Bool { details.kind != .warmup && !isExcluded }

    /// Weight × reps in milligrams, as the volume rule counts it: 0 for body weight, an assisted exercise (whose
    /// weight is help), excluded sets, and warm-ups unless the rule counts them.
    func volume(_ rules: Rules, isAssisted: Bool) -> Int64 {
        guard !isAssisted, !isExcluded, details.kind != .warmup || rules.warmupsCountInVolume else { return 0 }
        return setVolume
    }

    /// Weight × reps in milligrams, worked out exactly and rounded once (see ``Weight/milligrams(times:)``): 0 for
    /// body weight.
    var setVolume: Int64 {
        guard let weight = details.weight else { return 0 }
        return weight.milligrams(times: details.reps) ?? .max
    }

    /// Writes `facts`, an exercise's sets in one workout, into its `sessions` row: each set (field 1) without what the
    /// row's key holds.
    static func writeRow(_ facts: [SetFact], to writer: inout PayloadWriter) {
        for fact in facts {
            writer.message(1) { nested in
                nested.unsigned(1, UInt64(fact.number))
                nested.message(2) { fact.details.writeRow(to: &$0, withExercise: false) }
                nested.timestamp(12, fact.loggedAt)
                nested.unsigned(13, fact.position)
                if fact.isImplausible { nested.bool(14, true) }
                if fact.isExcluded { nested.bool(15, true) }
            }
        }
    }

    init(
        workoutId: String, number: UInt32, startedAt: Timestamp, details: SetDetails, loggedAt: Timestamp,
        position: UInt64, isImplausible: Bool, isExcluded: Bool
    ) {
        self.workoutId = workoutId
        self.number = number
        self.startedAt = startedAt
        self.details = details
        self.loggedAt = loggedAt
        self.position = position
        self.isImplausible = isImplausible
        self.isExcluded = isExcluded
    }

    /// The sets a row of the `sessions` table holds under `key`.
    static func decode(key: UnsafeRawBufferPointer, row bytes: UnsafeRawBufferPointer) throws(PayloadError) -> [SetFact]
    {
        var keyReader = Key.Reader(key)
        let exerciseId = keyReader.text()
        let startedAt = keyReader.instant()
        let workoutId = keyReader.text()
        var facts: [SetFact] = []
        var reader = PayloadReader(bytes)
        while let field = try reader.next() {
            guard field.number == 1 else { continue }
            var fact = SetFact(
                workoutId: workoutId, number: 0, startedAt: startedAt,
                details: SetDetails(exerciseId: exerciseId, weight: nil, reps: 0),
                loggedAt: .init(microsecondsSinceEpoch: 0), position: 0, isImplausible: false, isExcluded: false)
            var nested = try field.message()
            while let inner = try nested.next() {
                switch inner.number {
                case 1: fact.number = try inner.integer()
                case 12: fact.loggedAt = try inner.timestamp()
                case 13: fact.position = try inner.unsigned()
                case 14: fact.isImplausible = try inner.bool()
                case 15: fact.isExcluded = try inner.bool()
                case 2:
                    fact.details = try SetDetails(row: inner.message())
                    fact.details.exerciseId = exerciseId
                default: continue
                }
            }
            facts.append(fact)
        }
        return facts
    }
}

/// One exercise in one counted workout, as the `sessions` table keeps it under its exercise, its workout's start and
/// its workout (which the row leaves out): the figures progress, plateaus and "last time" read.
public struct SessionFact: Sendable, Equatable {
    public var workoutId: String
    public var workoutName: String
    public var startedAt: Timestamp
    /// Working sets (not warm-ups) that are not excluded, and their reps.
    public var workingSets: UInt32
    public var reps: UInt32
    /// Volume in milligrams by the volume rule.
    public var volume: Int64
    /// The volume of the sets that may make records (working, not excluded): what a session-volume record measures.
    public var recordVolume: Int64
    /// The best estimated one-rep max of a set that may make records, in milligrams, and its set.
    public var bestEstimate: Score?
    public var bestEstimateSet: UInt32?
    /// The heaviest weight of a set that may make records, in milligrams.
    public var topWeight: Int64?
    /// The time of the working sets that are not excluded, in seconds.
    public var seconds: UInt64
    /// The distance of the working sets that are not excluded, in millimetres (each set's rounded as its record is).
    public var distanceMillimetres: Int64
    /// The position of the last event that changed the session: the workout's `WorkoutFinished`, or a later one
    /// (see ``Workout/changesAfterFinish``). As of it, the session's figures stand.
    public var position: UInt64

    /// Writes the session's figures into its `sessions` row, without what the row's key holds.
    func writeRow(to writer: inout PayloadWriter) {
        writer.string(2, workoutName)
        writer.unsigned(4, UInt64(workingSets))
        writer.unsigned(5, UInt64(reps))
        writer.signed(6, volume)
        writer.signed(7, recordVolume)
        if let bestEstimate {
            writer.signed(8, bestEstimate.numerator)
            writer.signed(9, bestEstimate.denominator)
        }
        writer.unsigned(10, bestEstimateSet.map(UInt64.init))
        writer.signed(11, topWeight)
        writer.unsigned(12, position)
        if seconds > 0 { writer.unsigned(13, seconds) }
        if distanceMillimetres > 0 { writer.signed(14, distanceMillimetres) }
    }

    init(
        workoutId: String, workoutName: String, startedAt: Timestamp, workingSets: UInt32 = 0, reps: UInt32 = 0,
        volume: Int64 = 0, recordVolume: Int64 = 0, bestEstimate: Score? = nil, bestEstimateSet: UInt32? = nil,
        topWeight: Int64? = nil, seconds: UInt64 = 0, distanceMillimetres: Int64 = 0, position: UInt64
    ) {
        self.workoutId = workoutId
        self.workoutName = workoutName
        self.startedAt = startedAt
        self.workingSets = workingSets
        self.reps = reps
        self.volume = volume
        self.recordVolume = recordVolume
        self.bestEstimate = bestEstimate
        self.bestEstimateSet = bestEstimateSet
        self.topWeight = topWeight
        self.seconds = seconds
        self.distanceMillimetres = distanceMillimetres
        self.position = position
    }

    /// The session a row of the `sessions` table holds under `key`.
    init(key: UnsafeRawBufferPointer, row bytes: UnsafeRawBufferPointer) throws(PayloadError) {
        var keyReader = Key.Reader(key)
        _ = keyReader.text()
        let startedAt = keyReader.instant()
        self.init(workoutId: keyReader.text(), workoutName: "", startedAt: startedAt, position: 0)
        var reader = PayloadReader(bytes)
        var numerator: Int64?
        var denominator: Int64?
        while let field = try reader.next() {
            switch field.number {
            case 2: workoutName = try field.string()
            case 4: workingSets = try field.integer()
            case 5: reps = try field.integer()
            case 6: volume = try field.signed()
            case 7: recordVolume = try field.signed()
            case 8: numerator = try field.signed()
            case 9: denominator = try field.signed()
            case 10: bestEstimateSet = try field.integer()
            case 11: topWeight = try field.signed()
            case 12: position = try field.unsigned()
            case 13: seconds = try field.unsigned()
            case 14: distanceMillimetres = try field.signed()
            default: continue
            }
        }
        if let numerator, let denominator, denominator > 0 { bestEstimate = Score(numerator, over: denominator) }
    }
}

/// A counted workout as the `history` table keeps it under its start and id.
public struct WorkoutSummary: Sendable, Equatable {
    /// One exercise of the workout, with its counted sets' figures.
    public struct ExerciseLine: Sendable, Equatable {
        public var exerciseId: String
        public var name: String
        public var sets: UInt32
        /// The reps of the sets that are not excluded.
        public var reps: UInt32
        public var volume: Int64
    }

    public var workoutId: String
    public var name: String
    public var routineId: String?
    public var startedAt: Timestamp
    public var finishedAt: Timestamp
    /// Time trained, pauses left out.
    public var durationSeconds: Int64
    public var note: String?
    /// Counted sets, warm-ups included, and the working ones among them.
    public var sets: UInt32
    public var workingSets: UInt32
    /// Volume in milligrams by the volume rule.
    public var volume: Int64
    public var implausibleSets: UInt32
    public var exercises: [ExerciseLine]
    public var finishedPosition: UInt64

    /// Whether no time was recorded for it: it finished at the instant it started, as every workout of an export that
    /// gives dates alone (FitNotes) does. One finished live a moment after its start has a time, however short.
    public var hasNoTimeTrained: Bool { finishedAt == startedAt }

    /// Whether it makes a day of training under `rules`: not when every set is kept out as implausible (the fold's
    /// `days` and weekly workout counts leave it out too).
    public func isTrained(under rules: Rules) -> Bool {
        !(rules.excludeImplausible && sets > 0 && implausibleSets == sets)
    }

    /// Writes the `history` row.
    func writeRow(to writer: inout PayloadWriter) {
        writer.string(1, workoutId)
        writer.string(2, name)
        writer.string(3, routineId)
        writer.timestamp(4, startedAt)
        writer.timestamp(5, finishedAt)
        writer.signed(6, durationSeconds)
        writer.string(7, note)
        writer.unsigned(8, UInt64(sets))
        writer.unsigned(9, UInt64(workingSets))
        writer.signed(10, volume)
        writer.unsigned(11, UInt64(implausibleSets))
        for line in exercises {
            writer.message(12) { nested in
                nested.string(1, line.exerciseId)
                if line.name != line.exerciseId { nested.string(2, line.name) }
                nested.unsigned(3, UInt64(line.sets))
                nested.unsigned(4, UInt64(line.reps))
                nested.signed(5, line.volume)
            }
        }
        writer.unsigned(13, finishedPosition)
    }

    init(
        workoutId: String, name: String, routineId: String?, startedAt: Timestamp, finishedAt: Timestamp,
        durationSeconds: Int64, note: String?, sets: UInt32, workingSets: UInt32, volume: Int64,
        implausibleSets: UInt32, exercises: [ExerciseLine], finishedPosition: UInt64
    ) {
        self.workoutId = workoutId
        self.name = name
        self.routineId = routineId
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.durationSeconds = durationSeconds
        self.note = note
        self.sets = sets
        self.workingSets = workingSets
        self.volume = volume
        self.implausibleSets = implausibleSets
        self.exercises = exercises
        self.finishedPosition = finishedPosition
    }

    init(decoding bytes: UnsafeRawBufferPointer) throws(PayloadError) {
        var reader = PayloadReader(bytes)
        let zero = Timestamp(microsecondsSinceEpoch: 0)
        self.init(
            workoutId: "", name: "", routineId: nil, startedAt: zero, finishedAt: zero, durationSeconds: 0, note: nil,
            sets: 0, workingSets: 0, volume: 0, implausibleSets: 0, exercises: [], finishedPosition: 0)
        while let field = try reader.next() {
            switch field.number {
            case 1: workoutId = try field.string()
            case 2: name = try field.string()
            case 3: routineId = try field.string()
            case 4: startedAt = try field.timestamp()
            case 5: finishedAt = try field.timestamp()
            case 6: durationSeconds = try field.signed()
            case 7: note = try field.string()
            case 8: sets = try field.integer()
            case 9: workingSets = try field.integer()
            case 10: volume = try field.signed()
            case 11: implausibleSets = try field.integer()
            case 12:
                var nested = try field.message()
                var line = ExerciseLine(exerciseId: "", name: "", sets: 0, reps: 0, volume: 0)
                var name: String?
                while let inner = try nested.next() {
                    switch inner.number {
                    case 1: line.exerciseId = try inner.string()
                    case 2: name = try inner.string()
                    case 3: line.sets = try inner.integer()
                    case 4: line.reps = try inner.integer()
                    case 5: line.volume = try inner.signed()
                    default: continue
                    }
                }
                line.name = name ?? line.exerciseId
                exercises.append(line)
            case 13: finishedPosition = try field.unsigned()
            default: continue
            }
        }
    }
}

/// What counted workouts add up to in one week for one muscle (or for the week as a whole, or a force): the
/// `weeks` table's values. Sets and volume are weighed by the balance rules, in thousandths, so that they add and
/// subtract exactly.
public struct WeekCounter: Sendable, Equatable {
    public var workouts: Int64 = 0
    /// Working sets × 1,000 × the muscle's weight (1 for the week and for forces).
    public var milliSets: Int64 = 0
    /// Volume in milligrams × 1,000 × the muscle's weight.
    public var milliVolume: Int64 = 0

    var isZero: Bool { workouts == 0 && milliSets == 0 && milliVolume == 0 }

    mutating func add(_ other: WeekCounter, sign: Int64 = 1) {
        workouts &+= sign &* other.workouts
        milliSets &+= sign &* other.milliSets
        milliVolume &+= sign &* other.milliVolume
    }

    /// Writes the `weeks` row.
    func writeRow(to writer: inout PayloadWriter) {
        writer.signed(1, workouts)
        writer.signed(2, milliSets)
        writer.signed(3, milliVolume)
    }

    init(workouts: Int64 = 0, milliSets: Int64 = 0, milliVolume: Int64 = 0) {
        self.workouts = workouts
        self.milliSets = milliSets
        self.milliVolume = milliVolume
    }

    init(decoding bytes: UnsafeRawBufferPointer) throws(PayloadError) {
        var reader = PayloadReader(bytes)
        while let field = try reader.next() {
            switch field.number {
            case 1: workouts = try field.signed()
            case 2: milliSets = try field.signed()
            case 3: milliVolume = try field.signed()
            default: continue
            }
        }
    }
}

extension ReadModelRow {
    /// Decodes a row read from a table, naming the table when it does not decode.
    static func decode<Row>(
        _ raw: UnsafeRawBufferPointer, table: String, _ decode: (UnsafeRawBufferPointer) throws(PayloadError) -> Row
    )
        throws -> Row
    {
        do {
            return try decode(raw)
        } catch {
            throw TrainingError(
                .undecodable, "a row of the read model's \(table) table does not decode: \(error)",
                remedy: "rebuild the read models with liftledger rebuild")
        }
    }

    /// Decodes a row read from a table with its key, naming the table when it does not decode.
    static func decode<Row>(
        key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer, table: String,
        _ decode: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws(PayloadError) -> Row
    ) throws -> Row {
        try Self.decode(value, table: table) { bytes throws(PayloadError) in try decode(key, bytes) }
    }
}

/// Namespace for reading rows.
enum ReadModelRow {}
