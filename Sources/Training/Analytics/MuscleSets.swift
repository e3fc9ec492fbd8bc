/// The sets behind one muscle's figure in ``MuscleBalance``: every working set, in the weeks given, of an exercise
/// that works the muscle, with the weight its role there gives it. Read from the workouts' `history` and `sessions`
/// rows, not from the weekly counters that `balance` reads, so the two can be held against each other.
public struct MuscleSets: Sendable {
    /// One exercise of one workout, in one role for the muscle.
    public struct Line: Sendable {
        public let workout: WorkoutSummary
        public let exerciseId: String
        public let isPrimary: Bool
        /// What each set counts for the muscle, in thousandths: the rule `balance.primary` or `balance.secondary` (a
        /// muscle counts once for a set, in the role it has; see ``ExerciseFacts``).
        public let milliWeight: Int64
        /// The working sets that count (warm-ups and sets kept out as implausible do not), by number.
        public let sets: [SetFact]

        /// The sets, weighed.
        public var weighedSets: Double { Double(milliWeight * Int64(sets.count)) / 1_000 }
    }

    public let muscle: String
    /// Week starts, oldest first.
    public let weeks: [LocalDate]
    /// By workout start, then the workout's exercise order.
    public let lines: [Line]

    /// The weighed sets of all lines: what `balance` shows for the muscle, when its counters were made from the
    /// exercises' present muscles.
    public var sets: Double { Double(lines.reduce(0) { $0 + $1.milliWeight * Int64($1.sets.count) }) / 1_000 }
}

extension TrainingSnapshot {
    /// The sets behind `muscle`'s figure in ``balance(weeks:today:)`` with the same weeks.
    public func setsBehind(muscle: String, weeks count: Int, today: LocalDate) throws -> MuscleSets {
        let weeks = balanceWeeks(count, today: today)
        let primary = rules.primaryMilliWeight
        let secondary = rules.secondaryMilliWeight
        var facts: [String: ExerciseFacts] = [:]
        var lines: [MuscleSets.Line] = []
        let filter = HistoryFilter(from: weeks.first, to: LocalDate(dayNumber: weeks.last!.dayNumber + 6))
        for workout in try history(filter) {
            for exercise in workout.exercises {
                let exerciseId = exercise.exerciseId
                let info =
                    try facts[exerciseId]
                    ?? ExerciseFacts.folded(exerciseId, customExercises: table(TrainingTable.exercises))
                facts[exerciseId] = info
                // A role the rules weigh at 0 still lists its sets, each counting for nothing.
                for (isPrimary, weight, muscles) in [
                    (true, primary, info.primaryMuscles), (false, secondary, info.secondaryMuscles),
                ] {
                    // The fold adds a share for each listing (``ExerciseFacts`` lists a muscle once, so at most one).
                    let listings = Int64(muscles.count { $0 == muscle })
                    guard listings > 0 else { continue }
                    let sets = try countedSets(exerciseId, in: workout).filter {
                        $0.details.kind != .warmup && !$0.isExcluded
                    }
                    guard !sets.isEmpty else { continue }
                    lines.append(
                        MuscleSets.Line(
                            workout: workout, exerciseId: exerciseId, isPrimary: isPrimary,
                            milliWeight: weight * listings, sets: sets))
                }
            }
        }
        return MuscleSets(muscle: muscle, weeks: weeks, lines: lines)
    }

    /// The counted sets of `exerciseId` in `workout`, by number, from its `sessions` row.
    private func countedSets(_ exerciseId: String, in workout: WorkoutSummary) throws -> [SetFact] {
        let key = Key().text(exerciseId).instant(workout.startedAt).text(workout.workoutId).bytes
        return try table(.sessions)?.withValue(forKey: key) { value in
            try key.withUnsafeBytes { key in
                try ReadModelRow.decode(key: key, value: value, table: "sessions", SetFact.decode(key:row:))
            }
        } ?? []
    }
}
