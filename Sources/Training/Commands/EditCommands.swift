import EventJournal

/// The fields of a set to change; nil leaves a field as it is.
public struct SetCorrection: Sendable {
    /// `.some(nil)` makes it a body-weight set.
    public var weight: Weight??
    public var reps: UInt32?
    public var kind: SetKind?
    public var rpe: RPE?
    /// The set's new note; empty clears it.
    public var note: String?
    public var exercise: String?
    /// Whether a new weight more than five times the exercise's previous one, or more than 100 reps with a weight, is
    /// meant (see ``SetRequest/confirmed``).
    public var confirmed: Bool
    /// The set's new time, in seconds (see ``SetRequest/durationSeconds``).
    public var durationSeconds: UInt32?
    /// The set's new distance, in metres (see ``SetRequest/distanceMeters``).
    public var distanceMeters: ExactDecimal?
    /// What the set no longer has; none of it may be given a new value too.
    public var clearing: Set<ClearableSetValue>

    public init(
        weight: Weight?? = nil, reps: UInt32? = nil, kind: SetKind? = nil, rpe: RPE? = nil, note: String? = nil,
        exercise: String? = nil, confirmed: Bool = false, durationSeconds: UInt32? = nil,
        distanceMeters: ExactDecimal? = nil, clearing: Set<ClearableSetValue> = []
    ) {
        self.weight = weight
        self.reps = reps
        self.kind = kind
        self.rpe = rpe
        self.note = note
        self.exercise = exercise
        self.confirmed = confirmed
        self.durationSeconds = durationSeconds
        self.distanceMeters = distanceMeters
        self.clearing = clearing
    }

    var isEmpty: Bool {
        weight == nil && reps == nil && kind == nil && rpe == nil && note == nil && exercise == nil
            && durationSeconds == nil && distanceMeters == nil && clearing.isEmpty
    }

    /// The values both given and cleared.
    var contradictions: [ClearableSetValue] {
        clearing.filter { value in
            switch value {
            case .rpe: rpe != nil
            case .time: durationSeconds != nil
            case .distance: distanceMeters != nil
            }
        }.sorted { $0.rawValue < $1.rawValue }
    }
}

/// A value of a set that a correction can take away: its RPE, its time or its distance.
public enum ClearableSetValue: String, Sendable, Hashable, CaseIterable {
    case rpe, time, distance
}

extension TrainingLog {
    /// Corrects set `number` of `workout` (default: the one in progress, else the last finished one); returns the
    /// workout's id, whether the set changed (a correction to what it has writes nothing), and the set's values before
    /// and after.
    @discardableResult
    public func correctSet(
        _ number: UInt32, in reference: String? = nil, _ correction: SetCorrection
    ) async throws
        -> (workoutId: String, changed: Bool, was: SetDetails, now: SetDetails)
    {
        guard !correction.isEmpty else {
            throw TrainingError(
                .invalidValue, "nothing to correct", remedy: "give what changes, such as --reps 6 or --weight 100kg")
        }
        if let value = correction.contradictions.first {
            throw TrainingError(
                .invalidValue, "the set's \(value.rawValue) is both given and cleared",
                remedy: "give a new \(value.rawValue) or clear it, not both")
        }
        try TimeAndDistance.check(seconds: correction.durationSeconds, metres: correction.distanceMeters)
        return try await execute { snapshot, now in
            let workout = try targetWorkout(reference, in: snapshot, at: now)
            let set = try Self.set(number, of: workout)
            var details = set.details
            if let exercise = correction.exercise { details.exerciseId = try self.exercise(exercise, in: snapshot).id }
            if let weight = correction.weight { details.weight = weight }
            if let reps = correction.reps { details.reps = reps }
            if let kind = correction.kind { details.kind = kind }
            if let rpe = correction.rpe { details.rpe = rpe }
            if let note = correction.note { details.note = note.isEmpty ? nil : note }
            if let seconds = correction.durationSeconds { details.durationSeconds = seconds }
            if let metres = correction.distanceMeters { details.distanceMeters = metres }
            for value in correction.clearing {
                switch value {
                case .rpe: details.rpe = nil
                case .time: details.durationSeconds = nil
                case .distance: details.distanceMeters = nil
                }
            }
            // A time or distance taken off a set of nothing else (a plank's time) leaves no set.
            let measured = { (set: SetDetails) in
                set.weight != nil || set.reps > 0 || set.durationSeconds != nil || set.distanceMeters != nil
            }
            if !correction.clearing.isEmpty, measured(set.details), !measured(details) {
                throw TrainingError(
                    .notAllowed, "set \(number) of \(workout.id) would have nothing left",
                    remedy: "remove it instead: liftledger remove-set \(number)")
            }
            // A new weight is checked as a logged one is, against the heaviest of: the exercise's weight before the set
            // (of a set logged before it, else of an earlier workout), its latest other set (for a workout's first
            // set, whose mistyped weight is put right, the sets after it) and the weight it replaces. A jump from all
            // of them is more often a typo than a fix of one.
            if let weight = correction.weight,
                weight != set.details.weight || details.exerciseId != set.details.exerciseId
            {
                let replaced = details.exerciseId == set.details.exerciseId ? set.details.weight : nil
                let before = try snapshot.previousWeight(of: details.exerciseId, in: workout, before: number)
                let other = try snapshot.otherWeight(of: details.exerciseId, in: workout, except: number)
                try Self.checkOutlier(
                    weight, confirmed: correction.confirmed,
                    exercise: try self.exercise(details.exerciseId, in: snapshot),
                    previous: [before, other, replaced].compactMap { $0 }.max { $0.milligrams < $1.milligrams },
                    comparedWith: "the heaviest of the set before it, its latest other set and the weight it replaces")
            }
            // As for a set logged: a weight and reps the other way round (`--weight 5 --reps 225`).
            if details.reps != set.details.reps || details.weight != set.details.weight {
                try Self.checkSwapped(
                    details.weight, reps: details.reps, confirmed: correction.confirmed,
                    exercise: try self.exercise(details.exerciseId, in: snapshot))
            }
            // Written, it would name itself the event that made the set, and its session, what they are.
            guard details != set.details else {
                return Decision(
                    stream: workout.id, expectedVersion: try snapshot.expectedVersion(of: workout.id), events: [],
                    result: (workout.id, false, set.details, details))
            }
            var events: [any TrainingEventPayload] = []
            if !workout.exercises.contains(where: { $0.exerciseId == details.exerciseId }) {
                let exercise = try self.exercise(details.exerciseId, in: snapshot)
                events.append(ExerciseAdded(exerciseId: exercise.id, exerciseName: exercise.name))
            }
            events.append(SetCorrected(setNumber: number, set: details))
            return Decision(
                stream: workout.id, expectedVersion: try snapshot.expectedVersion(of: workout.id), events: events,
                result: (workout.id, true, set.details, details))
        }
    }

    /// Removes set `number` of `workout` (default: the one in progress, else the last finished one); returns the
    /// workout's id.
    @discardableResult
    public func removeSet(_ number: UInt32, in reference: String? = nil) async throws -> String {
        try await execute { snapshot, now in
            let workout = try targetWorkout(reference, in: snapshot, at: now)
            let set = try Self.set(number, of: workout)
            try Self.requireSetsLeft(in: workout, afterRemoving: workout.countedExerciseIndex(of: set) == nil ? 0 : 1)
            return Decision(
                stream: workout.id, expectedVersion: try snapshot.expectedVersion(of: workout.id),
                events: [SetRemoved(setNumber: number)],
                result: workout.id)
        }
    }

    /// Takes an exercise out of `workout` (default: the one in progress, else the last finished one); one with sets is
    /// taken out only `withSets`, its sets removed first (`SetRemoved`), and not when that would leave a finished
    /// workout with no sets. Returns the workout's id and how many sets were removed.
    @discardableResult
    public func removeExercise(
        _ name: String, in reference: String? = nil, withSets: Bool = false
    ) async throws -> (
        workoutId: String, sets: Int
    ) {
        try await execute { snapshot, now in
            let workout = try targetWorkout(reference, in: snapshot, at: now)
            let (exercise, _) = try exerciseOf(workout, named: name, in: snapshot)
            let removed = workout.countedSets.filter { $0.details.exerciseId == exercise.id }
            let sets = removed.count
            guard sets == 0 || withSets else {
                throw TrainingError(
                    .notAllowed, "\(exercise.name) has \(sets) set\(sets == 1 ? "" : "s") in \(workout.id)",
                    remedy:
                        "to take \(sets == 1 ? "it" : "them") out too, add --with-sets (or remove a set with liftledger "
                        + "remove-set N)")
            }
            try Self.requireSetsLeft(in: workout, afterRemoving: sets)
            let events: [any TrainingEventPayload] =
                removed.map { SetRemoved(setNumber: $0.number) } + [ExerciseRemoved(exerciseId: exercise.id)]
            return Decision(
                stream: workout.id, expectedVersion: try snapshot.expectedVersion(of: workout.id), events: events,
                result: (workout.id, sets))
        }
    }

    /// The exercise `name` refers to and its index among `workout`'s exercises; refused when the workout has no such
    /// exercise.
    private func exerciseOf(
        _ workout: Workout, named name: String, in snapshot: TrainingSnapshot
    ) throws -> (Exercise, Int) {
        let exercise = try self.exercise(name, in: snapshot)
        guard let index = workout.exerciseIndex(of: exercise.id) else {
            throw TrainingError(
                .notFound, "\(exercise.name) is not in \(workout.id)",
                remedy: "its exercises are: \(workout.exercises.map(\.name).joined(separator: ", "))")
        }
        return (exercise, index)
    }

    /// Refuses to take the last counted sets out of a finished workout that counts: it would count as a day trained
    /// with nothing in it, which `finish` refuses; deleting it is what is meant.
    static func requireSetsLeft(in workout: Workout, afterRemoving removed: Int) throws {
        let counted = workout.countedSets.count
        guard workout.counts, removed > 0, removed >= counted else { return }
        throw TrainingError(
            .notAllowed, "that would leave \(workout.id) with no sets",
            remedy: "delete the workout instead (liftledger delete \(workout.id))")
    }

    /// Moves an exercise of `workout` (default: the one in progress, else the last finished one) to `position`,
    /// counted from 1; returns the workout's id, and whether it moved (one already in that place writes nothing).
    @discardableResult
    public func moveExercise(
        _ name: String, to position: Int, in reference: String? = nil
    ) async throws -> (workoutId: String, moved: Bool) {
        try await execute { snapshot, now in
            let workout = try targetWorkout(reference, in: snapshot, at: now)
            let (exercise, current) = try exerciseOf(workout, named: name, in: snapshot)
            guard (1...workout.exercises.count).contains(position) else {
                throw TrainingError(
                    .invalidValue,
                    "place \(position) in a workout of \(workout.exercises.count) "
                        + (workout.exercises.count == 1 ? "exercise" : "exercises"),
                    remedy: "give 1 to \(workout.exercises.count)")
            }
            let moves =
                current == position - 1 ? [] : [ExerciseMoved(exerciseId: exercise.id, toIndex: UInt32(position - 1))]
            return Decision(
                stream: workout.id, expectedVersion: try snapshot.expectedVersion(of: workout.id), events: moves,
                result: (workout.id, !moves.isEmpty))
        }
    }

    /// Edits a finished workout: a new start (the whole workout moves with it), note or name. Returns false, having
    /// written nothing, when the workout has those already.
    @discardableResult
    public func editWorkout(
        _ reference: String, startedAt: Timestamp?, note: String?, name: String?
    ) async throws -> Bool {
        guard startedAt != nil || note != nil || name != nil else {
            throw TrainingError(.invalidValue, "nothing to edit", remedy: "give --date, --note or --name")
        }
        try Self.requireText(name, "a workout's name")
        return try await execute { snapshot, now in
            let workout = try workout(reference, in: snapshot)
            guard let finishedAt = workout.finishedAt, !workout.isDeleted else {
                throw TrainingError(
                    .notAllowed,
                    "\(workout.id) is \(workout.isDeleted ? "deleted" : workout.isActive ? "in progress" : "discarded")",
                    remedy: workout.isActive
                        ? "finish it first (liftledger finish)"
                        : workout.remedyWhenGone("edit a finished workout"))
            }
            if let startedAt {
                // The whole workout moves: it must still start when a workout counts, and end by now.
                let day = LocalDate.dayNumber(of: startedAt, in: snapshot.rules.timeZone)
                guard WorkoutContribution.earliestPlausibleDay <= day else {
                    throw TrainingError(
                        .invalidValue,
                        "the new start \(startedAt.localText(in: snapshot.rules.timeZone)) is before 2000, when no "
                            + "workout counts",
                        remedy: "give a date from 2000-01-01 on")
                }
                let length = finishedAt.microsecondsSinceEpoch - workout.startedAt.microsecondsSinceEpoch
                let end = Timestamp(microsecondsSinceEpoch: startedAt.microsecondsSinceEpoch + length)
                guard end <= now else {
                    throw TrainingError(
                        .invalidValue,
                        "starting at \(startedAt.localText(in: snapshot.rules.timeZone)), the workout would end at "
                            + "\(end.localText(in: snapshot.rules.timeZone)), in the future",
                        remedy: "give a start at least \((length + 59_999_999) / 60_000_000) min before now")
                }
            }
            let edit = WorkoutEdited(
                startedAt: startedAt == workout.startedAt ? nil : startedAt,
                note: note.map { $0.isEmpty ? nil : $0 } == workout.note ? nil : note,
                name: name == workout.name ? nil : name)
            return Decision(
                stream: workout.id, expectedVersion: try snapshot.expectedVersion(of: workout.id),
                events: edit == WorkoutEdited() ? [] : [edit], result: edit != WorkoutEdited())
        }
    }

    /// Deletes a finished workout: a tombstone event; its events stay in the journal.
    public func deleteWorkout(_ reference: String, reason: String? = nil) async throws {
        try await execute { snapshot, _ in
            let workout = try workout(reference, in: snapshot)
            guard !workout.isDeleted else {
                throw TrainingError(
                    .alreadyDone, "\(workout.id) is already deleted", remedy: "restore brings it back")
            }
            guard !workout.isActive else {
                throw TrainingError(
                    .notAllowed, "\(workout.id) is in progress", remedy: "discard it with liftledger discard")
            }
            guard workout.finishedAt != nil else {
                throw TrainingError(
                    .notAllowed, "\(workout.id) is discarded", remedy: "only finished workouts can be deleted")
            }
            return Decision(
                stream: workout.id, expectedVersion: try snapshot.expectedVersion(of: workout.id),
                events: [WorkoutDeleted(reason: reason)],
                result: ())
        }
    }

    /// What ``restoreWorkout(_:)`` did.
    public enum Restoration: Sendable, Equatable {
        /// A deleted workout counts again, as before its deletion.
        case undeleted
        /// A discarded workout was finished, as `finish --at last` would have: it joins the history.
        case finished(at: Timestamp)
    }

    /// The workouts ``restoreWorkout(_:)`` brings back, the latest started first. It reads every workout's events, as
    /// no read model keeps those that do not count.
    public func restorableWorkouts() throws -> [Workout] {
        try query { snapshot in
            try snapshot.everyWorkout().filter(\.isRestorable).sorted { ($0.startedAt, $0.id) > ($1.startedAt, $1.id) }
        }
    }

    /// Brings back a deleted workout, or a discarded one with sets, which is finished when `finish --at last` would
    /// have finished it as it was discarded: a `WorkoutRestored`, which happens now.
    public func restoreWorkout(_ reference: String) async throws -> Restoration {
        try await execute { snapshot, _ in
            let workout: Workout
            do {
                workout = try self.workout(reference, in: snapshot)
            } catch let error as TrainingError where error.code == .notFound {
                throw TrainingError(
                    .notFound, "no workout \(reference)",
                    remedy: "see the workouts it brings back with liftledger restore (no workout given)")
            }
            let expectedVersion = try snapshot.expectedVersion(of: workout.id)
            switch workout.status {
            // It may be deleted too (`delete` took discarded workouts once): the one event undoes both.
            case .discarded(let discardedAt):
                guard !workout.countedSets.isEmpty else {
                    throw TrainingError(
                        .notAllowed,
                        "\(workout.id) was discarded with "
                            + (workout.sets.isEmpty
                                ? "no sets" : "none of its sets left (removed, or their exercise taken out)"),
                        remedy: "there is nothing to restore")
                }
                // A rest timer the discard closed was still running then.
                let rest = workout.rest.flatMap { $0.closedAt == discardedAt ? $0 : nil }
                let end = min(workout.endAsOfLastSet(runningRest: rest), discardedAt)
                return Decision(
                    stream: workout.id, expectedVersion: expectedVersion, events: [WorkoutRestored(finishedAt: end)],
                    result: .finished(at: end))
            case .finished where workout.isDeleted:
                return Decision(
                    stream: workout.id, expectedVersion: expectedVersion, events: [WorkoutRestored()],
                    result: .undeleted)
            case .finished:
                throw TrainingError(
                    .alreadyDone, "\(workout.id) is in the history already",
                    remedy: "only a deleted or discarded workout can be restored")
            // Deleted in progress, it has no end to be restored with (no command deletes one in progress).
            case .active:
                throw TrainingError(
                    .notAllowed, "\(workout.id) \(workout.isDeleted ? "was deleted while" : "is") in progress",
                    remedy: "only a deleted or discarded workout can be restored")
            }
        }
    }

    static func set(_ number: UInt32, of workout: Workout) throws -> LoggedSet {
        guard let set = workout.sets.first(where: { $0.number == number }), !set.isRemoved else {
            let numbers = workout.sets.filter { !$0.isRemoved }.map(\.number)
            throw TrainingError(
                .notFound, "\(workout.id) has no set \(number)",
                remedy: numbers.isEmpty ? "it has no sets" : "its sets are \(runs(numbers))")
        }
        return set
    }

    /// Increasing numbers, each run of three or more consecutive ones as its ends: `1 to 12, 14, 15, 17 to 58`.
    static func runs(_ numbers: [UInt32]) -> String {
        var runs: [ClosedRange<UInt32>] = []
        for number in numbers {
            if let last = runs.last, last.upperBound &+ 1 == number {
                runs[runs.count - 1] = last.lowerBound...number
            } else {
                runs.append(number...number)
            }
        }
        return runs.map { run in
            run.count < 3 ? run.map(String.init).joined(separator: ", ") : "\(run.lowerBound) to \(run.upperBound)"
        }.joined(separator: ", ")
    }
}
