import EventJournal
import Foundation

// `Decodable` for every training event payload, reading exactly the JSON its `Encodable` conformance writes:
// optional fields absent when nil, decimals and instants as text. A value that does not parse throws
// `DecodingError.dataCorrupted`.

extension TrainingEvent {
    private typealias JSONDecoding = @Sendable (Data, JSONDecoder) throws -> TrainingEvent

    private static func jsonEntry<Payload: TrainingEventPayload & Decodable>(
        _: Payload.Type, _ wrap: @escaping @Sendable (Payload) -> TrainingEvent
    ) -> (String, JSONDecoding) {
        (Payload.typeName, { data, decoder in wrap(try decoder.decode(Payload.self, from: data)) })
    }

    private static let jsonDecoders: [String: JSONDecoding] = Dictionary(
        uniqueKeysWithValues: [
            jsonEntry(ProfileUpdated.self, TrainingEvent.profileUpdated),
            jsonEntry(BodyWeightRecorded.self, TrainingEvent.bodyWeightRecorded),
            jsonEntry(CustomExerciseAdded.self, TrainingEvent.customExerciseAdded),
            jsonEntry(RoutineCreated.self, TrainingEvent.routineCreated),
            jsonEntry(RoutineExerciseAdded.self, TrainingEvent.routineExerciseAdded),
            jsonEntry(RoutineExerciseRemoved.self, TrainingEvent.routineExerciseRemoved),
            jsonEntry(RoutineExerciseMoved.self, TrainingEvent.routineExerciseMoved),
            jsonEntry(ScheduleSet.self, TrainingEvent.scheduleSet),
            jsonEntry(WorkoutStarted.self, TrainingEvent.workoutStarted),
            jsonEntry(WorkoutPaused.self, TrainingEvent.workoutPaused),
            jsonEntry(WorkoutResumed.self, TrainingEvent.workoutResumed),
            jsonEntry(WorkoutFinished.self, TrainingEvent.workoutFinished),
            jsonEntry(WorkoutDiscarded.self, TrainingEvent.workoutDiscarded),
            jsonEntry(WorkoutEdited.self, TrainingEvent.workoutEdited),
            jsonEntry(WorkoutDeleted.self, TrainingEvent.workoutDeleted),
            jsonEntry(WorkoutRestored.self, TrainingEvent.workoutRestored),
            jsonEntry(ExerciseAdded.self, TrainingEvent.exerciseAdded),
            jsonEntry(ExerciseRemoved.self, TrainingEvent.exerciseRemoved),
            jsonEntry(ExerciseMoved.self, TrainingEvent.exerciseMoved),
            jsonEntry(SetLogged.self, TrainingEvent.setLogged),
            jsonEntry(SetCorrected.self, TrainingEvent.setCorrected),
            jsonEntry(SetRemoved.self, TrainingEvent.setRemoved),
            jsonEntry(RestTimerStarted.self, TrainingEvent.restTimerStarted),
            jsonEntry(RestTimerExtended.self, TrainingEvent.restTimerExtended),
            jsonEntry(RestTimerSkipped.self, TrainingEvent.restTimerSkipped),
            jsonEntry(RestTimerFinished.self, TrainingEvent.restTimerFinished),
            jsonEntry(RulesChanged.self, TrainingEvent.rulesChanged),
        ])

    /// Decodes a payload from the JSON its `Encodable` conformance writes, read as the current schema version. Nil
    /// when `typeName` is not a training event this build knows; throws `DecodingError` when the JSON does not fit.
    public static func decode(typeName: String, json: Data, using decoder: JSONDecoder) throws -> TrainingEvent? {
        guard let decode = jsonDecoders[typeName] else { return nil }
        return try decode(json, decoder)
    }
}

// MARK: - Values

extension MassUnit: Decodable {}

extension SetKind: Decodable {}

extension ScheduleSet.Kind: Decodable {}

extension ExactDecimal: Decodable {
    /// Reads the text form the payloads write, such as `"102.5"`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let value = ExactDecimal(text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "not a decimal number: \(text.debugDescription)")
        }
        self = value
    }
}

extension Weight: Decodable {
    private enum DecodingKeys: String, CodingKey { case value, unit }

    /// Reads `{"value": "225", "unit": "lb"}`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: DecodingKeys.self)
        self.init(
            try container.decode(ExactDecimal.self, forKey: .value), try container.decode(MassUnit.self, forKey: .unit))
    }
}

extension RPE: Decodable {
    /// Reads a number from 1 to 10 in half steps.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let value = try container.decode(Double.self)
        guard let rpe = RPE(value) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "RPE \(value) is not 1 to 10 in half steps")
        }
        self = rpe
    }
}

extension SetDetails: Decodable {
    private enum DecodingKeys: String, CodingKey {
        case exerciseId, weight, reps, kind, rpe, note, durationSeconds, distanceMeters
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: DecodingKeys.self)
        self.init(
            exerciseId: try container.decode(String.self, forKey: .exerciseId),
            weight: try container.decodeIfPresent(Weight.self, forKey: .weight),
            reps: try container.decode(UInt32.self, forKey: .reps),
            kind: try container.decode(SetKind.self, forKey: .kind),
            rpe: try container.decodeIfPresent(RPE.self, forKey: .rpe),
            note: try container.decodeIfPresent(String.self, forKey: .note),
            durationSeconds: try container.decodeIfPresent(UInt32.self, forKey: .durationSeconds),
            distanceMeters: try container.decodeIfPresent(ExactDecimal.self, forKey: .distanceMeters))
    }
}

extension KeyedDecodingContainer {
    /// An instant written as its RFC 3339 `description`.
    fileprivate func decodeTimestamp(forKey key: Key) throws -> Timestamp {
        try timestamp(decode(String.self, forKey: key), forKey: key)
    }

    fileprivate func decodeTimestampIfPresent(forKey key: Key) throws -> Timestamp? {
        try decodeIfPresent(String.self, forKey: key).map { try timestamp($0, forKey: key) }
    }

    private func timestamp(_ text: String, forKey key: Key) throws -> Timestamp {
        guard let instant = Timestamp(rfc3339: text) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "not an RFC 3339 instant: \(text.debugDescription)")
        }
        return instant
    }
}

/// The keys of a payload with no fields, which is written as `{}`.
private enum NoKeys: CodingKey {}

// MARK: - Profile and catalog

extension ProfileUpdated: Decodable {
    private enum DecodingKeys: String, CodingKey { case name, age, heightCentimeters, unit, timeZone }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: DecodingKeys.self)
        self.init(
            name: try container.decodeIfPresent(String.self, forKey: .name),
            age: try container.decodeIfPresent(UInt32.self, forKey: .age),
            heightCentimeters: try container.decodeIfPresent(ExactDecimal.self, forKey: .heightCentimeters),
            unit: try container.decodeIfPresent(MassUnit.self, forKey: .unit),
            timeZone: try container.decodeIfPresent(String.self, forKey: .timeZone))
    }
}

extension BodyWeightRecorded: Decodable {
    private enum DecodingKeys: String, CodingKey { case weight }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: DecodingKeys.self)
        self.init(weight: try container.decode(Weight.self, forKey: .weight))
    }
}

extension CustomExerciseAdded: Decodable {
    private enum DecodingKeys: String, CodingKey {
        case exerciseId, name, primaryMuscles, secondaryMuscles, equipment, force, mechanic, category
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: DecodingKeys.self)
        self.init(
            exerciseId: try container.decode(String.self, forKey: .exerciseId),
            name: try container.decode(String.self, forKey: .name),
            primaryMuscles: try container.decode([String].self, forKey: .primaryMuscles),
            secondaryMuscles: try container.decode([String].self, forKey: .secondaryMuscles),
            equipment: try container.decodeIfPresent(String.self, forKey: .equipment),
            force: try container.decodeIfPresent(String.self, forKey: .force),
            mechanic: try container.decodeIfPresent(String.self, forKey: .mechanic),
            category: try container.decodeIfPresent(String.self, forKey: .category))
    }
}

// MARK: - Routines and schedule

extension RoutineCreated: Decodable {
    private enum DecodingKeys: String, CodingKey { case routineId, name }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: DecodingKeys.self)
        self.init(
            routineId: try container.decode(String.self, forKey: .routineId),
            name: try container.decode(String.self, forKey: .name))
    }
}

extension RoutineExerciseAdded: Decodable {
    private enum DecodingKeys: String, CodingKey {
        case exerciseId, exerciseName, targetSets, minimumReps, maximumReps, restSeconds
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: DecodingKeys.self)
        self.init(
            exerciseId: try container.decode(String.self, forKey: .exerciseId),
            exerciseName: try container.decode(String.self, forKey: .exerciseName),
            targetSets: try container.decode(UInt32.self, forKey: .targetSets),
            minimumReps: try container.decode(UInt32.self, forKey: .minimumReps),
            maximumReps: try container.decode(UInt32.self, forKey: .maximumReps),
            restSeconds: try container.decode(UInt32.self, forKey: .restSeconds))
    }
}

extension RoutineExerciseRemoved: Decodable {
    private enum DecodingKeys: String, CodingKey { case exerciseId }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: DecodingKeys.self)
        self.init(exerciseId: try container.decode(String.self, forKey: .exerciseId))
    }
}

extension RoutineExerciseMoved: Decodable {
    private enum DecodingKeys: String, CodingKey { case exerciseId, toIndex }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: DecodingKeys.self)
        self.init(
            exerciseId: try container.decode(String.self, forKey: .exerciseId),
            toIndex: try container.decode(UInt32.self, forKey: .toIndex))
    }
}

extension ScheduleSet: Decodable {
    private enum DecodingKeys: String, CodingKey { case kind, days, startDate }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: DecodingKeys.self)
        self.init(
            kind: try container.decode(Kind.self, forKey: .kind),
            days: try container.decode([String].self, forKey: .days),
            startDate: try container.decodeIfPresent(String.self, forKey: .startDate))
    }
}

// MARK: - Workouts

extension WorkoutStarted: Decodable {
    private enum DecodingKeys: String, CodingKey { case name, routineId }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: DecodingKeys.self)
        self.init(
            name: try container.decode(String.self, forKey: .name),
            routineId: try container.decodeIfPresent(String.self, forKey: .routineId))
    }
}

extension WorkoutPaused: Decodable {
    public init(from decoder: any Decoder) throws {
        _ = try decoder.container(keyedBy: NoKeys.self)
        self.init()
    }
}

extension WorkoutResumed: Decodable {
    public init(from decoder: any Decoder) throws {
        _ = try decoder.container(keyedBy: NoKeys.self)
        self.init()
    }
}

extension WorkoutFinished: Decodable {
    private enum DecodingKeys: String, CodingKey { case note }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: DecodingKeys.self)
        self.init(note: try container.decodeIfPresent(String.self, forKey: .note))
    }
}

extension WorkoutDiscarded: Decodable {
    public init(from decoder: any Decoder) throws {
        _ = try decoder.container(keyedBy: NoKeys.self)
        self.init()
    }
}

extension WorkoutEdited: Decodable {
    private enum DecodingKeys: String, CodingKey { case startedAt, note, name }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: DecodingKeys.self)
        self.init(
            startedAt: try container.decodeTimestampIfPresent(forKey: .startedAt),
            note: try container.decodeIfPresent(String.self, forKey: .note),
            name: try container.decodeIfPresent(String.self, forKey: .name))
    }
}

extension WorkoutDeleted: Decodable {
    private enum DecodingKeys: String, CodingKey { case reason }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: DecodingKeys.self)
        self.init(reason: try container.decodeIfPresent(String.self, forKey: .reason))
    }
}

extension WorkoutRestored: Decodable {
    private enum DecodingKeys: String, CodingKey { case finishedAt }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: DecodingKeys.self)
        self.init(finishedAt: try container.decodeTimestampIfPresent(forKey: .finishedAt))
    }
}

extension ExerciseAdded: Decodable {
    private enum DecodingKeys: String, CodingKey { case exerciseId, exerciseName }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: DecodingKeys.self)
        self.init(
            exerciseId: try container.decode(String.self, forKey: .exerciseId),
            exerciseName: try container.decode(String.self, forKey: .exerciseName))
    }
}

extension ExerciseRemoved: Decodable {
    private enum DecodingKeys: String, CodingKey { case exerciseId }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: DecodingKeys.self)
        self.init(exerciseId: try container.decode(String.self, forKey: .exerciseId))
    }
}

extension ExerciseMoved: Decodable {
    private enum DecodingKeys: String, CodingKey { case exerciseId, toIndex }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: DecodingKeys.self)
        self.init(
            exerciseId: try container.decode(String.self, forKey: .exerciseId),
            toIndex: try container.decode(UInt32.self, forKey: .toIndex))
    }
}

// MARK: - Sets

extension SetLogged: Decodable {
    private enum DecodingKeys: String, CodingKey { case setNumber }

    /// Reads `setNumber` and, beside it in the same object, the fields of `SetDetails`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: DecodingKeys.self)
        self.init(
            setNumber: try container.decode(UInt32.self, forKey: .setNumber), set: try SetDetails(from: decoder))
    }
}

extension SetCorrected: Decodable {
    private enum DecodingKeys: String, CodingKey { case setNumber }

    /// Reads `setNumber` and, beside it in the same object, the fields of `SetDetails`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: DecodingKeys.self)
        self.init(
            setNumber: try container.decode(UInt32.self, forKey: .setNumber), set: try SetDetails(from: decoder))
    }
}

extension SetRemoved: Decodable {
    private enum DecodingKeys: String, CodingKey { case setNumber }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: DecodingKeys.self)
        self.init(setNumber: try container.decode(UInt32.self, forKey: .setNumber))
    }
}

// MARK: - Rest timers

extension RestTimerStarted: Decodable {
    private enum DecodingKeys: String, CodingKey { case durationSeconds, endsAt, afterSet }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: DecodingKeys.self)
        self.init(
            durationSeconds: try container.decode(UInt32.self, forKey: .durationSeconds),
            endsAt: try container.decodeTimestamp(forKey: .endsAt),
            afterSet: try container.decodeIfPresent(UInt32.self, forKey: .afterSet))
    }
}

extension RestTimerExtended: Decodable {
    private enum DecodingKeys: String, CodingKey { case bySeconds, endsAt }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: DecodingKeys.self)
        self.init(
            bySeconds: try container.decode(Int32.self, forKey: .bySeconds),
            endsAt: try container.decodeTimestamp(forKey: .endsAt))
    }
}

extension RestTimerSkipped: Decodable {
    public init(from decoder: any Decoder) throws {
        _ = try decoder.container(keyedBy: NoKeys.self)
        self.init()
    }
}

extension RestTimerFinished: Decodable {
    private enum DecodingKeys: String, CodingKey { case endedAt }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: DecodingKeys.self)
        self.init(endedAt: try container.decodeTimestamp(forKey: .endedAt))
    }
}

// MARK: - Rules

extension RulesChanged: Decodable {
    private enum DecodingKeys: String, CodingKey { case key, value }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: DecodingKeys.self)
        self.init(
            key: try container.decode(String.self, forKey: .key),
            value: try container.decode(String.self, forKey: .value))
    }
}
