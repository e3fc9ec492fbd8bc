import EventJournal

/// Everything the commands check their rules against, folded from the journal's training events.
public struct TrainingState: Sendable {
    public internal(set) var profile = Profile()
    public internal(set) var customExercises: [CustomExerciseAdded] = []
    /// Routines by id, and their ids in the order they were created.
    public internal(set) var routines: [String: Routine] = [:]
    public internal(set) var routineOrder: [String] = []
    public internal(set) var schedule: Schedule = .pushPullLegs
    /// Workouts by stream id, and their ids in journal order.
    public internal(set) var workouts: [String: Workout] = [:]
    public internal(set) var workoutOrder: [String] = []
    /// The highest `workout-<number>` stream seen: the next workout is the one after it.
    public internal(set) var highestWorkoutNumber: UInt64 = 0
    /// The position of the last record folded.
    public internal(set) var position: UInt64 = 0
    /// The version of every stream seen, whatever its events: the expected version of the next append to it.
    public internal(set) var streamVersions: [String: UInt64] = [:]

    public init() {}

    /// Folds every training event in `journal`; other records are passed over.
    public static func load(from journal: Journal) throws -> TrainingState {
        var state = TrainingState()
        try journal.forEachRecord { record in
            state.observe(stream: record.streamID, version: record.streamVersion, position: record.position)
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

    /// What an append to `stream` must expect: the version seen, or no stream.
    public func expected(_ stream: String) -> ExpectedVersion {
        streamVersions[stream].map(ExpectedVersion.exact) ?? .noStream
    }

    /// Notes a record of any type: its stream's version, and the workout numbers taken.
    mutating func observe(stream: String, version: UInt64, position: UInt64) {
        self.position = max(self.position, position)
        streamVersions[stream] = version
        if let number = Workout.number(inStreamID: stream) { highestWorkoutNumber = max(highestWorkoutNumber, number) }
    }

    /// The routine a name or id refers to.
    public func routine(named name: String) -> Routine? {
        routines[Routine.id(forName: name)]
    }

    public mutating func apply(_ recorded: RecordedTrainingEvent) {
        observe(stream: recorded.streamID, version: recorded.streamVersion, position: recorded.position)
        let stream = recorded.streamID
        let time = recorded.occurredAt
        switch recorded.event {
        case .profileUpdated, .bodyWeightRecorded:
            profile.apply(recorded.event, at: time)
        case .customExerciseAdded(let added):
            customExercises.removeAll { $0.exerciseId == added.exerciseId }
            customExercises.append(added)
        case .routineCreated(let created):
            if routines[created.routineId] == nil { routineOrder.append(created.routineId) }
            routines[created.routineId] = Routine(id: created.routineId, name: created.name)
        case .routineExerciseAdded, .routineExerciseRemoved, .routineExerciseMoved:
            guard let id = routineID(in: stream) else { return }
            routines[id]?.apply(recorded.event)
        case .scheduleSet(let set):
            if let schedule = Schedule(set) { self.schedule = schedule }
        case .workoutStarted(let started):
            if workouts[stream] == nil { workoutOrder.append(stream) }
            workouts[stream] = Workout(id: stream, started: started, at: time)
        default:
            guard workouts[stream] != nil else { return }
            workouts[stream]?.apply(recorded.event, at: time)
        }
    }

    private func routineID(in stream: String) -> String? {
        stream.hasPrefix("routine-") ? String(stream.dropFirst("routine-".count)) : nil
    }
}
