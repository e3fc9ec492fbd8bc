import EventJournal
import Foundation

/// The training commands: each checks the rules against the read models brought up to the journal's head, and
/// appends its events with the stream version of that same snapshot, so that two racing commands cannot both pass a
/// check meant for one. A refused command writes nothing and throws a `TrainingError`.
public final class TrainingLog: Sendable {
    public let journal: Journal
    public let readModels: TrainingReadModels
    let clock: @Sendable () -> Timestamp
    private let source: String

    /// `clock` is read once per command for the time of its events (tests inject one); `source` is recorded in each
    /// event's metadata.
    public init(
        journal: Journal, clock: @escaping @Sendable () -> Timestamp = { .now() }, source: String = "cli"
    )
        throws
    {
        self.journal = journal
        readModels = try TrainingReadModels(journal: journal)
        self.clock = clock
        self.source = source
    }

    /// Runs `body` on the read models brought up to date.
    public func query<T>(_ body: (TrainingSnapshot) throws -> T) throws -> T { try readModels.query(body) }

    /// What a command decided to append: events for one stream, at the version its checks saw.
    struct Decision<Result> {
        var stream: String
        var expectedVersion: ExpectedVersion
        var events: [any TrainingEventPayload]
        var result: Result
        /// When the events happened, if not now (a workout finished as of its last set).
        var occurredAt: Timestamp?
    }

    /// Refuses a name given as nothing but blanks (it would print as nothing), on more than one line, or longer than
    /// ``Exercise/maximumNameLength``.
    static func requireText(_ text: String?, _ what: String) throws(TrainingError) {
        guard let text else { return }
        if text.allSatisfy(\.isWhitespace) {
            throw TrainingError(.invalidValue, "\(what) cannot be empty", remedy: "give one, or leave the option out")
        }
        try requireOneLine(text, what)
        // As long as an exercise's or a routine's may be: tables print it whole.
        guard Exercise.fitsName(text) else {
            throw TrainingError(
                .invalidValue, "\(what) is at most \(Exercise.maximumNameLength) characters",
                remedy: "give a shorter one")
        }
    }

    /// Refuses a name with a line break or another control character: tables, CSV exports and messages print a name
    /// on one line.
    static func requireOneLine(_ text: String, _ what: String) throws(TrainingError) {
        guard text.holdsControlCharacters else { return }
        throw TrainingError(
            .invalidValue, "\(what) cannot hold a line break or another control character",
            remedy: "give it on one line")
    }

    /// Decides on a snapshot of read models that have folded every record, and appends; when another writer changed
    /// the stream in between, decides again on a new snapshot, so that the rules are checked against what is there.
    /// Read models that another process is rebuilding (after a rule change) are waited for, up to half a minute.
    func execute<Result>(_ decide: (TrainingSnapshot, Timestamp) throws -> Decision<Result>) async throws -> Result {
        // Before the read models are asked: they cannot be brought up to date there either.
        if journal.isReadOnly { throw JournalError.readOnly(journal.path) }
        var conflicts = 0
        while conflicts < 8 {
            // The time of the snapshot decided on, not of a wait for one.
            let (decision, now) = try await readModels.readCaughtUp { snapshot in
                let now = clock()
                return (try decide(snapshot, now), now)
            }
            guard !decision.events.isEmpty else { return decision.result }
            let metadata = EventMetadata(correlationID: UUID.timeOrdered().uuidString.lowercased(), source: source)
            let events = decision.events.map {
                $0.proposed(occurredAt: decision.occurredAt ?? now, metadata: metadata)
            }
            do {
                _ = try await journal.append(events, to: decision.stream, expectedVersion: decision.expectedVersion)
                return decision.result
            } catch let error as JournalError where error.code == .wrongExpectedVersion {
                conflicts += 1
                continue
            }
        }
        throw TrainingError(
            .contention, "other writers kept changing the same data", remedy: "run the command again")
    }

    // MARK: Looking things up

    /// The exercise `name` refers to (catalog or custom), or an error naming the closest ones.
    func exercise(_ name: String, in snapshot: TrainingSnapshot) throws -> Exercise {
        try snapshot.catalog().exercise(
            named: name,
            remedy:
                "see liftledger exercise list, or add it with liftledger exercise add \(Shell.word(name)) --primary "
                + "MUSCLE")
    }

    /// The workout a reference (`7`, `workout-7`) names.
    func workout(_ reference: String, in snapshot: TrainingSnapshot) throws -> Workout {
        let id = Workout.streamID(reference: reference)
        guard let workout = try snapshot.workout(id) else {
            throw TrainingError(
                .notFound, "no workout \(reference)", remedy: "see the workouts' numbers with liftledger history")
        }
        return workout
    }

    func activeWorkout(_ snapshot: TrainingSnapshot) throws -> Workout {
        guard let workout = try snapshot.activeWorkout() else {
            throw TrainingError(
                .noActiveWorkout, "no workout in progress", remedy: "start one with liftledger start [ROUTINE]")
        }
        return workout
    }

    /// The workout in progress, to change `now`: refused when it is stale (see ``requireNotStale(_:_:at:)``).
    func freshActiveWorkout(_ snapshot: TrainingSnapshot, at now: Timestamp) throws -> Workout {
        let workout = try activeWorkout(snapshot)
        try Self.requireNotStale(workout, snapshot, at: now)
        return workout
    }

    /// Refuses a change to `workout`, when it is in progress and stale (idle past the rule `session.stale-after`):
    /// any event would make it look fresh, and today's sets would then join it, or a finish count the idle days.
    static func requireNotStale(
        _ workout: Workout, _ snapshot: TrainingSnapshot, at now: Timestamp,
        then: String = " first, or log a set into it with liftledger log --continue"
    ) throws {
        guard workout.isActive, isStale(workout, snapshot, at: now) else { return }
        throw staleError(workout, snapshot, "has stood idle", then: then)
    }

    /// The workout a set command applies to: the one named, else the one in progress, else the last finished one. A
    /// deleted or discarded workout is refused: it counts nowhere; so is the one in progress when it is stale.
    func targetWorkout(_ reference: String?, in snapshot: TrainingSnapshot, at now: Timestamp) throws -> Workout {
        if let reference {
            let workout = try workout(reference, in: snapshot)
            guard workout.isActive || workout.counts else {
                throw TrainingError(
                    .notAllowed, "\(workout.id) was \(workout.isDeleted ? "deleted" : "discarded")",
                    remedy: workout.remedyWhenGone("pick another workout"))
            }
            try Self.requireNotStale(workout, snapshot, at: now)
            return workout
        }
        if let active = try snapshot.activeWorkout() {
            try Self.requireNotStale(active, snapshot, at: now)
            return active
        }
        guard let last = try snapshot.lastCountedWorkout() else {
            throw TrainingError(.noActiveWorkout, "no workout to change", remedy: "start one with liftledger start")
        }
        return last
    }

    /// Events that close a rest timer left open: finished if its end has passed, else skipped.
    static func closingRest(of workout: Workout, at now: Timestamp) -> [any TrainingEventPayload] {
        guard let rest = workout.rest, rest.isOpen else { return [] }
        return rest.endsAt <= now ? [RestTimerFinished(endedAt: rest.endsAt)] : [RestTimerSkipped()]
    }
}
