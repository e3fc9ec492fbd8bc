import EventJournal
import Foundation
import Projections

/// The training read models as one read transaction sees them: what commands check their rules against and queries
/// answer from. Valid only inside the closure that received it.
public struct TrainingSnapshot {
    let snapshot: ReadModelSnapshot
    public let rules: Rules
    /// The journal, when the read models are kept beside it (nil for replayed ones).
    let journal: Journal?
    /// Where a finished workout's events are read.
    private let workoutEvents: any WorkoutEventSource
    private let plan: ReadModel?
    private let training: ReadModel?

    init(snapshot: ReadModelSnapshot, rules: Rules, journal: Journal?, workoutEvents: any WorkoutEventSource) throws {
        self.snapshot = snapshot
        self.rules = rules
        self.journal = journal
        self.workoutEvents = workoutEvents
        plan = try snapshot.model(PlanProjection.name)
        training = try snapshot.model(TrainingProjection.name)
    }

    func table(_ table: TrainingTable) -> ReadModelTable? { training?.table(table.rawValue) }
    func table(_ table: PlanTable) -> ReadModelTable? { plan?.table(table.rawValue) }

    /// The last position both read models have folded.
    public var position: UInt64 { min(plan?.checkpoint.position ?? 0, training?.checkpoint.position ?? 0) }

    /// Whether the training read model was built under `rules`, not under those before a change that another
    /// process's rebuild is to replace it for, and the read models by this code. A journal with nothing folded yet has
    /// none, under no other rules.
    func isBuilt(under rules: Rules) -> Bool {
        guard !isBuiltByOtherCode else { return false }
        guard let training else { return true }
        return training.checkpoint.rulesDigest == TrainingProjection(rules: rules, workoutEvents: nil).rulesDigest
    }

    /// Whether a read model was built by other code (another version of liftledger), whose rows this code does not
    /// read: another process is rebuilding it for its own code, and catching up left it to that process.
    var isBuiltByOtherCode: Bool {
        plan.map { $0.checkpoint.version != PlanProjection().version } == true
            || training.map { $0.checkpoint.version != TrainingProjection.codeVersion } == true
    }

    /// Whether the read models have folded every record the journal holds in this snapshot: commands decide only
    /// on such a snapshot, so that the expected versions they append with match the state they checked.
    public var isCaughtUp: Bool {
        get throws {
            guard let journal else { return true }
            // Rows of other code are no state to decide on: another process is rebuilding them for its own.
            return try !isBuiltByOtherCode && journal.headPosition(in: snapshot.transaction) == position
        }
    }

    /// What an append to `stream` must expect for the state of this snapshot.
    public func expectedVersion(of stream: String) throws -> ExpectedVersion {
        guard let journal else { return .any }
        let version = try journal.version(of: stream, in: snapshot.transaction)
        return version == 0 ? .noStream : .exact(version)
    }

    // MARK: The plan

    /// The profile's fields as recorded, merged (without body weights).
    public func profileFields() throws -> ProfileUpdated {
        try table(.profile)?.withValue(forKey: Array("profile".utf8)) { raw in
            try ReadModelRow.decode(raw, table: "profile") { bytes throws(PayloadError) in
                var reader = PayloadReader(bytes)
                return try ProfileUpdated(reading: &reader)
            }
        } ?? ProfileUpdated()
    }

    /// The profile and its body-weight entries.
    public func profile() throws -> Profile {
        var profile = Profile()
        profile.apply(.profileUpdated(try profileFields()), at: Timestamp(microsecondsSinceEpoch: 0))
        try table(.bodyWeights)?.scan { key, value in
            var reader = Key.Reader(key)
            let at = reader.instant()
            let weight = try ReadModelRow.decode(value, table: "body-weights") { bytes throws(PayloadError) in
                try Weight(reading: PayloadReader(bytes))
            }
            profile.bodyWeights.append((at, weight))
            return true
        }
        return profile
    }

    /// The routines, in the order they were created. A routine whose exercises were all taken out (`routine delete`)
    /// is none.
    public func routines() throws -> [Routine] {
        try everyRoutine().filter { !$0.exercises.isEmpty }
    }

    /// Every routine, those with no exercises left too, in the order they were made.
    private func everyRoutine() throws -> [Routine] {
        var stored: [StoredRoutine] = []
        try table(.routines)?.scan { _, value in
            stored.append(try ReadModelRow.decode(value, table: "routines", StoredRoutine.init(decoding:)))
            return true
        }
        return stored.sorted { $0.position < $1.position }.map(\.routine)
    }

    /// The routine a name or id refers to; with `includingDeleted`, also one whose exercises were all taken out, which
    /// past workouts may still name.
    public func routine(named name: String, includingDeleted: Bool = false) throws -> Routine? {
        // The id an older version gave a name with fullwidth letters first: a routine of it is that name's, though
        // another of the folded id may stand beside it.
        for id in [Routine.idBeforeWidthFolding(forName: name), Routine.id(forName: name)].compactMap({ $0 }) {
            if let routine = try routine(id: id), includingDeleted || !routine.exercises.isEmpty { return routine }
        }
        // One an older version made of the name in fullwidth letters, asked for in ASCII (`Legs` for `Ｌｅｇｓ`): its
        // id kept them, and its name folds to this one's id. Every routine is read for it, only when no id matches;
        // of several such, the first made.
        let folded = Routine.id(forName: name)
        return try everyRoutine().first { routine in
            routine.id != folded && Routine.id(forName: routine.name) == folded
                && (includingDeleted || !routine.exercises.isEmpty)
        }
    }

    /// The routine of `id`, as a workout names the one it was started from (with its exercises all taken out, it has
    /// none).
    public func routine(id: String) throws -> Routine? {
        // An id without a letter or a digit, or too long for a key, is no routine's.
        guard !id.isEmpty, id.utf8.count <= 500 else { return nil }
        return try table(.routines)?.withValue(forKey: Array(id.utf8)) { raw in
            try ReadModelRow.decode(raw, table: "routines", StoredRoutine.init(decoding:)).routine
        }
    }

    /// Every recorded schedule with the instant it was set, oldest first.
    public func scheduleHistory() throws -> [(setAt: Timestamp, schedule: Schedule)] {
        var history: [(Timestamp, Schedule)] = []
        try table(.schedules)?.scan { _, value in
            let (at, set) = try ReadModelRow.decode(value, table: "schedules") {
                bytes throws(PayloadError) -> (Timestamp, ScheduleSet) in
                var reader = PayloadReader(bytes)
                var at = Timestamp(microsecondsSinceEpoch: 0)
                var set: ScheduleSet?
                while let field = try reader.next() {
                    switch field.number {
                    case 1: at = try field.timestamp()
                    case 2:
                        var nested = try field.message()
                        set = try ScheduleSet(reading: &nested)
                    default: continue
                    }
                }
                guard let set else { throw PayloadError("a stored schedule lacks its payload") }
                return (at, set)
            }
            if let schedule = Schedule(set) { history.append((at, schedule)) }
            return true
        }
        return history
    }

    /// The schedule in force: the last one recorded, else Push/Pull/Legs.
    public func schedule() throws -> Schedule { try scheduleHistory().last?.schedule ?? .pushPullLegs }

    /// The custom exercises, in the order they were added.
    public func customExercises() throws -> [Exercise] {
        var found: [(UInt64, Exercise)] = []
        try table(PlanTable.exercises)?.scan { _, value in
            found.append(
                try ReadModelRow.decode(value, table: "exercises") { bytes throws(PayloadError) -> (UInt64, Exercise) in
                    var reader = PayloadReader(bytes)
                    var position: UInt64 = 0
                    var added: CustomExerciseAdded?
                    while let field = try reader.next() {
                        switch field.number {
                        case 1: position = try field.unsigned()
                        case 2:
                            var nested = try field.message()
                            added = try CustomExerciseAdded(reading: &nested)
                        default: continue
                        }
                    }
                    guard let added else { throw PayloadError("a stored custom exercise lacks its payload") }
                    return (position, added.exercise)
                })
            return true
        }
        return found.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// The bundled catalog with the custom exercises.
    public func catalog() throws -> ExerciseCatalog {
        try ExerciseCatalog.bundled().adding(customExercises())
    }

    // MARK: Workouts

    /// The workout with stream id `id`, in any state, as its events up to the read model's checkpoint leave it: rest
    /// timers' among them, which the fold passes over, so that a workout in progress has its rest timer.
    public func workout(_ id: String) throws -> Workout? {
        guard let training else { return nil }
        return Workout.replaying(
            id, try workoutEvents.events(of: id, before: training.checkpoint.position + 1, in: snapshot.transaction))
    }

    /// The workout in progress, if any (the one started last, should there be more).
    public func activeWorkout() throws -> Workout? {
        var newest: (position: UInt64, id: String)?
        try table(.meta)?.scan(prefix: Array("active/".utf8)) { key, value in
            let position = value.bigEndian(UInt64.self, at: 0)
            if newest.map({ $0.position < position }) ?? true {
                newest = (position, String(decoding: key.dropFirst("active/".utf8.count), as: UTF8.self))
            }
            return true
        }
        return try newest.flatMap { try workout($0.id) }
    }

    /// The counted workout that started last.
    public func lastCountedWorkout() throws -> Workout? {
        var last: String?
        try table(.history)?.scan(reverse: true) { _, value in
            last = try ReadModelRow.decode(value, table: "history", WorkoutSummary.init(decoding:)).workoutId
            return false
        }
        return try last.flatMap(workout)
    }

    /// Every workout folded so far, each worked out from its events: those that do not count (deleted, discarded) are in
    /// no read model, so this reads every workout's events.
    public func everyWorkout() throws -> [Workout] {
        let highest = try highestWorkoutNumber()
        guard highest > 0 else { return [] }
        return try (1...highest).compactMap { try workout(Workout.streamID(number: $0)) }
    }

    /// The highest workout number folded so far.
    public func highestWorkoutNumber() throws -> UInt64 {
        try table(.meta)?.withValue(forKey: Array("highest".utf8)) { $0.bigEndian(UInt64.self, at: 0) } ?? 0
    }

    /// The stream of the next workout: after the highest folded, and after any stream of that form another writer
    /// filled with records that are not training events.
    func nextWorkoutStream() throws -> String { try freeWorkoutStreams(1)[0] }

    /// The streams of the next `count` workouts, in order.
    public func freeWorkoutStreams(_ count: Int) throws -> [String] {
        var streams: [String] = []
        var number = try highestWorkoutNumber() + 1
        while streams.count < count {
            let stream = Workout.streamID(number: number)
            if try journal.map({ try $0.version(of: stream, in: snapshot.transaction) }) ?? 0 == 0 {
                streams.append(stream)
            }
            number += 1
        }
        return streams
    }

    // MARK: Sets and sessions by exercise

    /// The sessions of `exerciseId`: its figures in each counted workout, oldest first.
    public func sessions(of exerciseId: String) throws -> [SessionFact] {
        var sessions: [SessionFact] = []
        try table(.sessions)?.scan(prefix: Key().text(exerciseId).bytes) { key, value in
            sessions.append(
                try ReadModelRow.decode(key: key, value: value, table: "sessions", SessionFact.init(key:row:)))
            return true
        }
        return sessions
    }

    /// The ids of the exercises with counted sets.
    public func exercisesTrained() throws -> [String] {
        var ids: [String] = []
        try table(.recordState)?.scan { key, _ in
            ids.append(String(decoding: key, as: UTF8.self))
            return true
        }
        return ids
    }

    /// The sets of `exerciseId` in the most recent counted workout, other than `current`, that started no later
    /// than it (on a tie, the higher workout number) and had the exercise.
    public func lastTime(_ exerciseId: String, before current: Workout) throws -> LastTime? {
        var chosen: SessionFact?
        try table(.sessions)?.scan(prefix: Key().text(exerciseId).bytes, reverse: true) { key, value in
            let session = try ReadModelRow.decode(
                key: key, value: value, table: "sessions", SessionFact.init(key:row:))
            guard session.workoutId != current.id, session.startedAt <= current.startedAt else { return true }
            if let found = chosen {
                guard found.startedAt == session.startedAt else { return false }
                if (Workout.number(inStreamID: session.workoutId) ?? 0)
                    > (Workout.number(inStreamID: found.workoutId) ?? 0)
                {
                    chosen = session
                }
                return true
            }
            chosen = session
            return true
        }
        guard let chosen, let workout = try workout(chosen.workoutId) else { return nil }
        let sets = workout.countedSets.filter { $0.details.exerciseId == exerciseId }
        return LastTime(workoutId: workout.id, startedAt: workout.startedAt, sets: sets)
    }

    /// The weight of the last set of `exerciseId` that had one above 0, warm-ups left out (an empty bar says nothing
    /// of the working weight): in `workout` (the one being logged into), else in the other counted workouts, latest
    /// first. With `number`, the weight before that set of `workout` (one being corrected): of its sets logged before
    /// it, else of the counted workouts that started before it.
    /// The weight meant by set `number` of `workout`, when its number looks typed in the other unit: its weight is
    /// 2.2 times the exercise's weight before it, or a 2.2th, within 5%, as a pound figure taken as kilograms is (185
    /// after 82.5 kg). Nil otherwise, and for a set of no weight or no weight before it.
    public func weightMeantInTheOtherUnit(
        by number: UInt32, of workout: Workout
    ) throws -> (meant: Weight, previous: Weight)? {
        guard let set = workout.sets.last(where: { $0.number == number && !$0.isRemoved }),
            let weight = set.details.weight, weight.milligrams > 0,
            let previous = try previousWeight(of: set.details.exerciseId, in: workout, before: number),
            previous.milligrams > 0
        else { return nil }
        let ratio = Double(weight.milligrams) / Double(previous.milligrams)
        let perPound = Weight.kilogramsPerPound.doubleValue
        let other: MassUnit
        switch weight.unit {
        case .kilograms where abs(ratio * perPound - 1) <= 0.05: other = .pounds
        case .pounds where abs(ratio / perPound - 1) <= 0.05: other = .kilograms
        default: return nil
        }
        return (Weight(weight.value, other), previous)
    }

    func previousWeight(
        of exerciseId: String, in workout: Workout, before number: UInt32? = nil
    ) throws
        -> Weight?
    {
        if let set = workout.sets.last(where: {
            !$0.isRemoved && $0.number < number ?? .max && $0.details.exerciseId == exerciseId
                && Self.isWorking($0.details)
        }) {
            return set.details.weight
        }
        return try latestWeight(of: exerciseId, outside: workout, before: number == nil ? nil : workout.startedAt)
    }

    /// The weight of the exercise's last working set with a weight other than set `number` of `workout`: in the
    /// workout, else in the latest other workout, whenever it was. What a corrected set is compared with besides
    /// the set before it, which an older workout's first set has none of.
    func otherWeight(of exerciseId: String, in workout: Workout, except number: UInt32) throws -> Weight? {
        if let set = workout.sets.last(where: {
            !$0.isRemoved && $0.number != number && $0.details.exerciseId == exerciseId && Self.isWorking($0.details)
        }) {
            return set.details.weight
        }
        return try latestWeight(of: exerciseId, outside: workout, before: nil)
    }

    /// A working set with a weight: what the five-times check compares with.
    private static func isWorking(_ details: SetDetails) -> Bool {
        (details.weight?.milligrams ?? 0) > 0 && details.kind != .warmup
    }

    /// The weight of the exercise's last working set in another workout than `workout`, of one started before
    /// `startedAt` when it is given.
    private func latestWeight(
        of exerciseId: String, outside workout: Workout, before startedAt: Timestamp?
    ) throws
        -> Weight?
    {
        var weight: Weight?
        try table(.sessions)?.scan(prefix: Key().text(exerciseId).bytes, reverse: true) { key, value in
            let facts = try ReadModelRow.decode(key: key, value: value, table: "sessions", SetFact.decode(key:row:))
            weight =
                facts.last { fact in
                    fact.workoutId != workout.id && startedAt.map { fact.startedAt < $0 } ?? true
                        && Self.isWorking(fact.details)
                }?.details.weight
            return weight == nil
        }
        return weight
    }
}
