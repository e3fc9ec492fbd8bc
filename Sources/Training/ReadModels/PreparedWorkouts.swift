/// What a rebuild's reading thread works out of a chunk ahead of the training fold: the state and contribution of each
/// workout whose events in the chunk begin with its start and leave it ended. The fold takes such a workout over at
/// its start when the start is the workout's first (its number is above every workout started before, as in a rebuild
/// nearly every workout's is), and then passes its other events over.
///
/// Such a workout needs nothing from the read model but the facts of its exercises: it has no state from before the
/// chunk, and no `CustomExerciseAdded` falls among its events, so those facts are the catalog's, or a custom
/// exercise's as the read model holds it when the chunk begins (``CustomExercises``) or as a `CustomExerciseAdded`
/// before the workout's start leaves it. The fold checks that it has the same facts before it takes a contribution.
public struct PreparedWorkouts: Sendable {
    /// The workouts found, in the order of their starts; nil for one not prepared (not eligible, in progress at the
    /// chunk's end, or not reached when the fold asked for the chunk).
    let workouts: [PreparedWorkout?]
    /// For each event of the chunk, from `firstIndex` on: the index among `workouts` of the workout it belongs to, or
    /// -1.
    private let owners: [Int32]
    private let firstIndex: Int
    /// The indices of the chunk's `CustomExerciseAdded` events.
    let customExercisesAdded: [Int]

    /// The index among ``workouts`` of the workout the event at `index` of the chunk belongs to.
    func owner(ofEventAt index: Int) -> Int? {
        let offset = index - firstIndex
        guard offset >= 0, offset < owners.count, owners[offset] >= 0 else { return nil }
        return Int(owners[offset])
    }

    /// Finds the workouts of `events` and prepares them in the order they start, until `isWanted` returns true, with
    /// the facts of the catalog's exercises and of `customExercises` (those the read model holds when the chunk
    /// begins); nil when `isWanted` returns true before the workouts are found.
    init?(
        _ events: ArraySlice<RecordedTrainingEvent>, rules: Rules, customExercises: CustomExercises,
        until isWanted: () -> Bool
    ) {
        firstIndex = events.startIndex
        guard let found = Self.find(events, until: isWanted) else { return nil }
        owners = found.owners
        customExercisesAdded = found.customAdded
        var workouts = [PreparedWorkout?](repeating: nil, count: found.candidates.count)
        var custom = customExercises
        var catalogued: [String: ExerciseFacts] = [:]
        // The chunk's `CustomExerciseAdded` events not yet taken into `custom`.
        var customAdded = found.customAdded[...]
        for (candidateIndex, candidate) in found.candidates.enumerated() where candidate.isEligible {
            if isWanted() { break }
            while let index = customAdded.first, index < candidate.start {
                if case .customExerciseAdded(let added) = events[index].event { custom.add(added) }
                customAdded.removeFirst()
            }
            let start = events[candidate.start]
            guard case .workoutStarted(let started) = start.event else { continue }
            var workout = Workout(
                id: start.streamID, started: started, at: start.occurredAt, recordedAt: start.recordedAt)
            for index in (candidate.start + 1)..<(candidate.end + 1)
            where found.owners[index - firstIndex] == Int32(candidateIndex) {
                let event = events[index]
                workout.apply(event.event, at: event.occurredAt, position: event.position)
            }
            guard !workout.isActive else { continue }
            var contribution: WorkoutContribution?
            var exercises: [ExerciseFacts] = []
            if workout.counts {
                exercises.reserveCapacity(workout.exercises.count)
                for exercise in workout.exercises {
                    if let known = custom.facts[exercise.exerciseId] ?? catalogued[exercise.exerciseId] {
                        exercises.append(known)
                    } else {
                        guard let facts = try? ExerciseFacts.catalogued(exercise.exerciseId) else { return nil }
                        catalogued[exercise.exerciseId] = facts
                        exercises.append(facts)
                    }
                }
                contribution = WorkoutContribution(workout, rules: rules, exercises: exercises)
            }
            workouts[candidateIndex] = PreparedWorkout(
                startIndex: candidate.start, workout: workout, contribution: contribution, exercises: exercises)
        }
        self.workouts = workouts
    }

    /// A workout of the chunk that may be prepared: its events run from `start`, its `WorkoutStarted`, to `end`.
    private struct Candidate {
        let start: Int
        var end: Int
        /// False once it starts again, or once a `CustomExerciseAdded` falls among its events.
        var isEligible = true
    }

    /// The workouts whose first event in the chunk is their start, the workout each event belongs to, and the indices
    /// of the chunk's `CustomExerciseAdded` events; nil when `isWanted` returns true first.
    private static func find(
        _ events: ArraySlice<RecordedTrainingEvent>, until isWanted: () -> Bool
    ) -> (candidates: [Candidate], owners: [Int32], customAdded: [Int])? {
        var owners = [Int32](repeating: -1, count: events.count)
        var candidates: [Candidate] = []
        var customAdded: [Int] = []
        // By stream: the index of its candidate, or -1 for a stream whose events in the chunk do not begin with a
        // start (or that starts twice).
        var byStream: [String: Int32] = [:]
        // A workout's events mostly come one after another: the last stream looked up costs no hashing.
        var lastStream = ""
        var lastOwner: Int32 = -1
        var lastCustomExercise = -1
        for index in events.indices {
            if index & 1_023 == 0, isWanted() { return nil }
            switch events[index].event {
            case .customExerciseAdded:
                lastCustomExercise = index
                customAdded.append(index)
            case .workoutStarted:
                let stream = events[index].streamID
                var owner: Int32 = -1
                if let earlier = byStream[stream] {
                    if earlier >= 0 { candidates[Int(earlier)].isEligible = false }
                } else if Workout.number(inStreamID: stream) != nil {
                    owner = Int32(candidates.count)
                    candidates.append(Candidate(start: index, end: index))
                }
                byStream[stream] = owner
                owners[index - events.startIndex] = owner
                lastStream = stream
                lastOwner = owner
            case _ where events[index].event.isWorkoutEvent:
                let stream = events[index].streamID
                if stream != lastStream {
                    lastStream = stream
                    lastOwner = byStream[stream, default: -1]
                    if lastOwner == -1 { byStream[stream] = -1 }
                }
                guard lastOwner >= 0 else { continue }
                owners[index - events.startIndex] = lastOwner
                candidates[Int(lastOwner)].end = index
                if lastCustomExercise > candidates[Int(lastOwner)].start {
                    candidates[Int(lastOwner)].isEligible = false
                }
            default:
                continue
            }
        }
        return (candidates, owners, customAdded)
    }
}

/// A workout that a chunk's events start and end, as they leave it.
struct PreparedWorkout: Sendable {
    /// The index of the workout's `WorkoutStarted` among the chunk's events.
    let startIndex: Int
    let workout: Workout
    /// What the workout contributes, when it counts, with `exercises`, the facts of its exercises in the order it
    /// lists them.
    let contribution: WorkoutContribution?
    let exercises: [ExerciseFacts]
}

/// The custom exercises of the training read model, as a chunk's fold will find them when it begins: what a rebuild's
/// reading thread prepares the chunk's workouts with (see ``TrainingProjection/preparationContext(in:after:prepared:)``).
public struct CustomExercises: Sendable {
    /// The facts of each custom exercise, by id.
    var facts: [String: ExerciseFacts] = [:]

    public init() {}

    /// Takes in a custom exercise added (or changed) by an event, as the fold does.
    mutating func add(_ added: CustomExerciseAdded) {
        facts[added.exerciseId] = ExerciseFacts(added.exercise)
    }
}
