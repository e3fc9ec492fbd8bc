import EventJournal

/// A workout as its stream's events leave it.
public struct Workout: Sendable {
    public enum Status: Sendable, Equatable {
        case active
        case finished(at: Timestamp)
        case discarded(at: Timestamp)
    }

    /// The stream id, `workout-<number>`.
    public let id: String
    public internal(set) var name: String
    public internal(set) var routineId: String?
    public internal(set) var startedAt: Timestamp
    public internal(set) var status: Status = .active
    public internal(set) var isDeleted = false
    public internal(set) var note: String?
    /// When the current pause began; nil while the clock runs.
    public internal(set) var pausedAt: Timestamp?
    /// Microseconds spent in pauses that have ended.
    public internal(set) var pausedMicroseconds: Int64 = 0
    /// When the last pause ended, if one has: a finish before it would leave that pause out of the time trained.
    public internal(set) var resumedAt: Timestamp?
    /// The exercises in order (removed ones left out).
    public internal(set) var exercises: [WorkoutExercise] = []
    /// Every set ever logged, by set number; removed ones are marked.
    public internal(set) var sets: [LoggedSet] = []
    public internal(set) var rest: RestTimer?
    /// The time of the stream's last event.
    public internal(set) var lastActivityAt: Timestamp
    /// When the journal recorded the start (an imported workout started long before), or a new date for it.
    public internal(set) var startRecordedAt: Timestamp
    /// The position of the `WorkoutFinished` event, once finished (or of the `WorkoutRestored` that finished it after
    /// it was discarded).
    public internal(set) var finishedPosition: UInt64?
    /// The position of the last `WorkoutRestored` of a deleted workout, for `why` to name; a workout in progress read
    /// from its `workouts` row has none (it was never deleted).
    public internal(set) var restoredPosition: UInt64?
    /// The position of the last `WorkoutEdited` that moved the start, for `why` to name; a workout in progress read
    /// from its `workouts` row has none (the row has no room for it).
    public internal(set) var startMovedPosition: UInt64?
    /// By exercise, the position of the last event after the finish that changed its sets (logged one late, corrected,
    /// moved or removed one, or moved the workout's date, which decides whether they are plausible) or added or removed
    /// it: as of the later of it and the finish, its session stands. Events before the finish are not noted (the finish
    /// comes after them), so a workout in progress keeps none, and its `workouts` row has no room for them.
    public internal(set) var changesAfterFinish: [String: UInt64] = [:]

    init(id: String, started: WorkoutStarted, at time: Timestamp, recordedAt: Timestamp) {
        self.id = id
        name = started.name
        routineId = started.routineId
        startedAt = time
        lastActivityAt = time
        startRecordedAt = recordedAt
    }

    /// The number in `workout-<number>`, if the id has that form.
    public var number: UInt64? { Workout.number(inStreamID: id) }

    public var isActive: Bool { status == .active && !isDeleted }

    /// Whether it counts in history, records and the other analytics: finished and not deleted.
    public var counts: Bool { finishedAt != nil && !isDeleted }

    /// Whether `restore` brings it back: discarded with sets, or deleted once finished.
    public var isRestorable: Bool {
        switch status {
        case .discarded: !countedSets.isEmpty
        case .finished: isDeleted
        case .active: false
        }
    }

    /// The earliest it may end: its last counted set (its start, with none), or, if later, the end of its last pause.
    var lastSetOrResume: Timestamp {
        max(countedSets.map(\.loggedAt).max() ?? startedAt, resumedAt ?? startedAt)
    }

    /// When `finish --at last` ends it: ``lastSetOrResume``, or, if later, the start or last change of `runningRest`,
    /// a rest timer still running then.
    func endAsOfLastSet(runningRest: RestTimer?) -> Timestamp {
        max(lastSetOrResume, runningRest?.changedAt ?? lastSetOrResume)
    }

    /// What to do instead of a change that a deleted or discarded workout refuses: restore it first, or `otherwise`.
    func remedyWhenGone(_ otherwise: String) -> String {
        isRestorable ? "bring it back first (liftledger restore \(id)), or \(otherwise)" : otherwise
    }

    public var finishedAt: Timestamp? {
        if case .finished(let time) = status { return time }
        return nil
    }

    /// Sets that count: not removed, and of an exercise still in the workout.
    public var countedSets: [LoggedSet] { sets.filter { countedExerciseIndex(of: $0) != nil } }

    /// The last set that counts: what a rest follows.
    public var lastCountedSet: LoggedSet? { sets.last { countedExerciseIndex(of: $0) != nil } }

    /// The index of a counted set's exercise among the workout's exercises; nil for a set that does not count.
    func countedExerciseIndex(of set: LoggedSet) -> Int? {
        set.isRemoved ? nil : exerciseIndex(of: set.details.exerciseId)
    }

    /// The exercise's index among the workout's exercises; nil when it is not one of them. A workout holds a handful
    /// of exercises, which a scan finds sooner than a hash would.
    func exerciseIndex(of exerciseId: String) -> Int? {
        exercises.firstIndex { $0.exerciseId == exerciseId }
    }

    /// Time spent training up to `now` (or to the finish), pauses left out, in microseconds.
    public func elapsedMicroseconds(at now: Timestamp) -> Int64 {
        let end = finishedAt ?? pausedAt ?? now
        return max(0, end.microsecondsSinceEpoch - startedAt.microsecondsSinceEpoch - pausedMicroseconds)
    }

    /// Notes, once the workout is finished, that an event at `position` changed the exercise's session.
    private mutating func noteChangeAfterFinish(of exerciseId: String, at position: UInt64) {
        guard finishedPosition != nil else { return }
        changesAfterFinish[exerciseId] = position
    }

    public static func streamID(number: UInt64) -> String { "workout-\(number)" }

    /// The stream id a reference names: a number (`7`) or an id (`workout-7`).
    public static func streamID(reference: String) -> String { UInt64(reference).map(streamID(number:)) ?? reference }

    public static func number(inStreamID id: String) -> UInt64? {
        guard id.hasPrefix("workout-") else { return nil }
        return UInt64(id.dropFirst("workout-".count))
    }

    /// Whether nothing was logged in it for longer than `seconds` before `now` (an age past what microseconds since
    /// 1970 can hold is never reached): in progress, it is stale past the rule `session.stale-after`.
    public func isIdle(longerThan seconds: Int64, at now: Timestamp) -> Bool {
        let (limit, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000)
        return !overflow && now.microsecondsSinceEpoch - lastActivityAt.microsecondsSinceEpoch > limit
    }

    /// Applies one of the stream's events, which occurred at `time` and is stored at `position`.
    mutating func apply(_ event: TrainingEvent, at time: Timestamp, position: UInt64) {
        lastActivityAt = max(lastActivityAt, time)
        switch event {
        case .workoutPaused:
            if pausedAt == nil { pausedAt = time }
        case .workoutResumed:
            if pausedAt != nil { resumedAt = time }
            endPause(at: time)
        case .workoutFinished(let finished):
            endPause(at: time)
            if let note = finished.note, !note.isEmpty { self.note = note }
            status = .finished(at: time)
            finishedPosition = position
            rest?.close(at: time)
        case .workoutDiscarded:
            status = .discarded(at: time)
            rest?.close(at: time)
        case .workoutEdited(let edit):
            if let start = edit.startedAt {
                let shift = start.microsecondsSinceEpoch - startedAt.microsecondsSinceEpoch
                if shift != 0 { startMovedPosition = position }
                startedAt = start
                // The new date is recorded now: a workout moved later is dated after its first recording, not ahead.
                startRecordedAt = max(startRecordedAt, time)
                if case .finished(let end) = status {
                    status = .finished(at: Timestamp(microsecondsSinceEpoch: end.microsecondsSinceEpoch + shift))
                }
                sets = sets.map { $0.shifted(by: shift) }
                // A new date can make its sets plausible or not: every session may change.
                if shift != 0 {
                    for exercise in exercises { noteChangeAfterFinish(of: exercise.exerciseId, at: position) }
                }
            }
            // An empty note clears it.
            if let note = edit.note { self.note = note.isEmpty ? nil : note }
            if let name = edit.name { self.name = name }
        case .workoutDeleted:
            isDeleted = true
        case .workoutRestored(let restored):
            if isDeleted { restoredPosition = position }
            isDeleted = false
            if case .discarded = status, let end = restored.finishedAt {
                endPause(at: end)
                status = .finished(at: end)
                finishedPosition = position
            }
        case .exerciseAdded(let added):
            if !exercises.contains(where: { $0.exerciseId == added.exerciseId }) {
                exercises.append(WorkoutExercise(exerciseId: added.exerciseId, name: added.exerciseName))
                noteChangeAfterFinish(of: added.exerciseId, at: position)
            }
        case .exerciseRemoved(let removed):
            if let index = exerciseIndex(of: removed.exerciseId) {
                exercises.remove(at: index)
                noteChangeAfterFinish(of: removed.exerciseId, at: position)
            }
        case .exerciseMoved(let moved):
            guard let from = exercises.firstIndex(where: { $0.exerciseId == moved.exerciseId }) else { return }
            let exercise = exercises.remove(at: from)
            exercises.insert(exercise, at: min(Int(moved.toIndex), exercises.count))
        case .setLogged(let logged):
            // A workout's sets mostly number a few dozen: room for them at the first keeps the list from regrowing.
            if sets.capacity == 0 { sets.reserveCapacity(32) }
            sets.append(LoggedSet(number: logged.setNumber, details: logged.set, loggedAt: time, position: position))
            noteChangeAfterFinish(of: logged.set.exerciseId, at: position)
        case .setCorrected(let corrected):
            if let index = sets.firstIndex(where: { $0.number == corrected.setNumber }) {
                // The set may move to another exercise: both sessions change (none, for a set removed already).
                if !sets[index].isRemoved {
                    noteChangeAfterFinish(of: sets[index].details.exerciseId, at: position)
                    noteChangeAfterFinish(of: corrected.set.exerciseId, at: position)
                }
                sets[index].details = corrected.set
                sets[index].correctedAt = time
                sets[index].position = position
            }
        case .setRemoved(let removed):
            if let index = sets.firstIndex(where: { $0.number == removed.setNumber }), !sets[index].isRemoved {
                sets[index].isRemoved = true
                noteChangeAfterFinish(of: sets[index].details.exerciseId, at: position)
            }
        case .restTimerStarted(let started):
            rest = RestTimer(
                startedAt: time, durationSeconds: started.durationSeconds, endsAt: started.endsAt,
                afterSet: started.afterSet, changedAt: time)
        case .restTimerExtended(let extended):
            rest?.endsAt = extended.endsAt
            if let changed = rest?.changedAt { rest?.changedAt = max(changed, time) }
        case .restTimerSkipped:
            rest?.close(at: time)
        case .restTimerFinished(let finished):
            rest?.close(at: finished.endedAt)
        default:
            break
        }
    }

    private mutating func endPause(at time: Timestamp) {
        guard let pausedAt else { return }
        pausedMicroseconds += max(0, time.microsecondsSinceEpoch - pausedAt.microsecondsSinceEpoch)
        self.pausedAt = nil
    }
}

/// An exercise in a workout.
public struct WorkoutExercise: Sendable, Hashable {
    public let exerciseId: String
    /// The name it had when it was added.
    public let name: String
}

/// A set in a workout, as last corrected.
public struct LoggedSet: Sendable, Hashable {
    public let number: UInt32
    public internal(set) var details: SetDetails
    public internal(set) var loggedAt: Timestamp
    public internal(set) var correctedAt: Timestamp?
    public internal(set) var isRemoved = false
    /// The position of the event that gave the set its values: its `SetLogged`, or its last `SetCorrected`.
    public internal(set) var position: UInt64

    init(number: UInt32, details: SetDetails, loggedAt: Timestamp, position: UInt64) {
        self.number = number
        self.details = details
        self.loggedAt = loggedAt
        self.position = position
    }

    func shifted(by microseconds: Int64) -> LoggedSet {
        var copy = self
        copy.loggedAt = Timestamp(microsecondsSinceEpoch: loggedAt.microsecondsSinceEpoch + microseconds)
        return copy
    }
}

/// A rest timer: it runs until `endsAt` unless skipped; remaining time comes from the wall clock.
public struct RestTimer: Sendable, Hashable {
    public let startedAt: Timestamp
    public let durationSeconds: UInt32
    public internal(set) var endsAt: Timestamp
    public let afterSet: UInt32?
    /// When it was skipped or recorded as finished; nil while it runs.
    public internal(set) var closedAt: Timestamp?
    /// When it was started, or last extended or shortened.
    public internal(set) var changedAt: Timestamp

    /// True until skipped or recorded as finished (a timer past its end but not yet recorded is still running).
    public var isOpen: Bool { closedAt == nil }

    /// Whole seconds left at `now`, rounded up; 0 once the end has passed or the timer was closed.
    public func remainingSeconds(at now: Timestamp) -> Int64 {
        guard isOpen else { return 0 }
        let left = endsAt.microsecondsSinceEpoch - now.microsecondsSinceEpoch
        return left <= 0 ? 0 : (left + 999_999) / 1_000_000
    }

    mutating func close(at time: Timestamp) {
        if closedAt == nil { closedAt = time }
    }
}

extension Journal {
    /// Whether a record of a workout stream comes before `position`: the first workout's stream, `workout-1`, is the
    /// first made (later ones take the numbers after the highest), so its first record is the first of any.
    func hasWorkout(before position: UInt64) throws -> Bool {
        try readStream(Workout.streamID(number: 1), limit: 1).first.map { $0.position < position } ?? false
    }
}
