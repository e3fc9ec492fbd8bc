import EventJournal

/// The workout in progress as it stands at a given instant: what `liftledger status` shows, and what comes back after
/// a crash. Everything time-dependent is computed from recorded instants and `now`, never from a running countdown.
public struct ActiveSession: Sendable {
    public let workout: Workout
    public let now: Timestamp
    public let staleAfterSeconds: Int64
    public let exercises: [Exercise]

    /// An exercise of the session with its sets, what was done last time, and the suggested next set.
    public struct Exercise: Sendable {
        public let exerciseId: String
        public let name: String
        public let sets: [LoggedSet]
        public let lastTime: LastTime?
        public let suggestion: SetSuggestion?
        /// The routine's targets for it, when the workout follows a routine that has it.
        public let target: RoutineExerciseAdded?

        /// The sets that count toward the routine's: working sets (not warm-ups) of at least one rep (a missed lift
        /// is none).
        public var setsTowardTarget: Int { Self.setsTowardTarget(sets) }

        /// Whether the session has the routine's sets of the exercise (for a target of more than none).
        public var routineSetsDone: Bool {
            target.map { $0.targetSets > 0 && setsTowardTarget >= Int($0.targetSets) } ?? false
        }

        static func setsTowardTarget(_ sets: [LoggedSet]) -> Int { sets.count(where: isLifted) }

        /// A working set (not a warm-up) of at least one rep: a missed lift is none.
        static func isLifted(_ set: LoggedSet) -> Bool { set.details.kind != .warmup && set.details.reps > 0 }
    }

    public init(workout: Workout, snapshot: TrainingSnapshot, now: Timestamp, staleAfterSeconds: Int64) throws {
        self.workout = workout
        self.now = now
        self.staleAfterSeconds = staleAfterSeconds
        let target = try workout.routineId.flatMap { try snapshot.routine(id: $0) }
        exercises = try workout.exercises.map { exercise in
            let sets = workout.sets.filter { !$0.isRemoved && $0.details.exerciseId == exercise.exerciseId }
            let lastTime = try snapshot.lastTime(exercise.exerciseId, before: workout)
            let targets = target?.exercises.first { $0.exerciseId == exercise.exerciseId }
            let facts = try ExerciseFacts.folded(
                exercise.exerciseId, customExercises: snapshot.table(TrainingTable.exercises))
            return Exercise(
                exerciseId: exercise.exerciseId, name: exercise.name, sets: sets, lastTime: lastTime,
                suggestion: SetSuggestion.next(
                    current: sets, lastTime: lastTime, targets: targets, isAssisted: facts.isAssisted),
                target: targets)
        }
    }

    public var isPaused: Bool { workout.pausedAt != nil }

    /// Whole seconds trained, pauses left out, rounded down.
    public var elapsedSeconds: Int64 { workout.elapsedMicroseconds(at: now) / 1_000_000 }

    /// Idle for longer than the stale age: show it with the choice to finish or discard it.
    public var isStale: Bool { workout.isIdle(longerThan: staleAfterSeconds, at: now) }

    /// The open rest timer, if any.
    public var rest: RestTimer? { workout.rest.flatMap { $0.isOpen ? $0 : nil } }
}

/// The sets of an exercise in the most recent finished workout that had it.
public struct LastTime: Sendable {
    public let workoutId: String
    public let startedAt: Timestamp
    public let sets: [LoggedSet]
}

/// A suggested next set and the reason for it.
public struct SetSuggestion: Sendable, Equatable {
    public let weight: Weight?
    public let reps: UInt32
    public let reason: String

    /// The rule: repeat the last working set of this session (not a drop set); else start from last time's first
    /// working set, adding 2.5 kg (or 5 lb) when last time had the routine's number of working sets and every one
    /// reached the top of its rep range (for an assisted exercise, whose weight is help, taking as much off, down to
    /// none), or one rep when the first did not; without a routine, repeat it; when that first set reached the top
    /// already and no weight changes, the same again (at the top of the range, for a set past it). A set of no reps (a
    /// missed lift) is no set to repeat or start from, and it did not reach the top of the range. No weight past the
    /// heaviest a set may be logged with is suggested, and no set once this session has the routine's number of working
    /// sets lifted.
    static func next(
        current: [LoggedSet], lastTime: LastTime?, targets: RoutineExerciseAdded?, isAssisted: Bool = false
    ) -> SetSuggestion? {
        func isWorking(_ set: LoggedSet) -> Bool { set.details.kind != .warmup }
        let wasLifted = ActiveSession.Exercise.isLifted
        if let targets, targets.targetSets > 0,
            ActiveSession.Exercise.setsTowardTarget(current) >= Int(targets.targetSets)
        {
            return nil
        }
        // A drop set, lighter by design, is no set to repeat or start from.
        func isRepeatable(_ set: LoggedSet) -> Bool { wasLifted(set) && set.details.kind != .drop }
        if let last = current.last(where: isRepeatable) {
            return SetSuggestion(
                weight: last.details.weight, reps: last.details.reps, reason: "repeat set \(last.number)")
        }
        guard let lastTime, let first = lastTime.sets.first(where: isRepeatable) else { return nil }
        let working = lastTime.sets.filter(isWorking)
        guard let targets, targets.maximumReps > 0 else {
            return SetSuggestion(
                weight: first.details.weight, reps: first.details.reps, reason: "same as last time")
        }
        let step = first.details.weight?.unit == .pounds ? ExactDecimal(5) : ExactDecimal(significand: 25, scale: 1)!
        // Progress needs the routine's sets done, each at the top of the range.
        let everyReached = working.allSatisfy { $0.details.reps >= targets.maximumReps }
        let fewerSets = working.count < Int(targets.targetSets)
        if everyReached, !fewerSets, let weight = first.details.weight {
            let reached = "every set reached \(targets.maximumReps) reps last time"
            // Not past the heaviest weight a set may be logged with.
            if !isAssisted, let heavier = weight.value.adding(step),
                !(SetEntry.maximumKilograms < Weight(heavier, weight.unit).kilograms)
            {
                return SetSuggestion(
                    weight: Weight(heavier, weight.unit), reps: targets.minimumReps,
                    reason: "\(reached): add \(step) \(weight.unit.rawValue)")
            }
            let off = ExactDecimal(significand: -step.significand, scale: step.scale)!
            if isAssisted, ExactDecimal(0) < weight.value, let lighter = weight.value.adding(off) {
                let help = lighter.isNegative ? ExactDecimal(0) : lighter
                let taken = lighter.isNegative ? weight.value : step
                return SetSuggestion(
                    weight: Weight(help, weight.unit), reps: targets.minimumReps,
                    reason: "\(reached): take \(taken) \(weight.unit.rawValue) of help off")
            }
        }
        // The first set at the top already: the same again, whether another fell short, fewer sets than the routine's
        // were done, or there is nothing to add (body weight, or a weight at the heaviest a set may have) or take off
        // (no help left).
        guard first.details.reps < targets.maximumReps else {
            let reason =
                !everyReached
                ? "not every set reached \(targets.maximumReps) reps last time"
                : fewerSets
                    ? "\(working.count) of \(targets.targetSets) sets last time"
                    : "every set reached \(targets.maximumReps) reps last time"
            // A set past the top of the range is not repeated as it was: the range's top is the target.
            let again =
                first.details.reps == targets.maximumReps
                ? "the same again" : "the same weight, at the top of the range"
            return SetSuggestion(weight: first.details.weight, reps: targets.maximumReps, reason: "\(reason): \(again)")
        }
        return SetSuggestion(
            weight: first.details.weight, reps: first.details.reps + 1,
            reason: "one more rep than last time, up to \(targets.maximumReps)")
    }
}
