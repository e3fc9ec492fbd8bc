/// What a rebuild's reading thread works out of a chunk ahead of the training fold: the state and contribution of each
/// workout whose events in the chunk begin with its start and leave it ended. The fold takes such a workout over at
/// its start when the start is the workout's first (its number is above every workout started before, as in a rebuild
/// nearly every workout's is), and then passes its other events over.
///
/// Such a workout needs nothing from the read model: it has no state from before the chunk, and no
/// `CustomExerciseAdded` falls among its events, so the facts of its exercises stay the catalog's unless the read
/// model holds a custom exercise of that id, which the fold checks.
public struct PreparedWorkouts: Sendable {
    /// The workouts found, in the order of their starts; nil for one not prepared (not eligible, in progress at the
    /// chunk's end, or not reached when the fold asked for the chunk).
    let workouts: [PreparedWorkout?]
    /// For each event of the chunk, from `firstIndex` on: the index among `workouts` of the workout it belongs to, or
    /// -1.
    private let owners: [Int32]
    private let firstIndex: Int

    /// The index among ``workouts`` of the workout the event at `index` of the chunk belongs to.
    func owner(ofEventAt index: Int) -> Int? {
        let offset = index - firstIndex
        guard offset >= 0, offset < owners.count, owners[offset] >= 0 else { return nil }
        return Int(owners[offset])
    }

    /// Finds the workouts of `events` and prepares them in the order they start, until `isWanted` returns true; nil
    /// when it does so before the workouts are found.
    init?(
        _ events: ArraySlice<RecordedTrainingEvent>, rules: Rules, until isWanted: () -> Bool
    ) {
        firstIndex = events.startIndex
        guard let found = Self.find(events, until: isWanted) else { return nil }
        owners = found.owners
        var workouts = [PreparedWorkout?](repeating: nil, count: found.candidates.count)
        var facts: [String: ExerciseFacts] = [:]
        for (candidateIndex, candidate) in found.candidates.enumerated() where candidate.isEligible {
            if isWanted() { break }
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
            if workout.counts {
                var exercises: [ExerciseFacts] = []
                exercises.reserveCapacity(workout.exercises.count)
                for exercise in workout.exercises {
                    if let known = facts[exercise.exerciseId] {
                        exercises.append(known)
                    } else {
                        guard let catalogued = try? ExerciseFacts.catalogued(exercise.exerciseId) else { return nil }
                        facts[exercise.exerciseId] = catalogued
                        exercises.append(catalogued)
                    }
                }
                contribution = WorkoutContribution(workout, rules: rules, exercises: exercises)
            }
            workouts[candidateIndex] = PreparedWorkout(
                startIndex: candidate.start, workout: workout, contribution: contribution)
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

    /// The workouts whose first event in the chunk is their start, and the workout each event belongs to; nil when
    /// `isWanted` returns true first.
    private static func find(
        _ events: ArraySlice<RecordedTrainingEvent>, until isWanted: () -> Bool
    ) -> (candidates: [Candidate], owners: [Int32])? {
        var owners = [Int32](repeating: -1, count: events.count)
        var candidates: [Candidate] = []
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
        return (candidates, owners)
    }
}

/// A workout that a chunk's events start and end, as they leave it.
struct PreparedWorkout: Sendable {
    /// The index of the workout's `WorkoutStarted` among the chunk's events.
    let startIndex: Int
    let workout: Workout
    /// What the workout contributes, when it counts, with the catalog's facts for its exercises.
    let contribution: WorkoutContribution?
}
