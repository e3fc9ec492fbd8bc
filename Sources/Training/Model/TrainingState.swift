import EventJournal

/// Everything the commands check their rules against, folded from the journal's training events.
public struct TrainingState: Sendable {
    public internal(set) var profile = Profile()
    public internal(set) var customExercises: [CustomExerciseAdded] = []
    public internal(set) var catalogVersion: UInt64 = 0
    /// Routines by id, and their ids in the order they were created.
    public internal(set) var routines: [String: Routine] = [:]
    public internal(set) var routineOrder: [String] = []
    public internal(set) var schedule: Schedule = .pushPullLegs
    public internal(set) var scheduleVersion: UInt64 = 0
    /// Workouts by stream id, and their ids in journal order.
    public internal(set) var workouts: [String: Workout] = [:]
    public internal(set) var workoutOrder: [String] = []
    /// The highest `workout-<number>` stream seen: the next workout is the one after it.
    public internal(set) var highestWorkoutNumber: UInt64 = 0
    /// The position of the last record folded.
    public internal(set) var position: UInt64 = 0

    public init() {}

    /// Folds every training event in `journal`; other records are passed over.
    public static func load(from journal: Journal) throws -> TrainingState {
        var state = TrainingState()
        try journal.forEachRecord { record in
            state.position = record.position
            let event: RecordedTrainingEvent?
            do {
                event = try RecordedTrainingEvent(record)
            } catch {
                throw TrainingError(
                    .undecodable, "record \(record.position) (\(record.type)) does not decode: \(error)",
                    remedy: "run liftledger verify; restore the journal from a backup if it fails")
            }
            if let event { state.apply(event) }
        }
        return state
    }

    /// The workout in progress, if any (the newest, should there be more than one).
    public var activeWorkout: Workout? {
        workoutOrder.reversed().lazy.compactMap { self.workouts[$0] }.first(where: \.isActive)
    }

    /// Finished workouts that have not been deleted, oldest start first.
    public var history: [Workout] {
        workoutOrder.compactMap { workouts[$0] }.filter { !$0.isDeleted && $0.finishedAt != nil }
            .sorted { $0.startedAt < $1.startedAt }
    }

    /// The routine a name or id refers to.
    public func routine(named name: String) -> Routine? {
        routines[Routine.id(forName: name)]
    }

    public mutating func apply(_ recorded: RecordedTrainingEvent) {
        position = max(position, recorded.position)
        let stream = recorded.streamID
        let time = recorded.occurredAt
        switch recorded.event {
        case .profileUpdated, .bodyWeightRecorded:
            profile.apply(recorded.event, at: time)
            profile.version = recorded.streamVersion
        case .customExerciseAdded(let added):
            customExercises.removeAll { $0.exerciseId == added.exerciseId }
            customExercises.append(added)
            catalogVersion = recorded.streamVersion
        case .routineCreated(let created):
            if routines[created.routineId] == nil { routineOrder.append(created.routineId) }
            routines[created.routineId] = Routine(id: created.routineId, name: created.name)
            routines[created.routineId]?.version = recorded.streamVersion
        case .routineExerciseAdded, .routineExerciseRemoved, .routineExerciseMoved:
            guard let id = routineID(in: stream) else { return }
            routines[id]?.apply(recorded.event)
            routines[id]?.version = recorded.streamVersion
        case .scheduleSet(let set):
            if let schedule = Schedule(set) { self.schedule = schedule }
            scheduleVersion = recorded.streamVersion
        case .workoutStarted(let started):
            if workouts[stream] == nil { workoutOrder.append(stream) }
            workouts[stream] = Workout(id: stream, started: started, at: time)
            workouts[stream]?.version = recorded.streamVersion
            if let number = Workout.number(inStreamID: stream) {
                highestWorkoutNumber = max(highestWorkoutNumber, number)
            }
        default:
            guard workouts[stream] != nil else { return }
            workouts[stream]?.apply(recorded.event, at: time)
            workouts[stream]?.version = recorded.streamVersion
        }
    }

    private func routineID(in stream: String) -> String? {
        stream.hasPrefix("routine-") ? String(stream.dropFirst("routine-".count)) : nil
    }
}
