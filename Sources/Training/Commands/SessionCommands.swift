import EventJournal
import Foundation

/// What to log: the set and how it is to be checked.
public struct SetRequest: Sendable {
    public var exercise: String
    public var weight: Weight?
    public var reps: UInt32
    public var kind: SetKind
    public var rpe: RPE?
    public var note: String?
    /// Accept a weight more than five times the previous one for the exercise, or more than 100 reps with a weight.
    public var confirmed: Bool
    /// A finished workout to add the set to, instead of the one in progress.
    public var workout: String?
    /// How long the set lasted (a plank, a run), in seconds: 1 to a week.
    public var durationSeconds: UInt32?
    /// How far the set went, in metres: more than none, at most 1,000 km.
    public var distanceMeters: ExactDecimal?
    /// Log into the workout in progress even when it is stale (idle past the rule `session.stale-after`).
    public var continuesStale: Bool
    /// After a set in the workout in progress, start the rest timer its routine gives the exercise, if it has one.
    public var startsRoutineRest: Bool

    public init(
        exercise: String, weight: Weight?, reps: UInt32, kind: SetKind = .normal, rpe: RPE? = nil,
        note: String? = nil, confirmed: Bool = false, workout: String? = nil, durationSeconds: UInt32? = nil,
        distanceMeters: ExactDecimal? = nil, continuesStale: Bool = false, startsRoutineRest: Bool = false
    ) {
        self.exercise = exercise
        self.weight = weight
        self.reps = reps
        self.kind = kind
        self.rpe = rpe
        self.note = note
        self.confirmed = confirmed
        self.workout = workout
        self.durationSeconds = durationSeconds
        self.distanceMeters = distanceMeters
        self.continuesStale = continuesStale
        self.startsRoutineRest = startsRoutineRest
    }
}

/// A set logged: its number in the workout, and the rest timer it started, if any.
public struct SetLogOutcome: Sendable, Equatable {
    public let number: UInt32
    /// The seconds of the routine's rest that the set started (see ``SetRequest/startsRoutineRest``).
    public let restSeconds: UInt32?

    public init(number: UInt32, restSeconds: UInt32? = nil) {
        self.number = number
        self.restSeconds = restSeconds
    }
}

extension TrainingLog {
    /// Starts a workout, following `routine` (its exercises are added in order) if one is named.
    @discardableResult
    public func start(routine routineName: String? = nil, name: String? = nil) async throws -> String {
        try Self.requireText(name, "a workout's name")
        return try await execute { snapshot, now in
            if let active = try snapshot.activeWorkout() {
                guard Self.isStale(active, snapshot, at: now) else {
                    throw TrainingError(
                        .workoutInProgress, "\(active.id) (\(active.name)) is still in progress",
                        remedy: "finish it with liftledger finish, or discard it with liftledger discard")
                }
                throw Self.staleError(active, snapshot, "is still in progress", then: "")
            }
            var events: [any TrainingEventPayload] = []
            var routine: Routine?
            if let routineName {
                guard let found = try snapshot.routine(named: routineName) else {
                    let known = try snapshot.routines().map(\.name)
                    throw TrainingError(
                        .notFound, "no routine \"\(routineName)\"",
                        remedy: known.isEmpty
                            ? "create one with liftledger routine add NAME EXERCISE"
                            : "the routines are: \(known.joined(separator: ", "))")
                }
                routine = found
            }
            events.append(WorkoutStarted(name: name ?? routine?.name ?? "Workout", routineId: routine?.id))
            for exercise in routine?.exercises ?? [] {
                events.append(ExerciseAdded(exerciseId: exercise.exerciseId, exerciseName: exercise.exerciseName))
            }
            let stream = try snapshot.nextWorkoutStream()
            return Decision(stream: stream, expectedVersion: .noStream, events: events, result: stream)
        }
    }

    /// Adds an exercise to the workout in progress.
    public func addExercise(_ name: String) async throws {
        try await execute { snapshot, now in
            let workout = try freshActiveWorkout(snapshot, at: now)
            let exercise = try exercise(name, in: snapshot)
            guard !workout.exercises.contains(where: { $0.exerciseId == exercise.id }) else {
                throw TrainingError(
                    .alreadyDone, "\(exercise.name) is already in the workout",
                    remedy: "log its sets with liftledger log \(Shell.word(exercise.name)) WEIGHT x REPS")
            }
            return Decision(
                stream: workout.id, expectedVersion: try snapshot.expectedVersion(of: workout.id),
                events: [ExerciseAdded(exerciseId: exercise.id, exerciseName: exercise.name)], result: ())
        }
    }

    /// Logs a set in the workout in progress (or, with `request.workout`, in a finished one), adding the exercise
    /// to the workout first if it is not there yet; then, when asked, starts the routine's rest for the exercise.
    @discardableResult
    public func logSet(_ request: SetRequest) async throws -> SetLogOutcome {
        if let weight = request.weight {
            // Through the same checks as typed input: non-negative and at most the plausible maximum.
            _ = try SetEntry.weight(weight.value.description, unit: weight.unit)
        }
        _ = try SetEntry.reps(String(request.reps))
        try TimeAndDistance.check(seconds: request.durationSeconds, metres: request.distanceMeters)
        return try await execute { snapshot, now in
            let workout: Workout
            if let reference = request.workout {
                workout = try self.workout(reference, in: snapshot)
                guard !workout.isDeleted, workout.finishedAt != nil || workout.isActive else {
                    throw TrainingError(
                        .notAllowed, "\(workout.id) was \(workout.isDeleted ? "deleted" : "discarded")",
                        remedy: workout.remedyWhenGone("log into another workout"))
                }
            } else if let active = try snapshot.activeWorkout() {
                workout = active
            } else {
                throw TrainingError(
                    .noActiveWorkout, "no workout in progress",
                    remedy: "start one with liftledger start [ROUTINE], or add the set to a finished workout with "
                        + "--workout N (see liftledger history)")
            }
            // Today's set in a workout left running for days would join it, and make it look fresh.
            if !request.continuesStale {
                try Self.requireNotStale(
                    workout, snapshot, at: now, then: " and start another, or log into it anyway with --continue")
            }
            let exercise = try exercise(request.exercise, in: snapshot)
            try Self.checkOutlier(
                request.weight, confirmed: request.confirmed, exercise: exercise,
                previous: snapshot.previousWeight(of: exercise.id, in: workout))
            try Self.checkSwapped(request.weight, reps: request.reps, confirmed: request.confirmed, exercise: exercise)
            let at = workout.isActive ? Self.eventTime(in: workout, now: now) : now
            var events: [any TrainingEventPayload] = []
            // A set logged is training: a paused clock runs again, or the time the set took would not count.
            if workout.isActive, workout.pausedAt != nil { events.append(WorkoutResumed()) }
            if workout.isActive { events += Self.closingRest(of: workout, at: at) }
            if !workout.exercises.contains(where: { $0.exerciseId == exercise.id }) {
                events.append(ExerciseAdded(exerciseId: exercise.id, exerciseName: exercise.name))
            }
            let number = (workout.sets.map(\.number).max() ?? 0) + 1
            let details = SetDetails(
                exerciseId: exercise.id, weight: request.weight, reps: request.reps, kind: request.kind,
                rpe: request.rpe, note: request.note.flatMap { $0.isEmpty ? nil : $0 },
                durationSeconds: request.durationSeconds, distanceMeters: request.distanceMeters)
            events.append(SetLogged(setNumber: number, set: details))
            // The rest between sets that the routine gives the exercise, from the set on, as the apps start theirs:
            // from the set's time, which a clock set back keeps after the workout's last activity (`rest N` counts
            // from now).
            var restSeconds: UInt32?
            if request.startsRoutineRest, workout.isActive,
                let target = try workout.routineId.flatMap({ try snapshot.routine(id: $0) })?.exercises.first(where: {
                    $0.exerciseId == exercise.id
                }), target.restSeconds > 0
            {
                restSeconds = target.restSeconds
                let endsAt = Timestamp(
                    microsecondsSinceEpoch: at.microsecondsSinceEpoch + Int64(target.restSeconds) * 1_000_000)
                events.append(RestTimerStarted(durationSeconds: target.restSeconds, endsAt: endsAt, afterSet: number))
            }
            return Decision(
                stream: workout.id, expectedVersion: try snapshot.expectedVersion(of: workout.id), events: events,
                result: SetLogOutcome(number: number, restSeconds: restSeconds), occurredAt: at)
        }
    }

    /// A weight more than five times the last one logged for the exercise needs confirming: it is more often a typo
    /// (or the wrong unit) than a real jump.
    /// `comparedWith` names what `previous` is: by default, the last working set with a weight (the comparison passes
    /// over warm-ups and sets of no weight, such as 0 kg of help).
    static func checkOutlier(
        _ weight: Weight?, confirmed: Bool, exercise: Exercise, previous: Weight?,
        comparedWith: String = "the last working set with a weight"
    ) throws {
        guard !confirmed, let weight, let previous, previous.milligrams > 0,
            weight.milligrams > 5 * previous.milligrams
        else { return }
        throw TrainingError(
            .needsConfirmation,
            "\(weight) of \(exercise.name) is more than five times \(comparedWith) (\(previous))",
            remedy: "check the number and the unit; if it is right, add --confirm")
    }

    /// A set with a weight and more than ``mostRepsUnconfirmed`` reps needs confirming: it is more often the weight
    /// and the reps given the other way round (`5 x 225`) than such a set.
    static func checkSwapped(_ weight: Weight?, reps: UInt32, confirmed: Bool, exercise: Exercise) throws {
        guard !confirmed, let weight, weight.milligrams > 0, reps > mostRepsUnconfirmed else { return }
        throw TrainingError(
            .needsConfirmation,
            "\(reps) reps of \(exercise.name) with \(weight): the weight and the reps may be the other way round",
            remedy: "give the weight first, then the reps; if it is right, add --confirm")
    }

    /// The most reps of a set with a weight logged without `--confirm`.
    static let mostRepsUnconfirmed: UInt32 = 100

    /// Starts a rest timer of `seconds` (replacing one that runs).
    public func startRest(seconds: UInt32) async throws {
        guard (1...3_600).contains(seconds) else {
            throw TrainingError(.invalidValue, "a rest of \(seconds) s", remedy: "give 1 to 3600 seconds")
        }
        try await execute { snapshot, now in
            let workout = try freshActiveWorkout(snapshot, at: now)
            let endsAt = Timestamp(microsecondsSinceEpoch: now.microsecondsSinceEpoch + Int64(seconds) * 1_000_000)
            let events =
                Self.closingRest(of: workout, at: now)
                + [RestTimerStarted(durationSeconds: seconds, endsAt: endsAt, afterSet: workout.lastCountedSet?.number)]
            return Decision(
                stream: workout.id, expectedVersion: try snapshot.expectedVersion(of: workout.id), events: events,
                result: ())
        }
    }

    /// Moves the running rest timer's end by `seconds` (negative to shorten it).
    /// Returns the whole seconds left then (0 when a negative `seconds` ends the rest now). A rest is left at most
    /// 3600 seconds, as one is started with at most.
    @discardableResult
    public func extendRest(by seconds: Int32) async throws -> Int64 {
        try await execute { snapshot, now in
            let workout = try freshActiveWorkout(snapshot, at: now)
            guard let rest = workout.rest, rest.isOpen, now < rest.endsAt else {
                throw Self.noRestRunning(
                    workout.rest, zone: snapshot.rules.timeZone, remedy: "start one with liftledger rest",
                    whenRanOut: "start another with liftledger rest")
            }
            let endsAt = Timestamp(
                microsecondsSinceEpoch: rest.endsAt.microsecondsSinceEpoch + Int64(seconds) * 1_000_000)
            // Shortened past now, the rest is over: skipped, rather than recorded as shortened by more than was left.
            guard endsAt > now else {
                return Decision(
                    stream: workout.id, expectedVersion: try snapshot.expectedVersion(of: workout.id),
                    events: [RestTimerSkipped()], result: 0)
            }
            // Rounded up, as the session's rest shows it (``RestTimer/remainingSeconds(at:)``).
            let left = (endsAt.microsecondsSinceEpoch - now.microsecondsSinceEpoch + 999_999) / 1_000_000
            guard left <= 3_600 else {
                let room = 3_600 - rest.remainingSeconds(at: now)
                throw TrainingError(
                    .invalidValue, "the rest would then have \(left) s left, more than an hour",
                    remedy: "extend it by at most \(room) s")
            }
            return Decision(
                stream: workout.id, expectedVersion: try snapshot.expectedVersion(of: workout.id),
                events: [RestTimerExtended(bySeconds: seconds, endsAt: endsAt)], result: left)
        }
    }

    /// Stops the running rest timer.
    public func skipRest() async throws {
        try await execute { snapshot, now in
            let workout = try freshActiveWorkout(snapshot, at: now)
            guard let rest = workout.rest, rest.isOpen, now < rest.endsAt else {
                // No rest to skip is what skipping asks for.
                throw Self.noRestRunning(
                    workout.rest, zone: snapshot.rules.timeZone, code: .alreadyDone, remedy: "nothing to skip",
                    whenRanOut: "nothing to skip; the next set closes it")
            }
            return Decision(
                stream: workout.id, expectedVersion: try snapshot.expectedVersion(of: workout.id),
                events: [RestTimerSkipped()],
                result: ())
        }
    }

    /// The refusal of a change to a rest timer that is not running: none, one ended, or one that ran out, which
    /// `status` still shows (`rest: over, go`) until the next set closes it.
    static func noRestRunning(
        _ rest: RestTimer?, zone: TimeZone, code: TrainingError.Code = .notAllowed, remedy: String,
        whenRanOut ranOutRemedy: String
    ) -> TrainingError {
        guard let rest, rest.isOpen else {
            return TrainingError(code, "no rest timer is running", remedy: remedy)
        }
        return TrainingError(code, "the rest timer ran out at \(rest.endsAt.localText(in: zone))", remedy: ranOutRemedy)
    }

    /// Stops the workout's clock.
    public func pause() async throws {
        try await execute { snapshot, now in
            let workout = try freshActiveWorkout(snapshot, at: now)
            guard workout.pausedAt == nil else {
                throw TrainingError(
                    .alreadyDone, "the workout is already paused", remedy: "resume it with liftledger resume")
            }
            let at = Self.eventTime(in: workout, now: now)
            return Decision(
                stream: workout.id, expectedVersion: try snapshot.expectedVersion(of: workout.id),
                events: [WorkoutPaused()], result: (), occurredAt: at)
        }
    }

    /// Restarts the workout's clock.
    ///
    /// A workout paused past the rule `session.stale-after` is refused, as any change to a stale workout is, unless
    /// `continuesStale`: the lifter is back at it.
    public func resume(continuesStale: Bool = false) async throws {
        try await execute { snapshot, now in
            let workout = try activeWorkout(snapshot)
            if !continuesStale {
                try Self.requireNotStale(
                    workout, snapshot, at: now, then: " first, or resume it anyway with liftledger resume --continue")
            }
            guard workout.pausedAt != nil else {
                throw TrainingError(
                    .alreadyDone, "the workout is not paused: its clock runs", remedy: "pause it with liftledger pause")
            }
            let at = Self.eventTime(in: workout, now: now)
            return Decision(
                stream: workout.id, expectedVersion: try snapshot.expectedVersion(of: workout.id),
                events: [WorkoutResumed()], result: (), occurredAt: at)
        }
    }

    /// Whether the workout in progress has stood idle past the rule `session.stale-after` at `now`.
    static func isStale(_ workout: Workout, _ snapshot: TrainingSnapshot, at now: Timestamp) -> Bool {
        workout.isIdle(longerThan: snapshot.rules.staleAfterSeconds, at: now)
    }

    /// When what is done now to the workout in progress happened: now, or, with the clock set back (by hand, or to a
    /// wrong time) before the workout's last event, that event's time, so that nothing in it comes before its start
    /// (a pause begun before the start took the whole workout out of its time trained).
    static func eventTime(in workout: Workout, now: Timestamp) -> Timestamp { max(now, workout.lastActivityAt) }

    /// The refusal of work on a stale workout: `state`, since when, and `status`'s choices (finish it as of its last
    /// set, or discard it; one with no sets only the latter), followed by `then`.
    static func staleError(
        _ workout: Workout, _ snapshot: TrainingSnapshot, _ state: String, then: String
    ) -> TrainingError {
        let since = workout.lastActivityAt.localText(in: snapshot.rules.timeZone)
        return TrainingError(
            .workoutInProgress,
            "\(workout.id) (\(workout.name)) \(state): nothing done in it since \(since), past the rule session.stale-after",
            remedy: (workout.countedSets.isEmpty
                ? "it has no sets: discard it (liftledger discard)"
                : "finish it as of its last set (liftledger finish --at last) or discard it (liftledger discard)")
                + then)
    }

    /// When a workout is finished.
    public enum FinishTime: Sendable, Equatable {
        /// As the command runs.
        case now
        /// When its last set was logged (its start, with none), or, if later, its last pause ended or its rest timer
        /// still running was started or last moved: for one left running, the idle hours after it left out, whatever
        /// was corrected since.
        case lastSet
        /// At an instant from then to now; for a local time the clocks pass twice, going back, its first pass, unless
        /// that is before the last set and the second is not (as an import reads an end before its start).
        case at(Timestamp, orSecondPass: Timestamp? = nil)
    }

    /// Ends the workout in progress, `at` now or earlier; it joins the history. Returns its id.
    @discardableResult
    public func finish(note: String? = nil, at time: FinishTime = .now) async throws -> String {
        try await execute { snapshot, now in
            let workout = try activeWorkout(snapshot)
            // A workout of no sets is no training: finished, it would count as a day trained and in the streaks.
            guard !workout.countedSets.isEmpty else {
                throw TrainingError(
                    .notAllowed, "\(workout.id) has no sets",
                    remedy: "log a set first, or discard it (liftledger discard)")
            }
            // Not before a pause ended: its time, all of it, is out of the time trained already.
            let lastSet = workout.lastSetOrResume
            let end: Timestamp
            switch time {
            // Finished now, one left running for days would count the days (paused, it counts none of them).
            case .now where workout.pausedAt == nil && Self.isStale(workout, snapshot, at: now):
                throw Self.staleError(
                    workout, snapshot, "has stood idle",
                    then: ", or give the time it ended with --at (now counts the idle time)")
            // A clock set back since the last set (by hand, or to a wrong time) would end the workout before it.
            case .now: end = max(now, lastSet)
            // A rest timer still running was started (or moved) after the last set: the finish that closes it is not
            // dated before it began.
            case .lastSet:
                end = min(workout.endAsOfLastSet(runningRest: workout.rest.flatMap { $0.isOpen ? $0 : nil }), now)
            case .at(let given, let secondPass):
                let instant = given < lastSet ? secondPass.flatMap { lastSet <= $0 ? $0 : nil } ?? given : given
                guard lastSet <= instant, instant <= now else {
                    // In the profile's zone, the one --at reads a local time in; the earliest given to the second
                    // that is not before the last set (logged within a second, 09:10:00.32 is 09:10:01).
                    let zone = snapshot.rules.timeZone
                    let earliest = Timestamp(
                        microsecondsSinceEpoch: -(-lastSet.microsecondsSinceEpoch).dividedRoundingDown(by: 1_000_000)
                            * 1_000_000)
                    throw TrainingError(
                        .invalidValue,
                        "a finish at \(instant.localText(in: zone)) is "
                            + (instant > now
                                ? "in the future" : "before the workout's last set or its last pause's end"),
                        // Nothing to give when the last set was in this very second.
                        remedy: earliest > now
                            ? "finish now (leave --at out), or give --at last"
                            : "give a time from \(earliest.localText(in: zone)) (\(zone.identifier)) to now, or --at last"
                    )
                }
                end = instant
            }
            let events = Self.closingRest(of: workout, at: end) + [WorkoutFinished(note: note)]
            return Decision(
                stream: workout.id, expectedVersion: try snapshot.expectedVersion(of: workout.id), events: events,
                result: workout.id, occurredAt: end == now ? nil : end)
        }
    }

    /// Ends the workout in progress without keeping it in the history. Returns its id.
    @discardableResult
    public func discard() async throws -> String {
        try await execute { snapshot, _ in
            let workout = try activeWorkout(snapshot)
            return Decision(
                stream: workout.id, expectedVersion: try snapshot.expectedVersion(of: workout.id),
                events: [WorkoutDiscarded()],
                result: workout.id)
        }
    }

    /// The session in progress as it stands at `now` (the clock's time by default), or nil. A session idle for longer
    /// than `staleAfterSeconds` (by default the rule `session.stale-after`) is shown as stale.
    public func activeSession(at now: Timestamp? = nil, staleAfterSeconds: Int64? = nil) throws -> ActiveSession? {
        try query { snapshot in
            guard let workout = try snapshot.activeWorkout() else { return nil }
            return try ActiveSession(
                workout: workout, snapshot: snapshot, now: now ?? clock(),
                staleAfterSeconds: staleAfterSeconds ?? snapshot.rules.staleAfterSeconds)
        }
    }
}
