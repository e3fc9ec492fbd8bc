import EventJournal
import Projections

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Every training event this build knows, decoded.
public enum TrainingEvent: Sendable, Equatable {
    case profileUpdated(ProfileUpdated)
    case bodyWeightRecorded(BodyWeightRecorded)
    /// Boxed: the largest payload by far, and a rare event, it would otherwise set the size of every event.
    indirect case customExerciseAdded(CustomExerciseAdded)
    case routineCreated(RoutineCreated)
    case routineExerciseAdded(RoutineExerciseAdded)
    case routineExerciseRemoved(RoutineExerciseRemoved)
    case routineExerciseMoved(RoutineExerciseMoved)
    case scheduleSet(ScheduleSet)
    case workoutStarted(WorkoutStarted)
    case workoutPaused(WorkoutPaused)
    case workoutResumed(WorkoutResumed)
    case workoutFinished(WorkoutFinished)
    case workoutDiscarded(WorkoutDiscarded)
    case workoutEdited(WorkoutEdited)
    case workoutDeleted(WorkoutDeleted)
    case workoutRestored(WorkoutRestored)
    case exerciseAdded(ExerciseAdded)
    case exerciseRemoved(ExerciseRemoved)
    case exerciseMoved(ExerciseMoved)
    case setLogged(SetLogged)
    case setCorrected(SetCorrected)
    case setRemoved(SetRemoved)
    case restTimerStarted(RestTimerStarted)
    case restTimerExtended(RestTimerExtended)
    case restTimerSkipped(RestTimerSkipped)
    case restTimerFinished(RestTimerFinished)
    case rulesChanged(RulesChanged)

    /// Whether the event belongs in a workout's stream: the lifecycle, exercises, sets and rest timers.
    public var isWorkoutEvent: Bool {
        switch self {
        case .workoutStarted, .workoutPaused, .workoutResumed, .workoutFinished, .workoutDiscarded, .workoutEdited,
            .workoutDeleted, .workoutRestored, .exerciseAdded, .exerciseRemoved, .exerciseMoved, .setLogged,
            .setCorrected, .setRemoved, .restTimerStarted, .restTimerExtended, .restTimerSkipped, .restTimerFinished:
            true
        case .profileUpdated, .bodyWeightRecorded, .customExerciseAdded, .routineCreated, .routineExerciseAdded,
            .routineExerciseRemoved, .routineExerciseMoved, .scheduleSet, .rulesChanged:
            false
        }
    }

    /// The payload inside, for encoding.
    public var payload: any TrainingEventPayload {
        switch self {
        case .profileUpdated(let event): event
        case .bodyWeightRecorded(let event): event
        case .customExerciseAdded(let event): event
        case .routineCreated(let event): event
        case .routineExerciseAdded(let event): event
        case .routineExerciseRemoved(let event): event
        case .routineExerciseMoved(let event): event
        case .scheduleSet(let event): event
        case .workoutStarted(let event): event
        case .workoutPaused(let event): event
        case .workoutResumed(let event): event
        case .workoutFinished(let event): event
        case .workoutDiscarded(let event): event
        case .workoutEdited(let event): event
        case .workoutDeleted(let event): event
        case .workoutRestored(let event): event
        case .exerciseAdded(let event): event
        case .exerciseRemoved(let event): event
        case .exerciseMoved(let event): event
        case .setLogged(let event): event
        case .setCorrected(let event): event
        case .setRemoved(let event): event
        case .restTimerStarted(let event): event
        case .restTimerExtended(let event): event
        case .restTimerSkipped(let event): event
        case .restTimerFinished(let event): event
        case .rulesChanged(let event): event
        }
    }

    private struct Decoder: Sendable {
        let currentVersion: UInt32
        let decode: @Sendable (UInt32, UnsafeRawBufferPointer) throws(PayloadError) -> TrainingEvent
    }

    private static func entry<Payload: TrainingEventPayload>(
        _: Payload.Type, _ wrap: @escaping @Sendable (Payload) -> TrainingEvent
    ) -> (String, Decoder) {
        let decoder = Decoder(currentVersion: Payload.schemaVersion) { (version, payload) throws(PayloadError) in
            wrap(try Payload.decode(version: version, payload: payload))
        }
        return (Payload.typeName, decoder)
    }

    private static let decoders: [String: Decoder] = Dictionary(
        uniqueKeysWithValues: [
            entry(ProfileUpdated.self, TrainingEvent.profileUpdated),
            entry(BodyWeightRecorded.self, TrainingEvent.bodyWeightRecorded),
            entry(CustomExerciseAdded.self, TrainingEvent.customExerciseAdded),
            entry(RoutineCreated.self, TrainingEvent.routineCreated),
            entry(RoutineExerciseAdded.self, TrainingEvent.routineExerciseAdded),
            entry(RoutineExerciseRemoved.self, TrainingEvent.routineExerciseRemoved),
            entry(RoutineExerciseMoved.self, TrainingEvent.routineExerciseMoved),
            entry(ScheduleSet.self, TrainingEvent.scheduleSet),
            entry(WorkoutStarted.self, TrainingEvent.workoutStarted),
            entry(WorkoutPaused.self, TrainingEvent.workoutPaused),
            entry(WorkoutResumed.self, TrainingEvent.workoutResumed),
            entry(WorkoutFinished.self, TrainingEvent.workoutFinished),
            entry(WorkoutDiscarded.self, TrainingEvent.workoutDiscarded),
            entry(WorkoutEdited.self, TrainingEvent.workoutEdited),
            entry(WorkoutDeleted.self, TrainingEvent.workoutDeleted),
            entry(WorkoutRestored.self, TrainingEvent.workoutRestored),
            entry(ExerciseAdded.self, TrainingEvent.exerciseAdded),
            entry(ExerciseRemoved.self, TrainingEvent.exerciseRemoved),
            entry(ExerciseMoved.self, TrainingEvent.exerciseMoved),
            entry(SetLogged.self, TrainingEvent.setLogged),
            entry(SetCorrected.self, TrainingEvent.setCorrected),
            entry(SetRemoved.self, TrainingEvent.setRemoved),
            entry(RestTimerStarted.self, TrainingEvent.restTimerStarted),
            entry(RestTimerExtended.self, TrainingEvent.restTimerExtended),
            entry(RestTimerSkipped.self, TrainingEvent.restTimerSkipped),
            entry(RestTimerFinished.self, TrainingEvent.restTimerFinished),
            entry(RulesChanged.self, TrainingEvent.rulesChanged),
        ])

    /// The decoders by the length of their type name in UTF-8, each with the name's bytes: a record's decoder is found
    /// without making a string of its type.
    private static let decodersByLength: [[(name: [UInt8], decoder: Decoder)]] = {
        let longest = decoders.keys.map(\.utf8.count).max() ?? 0
        var table = [[(name: [UInt8], decoder: Decoder)]](repeating: [], count: longest + 1)
        for (name, decoder) in decoders { table[name.utf8.count].append((Array(name.utf8), decoder)) }
        return table
    }()

    private static func decoder(forType type: UnsafeRawBufferPointer) -> Decoder? {
        guard type.count < decodersByLength.count else { return nil }
        return decodersByLength[type.count].first { entry in
            entry.name.withUnsafeBytes { memcmp($0.baseAddress!, type.baseAddress!, type.count) == 0 }
        }?.decoder
    }

    /// The type names this build decodes.
    public static var typeNames: Set<String> { Set(decoders.keys) }

    /// Decodes a record's payload. Nil when it is not a training event this build knows: another type, or a schema
    /// version newer than this build's (such events are kept and shown, and ignored by everything that folds
    /// events). Throws when a known version's payload is malformed.
    public static func decode(_ record: RecordView) throws(PayloadError) -> TrainingEvent? {
        guard record.encoding == .binary, let decoder = decoder(forType: record.typeUTF8),
            record.schemaVersion <= decoder.currentVersion
        else { return nil }
        return try decoder.decode(record.schemaVersion, record.payload)
    }

    /// The schema version this build writes events of `type` in; nil for a type it does not know.
    public static func currentSchemaVersion(of type: String) -> UInt32? { decoders[type]?.currentVersion }

    /// Decodes a payload in the binary encoding of a `type` event of `schemaVersion`, as a record's is decoded: nil
    /// when it is not a training event this build knows.
    public static func decode(
        type: String, schemaVersion: UInt32, payload: UnsafeRawBufferPointer
    ) throws(PayloadError) -> TrainingEvent? {
        guard let decoder = decoders[type], schemaVersion <= decoder.currentVersion else { return nil }
        return try decoder.decode(schemaVersion, payload)
    }

    /// Decodes a record's payload, as ``decode(_:)-(RecordView)`` does.
    public static func decode(_ record: EventRecord) throws(PayloadError) -> TrainingEvent? {
        let decoded = record.withView { view in Result { () throws(PayloadError) in try decode(view) } }
        return try decoded.get()
    }
}

/// A decoded training event with where and when the journal holds it.
public struct RecordedTrainingEvent: Sendable {
    public let position: UInt64
    public let streamID: String
    public let streamVersion: UInt64
    public let occurredAt: Timestamp
    public let recordedAt: Timestamp
    public let event: TrainingEvent

    public init(
        position: UInt64, streamID: String, streamVersion: UInt64, occurredAt: Timestamp, recordedAt: Timestamp,
        event: TrainingEvent
    ) {
        self.position = position
        self.streamID = streamID
        self.streamVersion = streamVersion
        self.occurredAt = occurredAt
        self.recordedAt = recordedAt
        self.event = event
    }

    /// The record decoded, or nil when it is not a training event this build knows.
    public init?(_ record: RecordView) throws(PayloadError) {
        guard let event = try TrainingEvent.decode(record) else { return nil }
        self.init(record, event: event)
    }

    /// `event`, decoded from `record`, with where and when `record` says the journal holds it.
    init(_ record: RecordView, event: TrainingEvent) {
        self.init(
            position: record.position, streamID: record.streamID, streamVersion: record.streamVersion,
            occurredAt: record.occurredAt, recordedAt: record.recordedAt, event: event)
    }
}

extension RecordedTrainingEvent: EventDecoding {
    /// The record decoded, or nil when it is not a training event this build knows.
    public static func decode(_ record: RecordView) throws -> RecordedTrainingEvent? {
        try RecordedTrainingEvent(record)
    }

    public static func decode(
        _ record: RecordView, into destination: UnsafeMutablePointer<RecordedTrainingEvent>
    ) throws -> Bool {
        guard let event = try TrainingEvent.decode(record) else { return false }
        destination.initialize(to: RecordedTrainingEvent(record, event: event))
        return true
    }
}
