import EventJournal
import Projections

/// The tables of the training read model (their keys and rows are in docs/FORMAT.md).
enum TrainingTable: Int, CaseIterable {
    /// Workout stream → the workout's state, for workouts in progress (a finished one's is worked out from its events).
    case workouts
    /// `highest` → the highest workout number; `active/<stream>` → the position of its start, per workout in progress.
    case meta
    /// Start ‖ workout → its summary, for counted workouts.
    case history
    /// Local day → the number of counted workouts that started on it.
    case days
    /// Exercise ‖ start ‖ workout → the exercise's figures and counted sets in that workout.
    case sessions
    /// Exercise ‖ kind ‖ sequence → a personal record.
    case records
    /// Exercise → where its records stand.
    case recordState
    /// Week start ‖ muscle (or `""` for the week, `*push`, `*pull`) → the week's counters.
    case weeks
    /// Custom exercise id → its `CustomExerciseAdded` payload.
    case exercises

    var name: String {
        switch self {
        case .workouts: "workouts"
        case .meta: "meta"
        case .history: "history"
        case .days: "days"
        case .sessions: "sessions"
        case .records: "records"
        case .recordState: "record-state"
        case .weeks: "weeks"
        case .exercises: "exercises"
        }
    }
}

/// Everything folded from workouts: the states of those in progress, history and calendar, every counted set and
/// session by exercise, personal records, and weekly counters by muscle. A finished workout's state is not kept: it is
/// worked out from its events (``WorkoutEventSource``) when an event changes it after it ended. It follows the rules
/// that change folds (``Rules/foldDigest``); a change of them rebuilds it.
public struct TrainingProjection: Projection {
    public typealias Event = RecordedTrainingEvent

    public static let name = "training"
    public var name: String { Self.name }
    /// 1: the first version. 2: fewer, smaller rows: a `sets` row holds an exercise's sets in one workout; `sets`
    /// and `sessions` rows leave out what their keys hold; a workout's sets name their exercise by its index among
    /// the workout's and their time as an offset from its start; exercise names equal to their ids, and a weight's
    /// unit and scale when they are kilograms and 0, are left out. 3: an exercise's sets in a workout are kept in its
    /// `sessions` row; the `sets` table is gone. 4: a set's weight is kept in the set's own fields, and a normal set's
    /// kind is left out. 5: the `workouts` table keeps the state of workouts in progress only. 6: rest timers' events
    /// are not folded; a `workouts` row leaves out the rest timer and the last activity. 7: a set's volume is its
    /// exact weight times its reps, rounded once; an assisted exercise's sets have none. 8: an excluded set adds no
    /// reps to the history nor sets and reps to a session; a muscle listed twice for an exercise counts once. 9: a
    /// session's position (and so a session record's) is the last event that changed it, not its workout's finish;
    /// a set of no reps is no session's top weight. 10: an exercise is assisted when its name has the word assisted,
    /// not merely the letters (an Unassisted Dip is not). 11: a set over 1,000 km is implausible, and a workout is
    /// dated before 2000 by its local date, and ahead of its recording from its latest new date; a workout of
    /// implausible sets alone makes no day nor a week's workout; a session keeps its sets' time and distance; an
    /// estimate is worked out from the exact weight, not whole milligrams; an empty note is none; a `workouts` row keeps
    /// when the last pause ended. 12: an assisted exercise's session has a top weight, its least help, and a set of
    /// it at body weight is one of no help, for records too. 13: a workout's duration is rounded to the nearest second,
    /// not cut down. 14: a `WorkoutRestored` makes a deleted workout count again, and finishes a discarded one. 15: a
    /// `CustomExerciseAdded` that changes an exercise's facts (`exercise edit`) counts every workout of it again.
    public var version: UInt32 { Self.codeVersion }
    static let codeVersion: UInt32 = 15
    public let rules: Rules
    public var rulesDigest: [UInt8] { rules.foldDigest }
    public let tables = TrainingTable.allCases.map(\.name)
    /// Every training event but rest timers': what they change of a workout (its rest timer, its last activity) is
    /// nowhere in the read model, and they are more than half of a workout's events.
    public var eventTypes: Set<String>? { Self.eventTypesRead }
    static let eventTypesRead = TrainingEvent.typeNames.subtracting([
        RestTimerStarted.typeName, RestTimerExtended.typeName, RestTimerSkipped.typeName, RestTimerFinished.typeName,
    ])
    /// Where the fold reads the events of a finished workout that an event changes; without it, such an event is an
    /// error.
    public let workoutEvents: (any WorkoutEventSource)?

    public init(rules: Rules, workoutEvents: (any WorkoutEventSource)?) {
        self.rules = rules
        self.workoutEvents = workoutEvents
    }

    public func fold(_ events: ArraySlice<RecordedTrainingEvent>, into model: ReadModel) throws {
        var fold = TrainingFold(model: model, rules: rules, workoutEvents: workoutEvents)
        for event in events { try fold.apply(event) }
        try fold.flush()
    }

    /// The custom exercises the read model will hold once `events` are folded into it: those it holds, and those
    /// `events` add (found by their preparation, when it found them).
    public func preparationContext(
        in model: ReadModel, after events: ArraySlice<RecordedTrainingEvent>, prepared: PreparedWorkouts?
    ) throws -> CustomExercises {
        var custom = CustomExercises()
        try model.table(TrainingTable.exercises.rawValue).scan { key, value in
            custom.facts[String(decoding: key, as: UTF8.self)] = try ExerciseFacts.custom(row: value)
            return true
        }
        // A chunk holds tens of thousands of events: looking at each again costs more than the rest of this.
        for index in prepared?.customExercisesAdded ?? Array(events.indices) where events.indices.contains(index) {
            guard case .customExerciseAdded(let added) = events[index].event else { continue }
            custom.add(added)
        }
        return custom
    }

    /// Finds the workouts that the chunk's events start and end, and works out their states and contributions, with
    /// the facts of `context`'s custom exercises and of the catalog's.
    public func prepare(
        _ events: ArraySlice<RecordedTrainingEvent>, context: CustomExercises, until isWanted: () -> Bool
    ) -> PreparedWorkouts? {
        PreparedWorkouts(events, rules: rules, customExercises: context, until: isWanted)
    }

    public func fold(
        _ events: ArraySlice<RecordedTrainingEvent>, prepared: PreparedWorkouts, into model: ReadModel
    ) throws {
        var fold = TrainingFold(model: model, rules: rules, workoutEvents: workoutEvents)
        // Whether each prepared workout was taken over at its start: its other events are then passed over.
        var adopted = [Bool](repeating: false, count: prepared.workouts.count)
        for index in events.indices {
            if let owner = prepared.owner(ofEventAt: index) {
                if adopted[owner] { continue }
                if let workout = prepared.workouts[owner], workout.startIndex == index,
                    try fold.adopt(workout, startedBy: events[index])
                {
                    adopted[owner] = true
                    continue
                }
            }
            try fold.apply(events[index])
        }
        try fold.flush()
    }
}

/// One call's fold: rows that many events of a chunk change (workout states, counters, record states, the markers of
/// workouts in progress) are kept in memory and written once at the end; rows that queries scan in order are written
/// as they change.
///
/// A workout's contribution (its history row, sessions, counters and records) depends on its state alone, so it
/// is moved once per fold, from what the workout contributed before the fold touched it to what it contributes at the
/// end, however many of its events the fold holds: folding event by event and in one pass give the same rows. Only
/// a change of a custom exercise (which contributions read) settles the moves due first.
struct TrainingFold {
    let model: ReadModel
    let rules: Rules
    let workoutEvents: (any WorkoutEventSource)?
    private var workouts: [String: Workout] = [:]
    /// The workouts whose state this fold read from their `workouts` row: those that were in progress.
    private var rowsRead: Set<String> = []
    /// The workout the last event changed, kept apart from `workouts` (and already among `changedWorkouts` and
    /// `unsettled`): a workout's events mostly come one after another, and each then costs no lookup.
    private var current: Workout?
    private var changedWorkouts: Set<String> = []
    /// Workouts this fold changed, with what they contributed before it did.
    private var unsettled: [String: Unsettled] = [:]
    private var days: [Int: Int64] = [:]
    private var weeks: [WeekKey: WeekCounter] = [:]
    private var recordStates: [String: RecordState] = [:]
    private var exerciseFacts: [String: ExerciseFacts] = [:]
    private var highest: UInt64?
    private var highestChanged = false
    /// The `active/` rows to write at the end, by workout: a workout that starts and ends within one fold never has its
    /// row written.
    private var activeRows: [String: ActiveRow] = [:]
    /// Every row the fold writes is written here first, so that a row costs no buffer of its own.
    private var rowWriter = PayloadWriter()

    private struct Unsettled {
        var before: WorkoutContribution?
        /// What the workout's state contributes, worked out ahead with `preparedWith`, the facts of its exercises
        /// (in the order the workout lists them) as the preparation took them.
        var prepared: WorkoutContribution?
        var preparedWith: [ExerciseFacts] = []
    }

    /// A workout's `active/` row as this fold leaves it.
    private struct ActiveRow {
        /// Whether the row was there before the fold: the workout was in progress.
        let existedBefore: Bool
        /// The position of the workout's start while it is in progress; nil once it has ended.
        var start: UInt64?
    }

    init(model: ReadModel, rules: Rules, workoutEvents: (any WorkoutEventSource)?) {
        self.model = model
        self.rules = rules
        self.workoutEvents = workoutEvents
    }

    private func table(_ table: TrainingTable) -> ReadModelTable { model.table(table.rawValue) }

    /// Stores under `key` the row that `write` writes. `write` must not use the fold, whose row buffer it is given.
    private mutating func put(_ table: TrainingTable, _ key: [UInt8], _ write: (inout PayloadWriter) -> Void) throws {
        rowWriter.removeAll()
        write(&rowWriter)
        try rowWriter.withBytes { try model.table(table.rawValue).put($0, forKey: key) }
    }

    mutating func apply(_ recorded: RecordedTrainingEvent) throws {
        let stream = recorded.streamID
        switch recorded.event {
        case .customExerciseAdded(let added):
            try settle()
            // An exercise's facts count for every workout of it, whenever it was done: when they change (`exercise
            // edit`, or an exercise logged before it was added), each counted workout of it counts again.
            if try facts(added.exerciseId) != ExerciseFacts(added.exercise) {
                try recountWorkouts(of: added.exerciseId, before: recorded.position)
            }
            try table(.exercises).put(added.encoded, forKey: Array(added.exerciseId.utf8))
            exerciseFacts[added.exerciseId] = nil
        case .workoutStarted(let started):
            // A workout numbered above every one started before has never started: it has no state to look up (in a
            // rebuild, nearly every workout).
            let number = Workout.number(inStreamID: stream)
            let isFirstStart = try number.map { $0 > (try highestWorkoutNumber()) } ?? false
            let previous = isFirstStart ? nil : try takeWorkout(stream, before: recorded.position)
            try noteBefore(previous)
            let workout = Workout(
                id: stream, started: started, at: recorded.occurredAt, recordedAt: recorded.recordedAt)
            keep(workout, wasActive: previous?.isActive ?? false, startPosition: recorded.position)
            if isFirstStart, let number {
                highest = number
                highestChanged = true
            }
        case _ where recorded.event.isWorkoutEvent:
            if current?.id == stream {
                // Changed in place: the workout is not copied out of `current`.
                let wasActive = current!.isActive
                current!.apply(recorded.event, at: recorded.occurredAt, position: recorded.position)
                updateActiveRow(of: stream, isActive: current!.isActive, wasActive: wasActive, startPosition: nil)
                return
            }
            guard var workout = try takeWorkout(stream, before: recorded.position) else { return }
            try noteBefore(workout)
            let wasActive = workout.isActive
            workout.apply(recorded.event, at: recorded.occurredAt, position: recorded.position)
            keep(workout, wasActive: wasActive, startPosition: nil)
        default:
            return
        }
    }

    /// Takes over, at its start, a workout that the chunk's preparation built from its events, when the start is the
    /// workout's first: the fold would build the same state from the same events, which it then passes over. Returns
    /// false, having changed nothing, when the start is not the first.
    mutating func adopt(_ prepared: PreparedWorkout, startedBy start: RecordedTrainingEvent) throws -> Bool {
        guard let number = Workout.number(inStreamID: start.streamID), number > (try highestWorkoutNumber()) else {
            return false
        }
        highest = number
        highestChanged = true
        let id = prepared.workout.id
        // It has never started, so nothing was noted of it, and it has no `active/` row: it ends within the chunk.
        unsettled[id] = Unsettled(before: nil, prepared: prepared.contribution, preparedWith: prepared.exercises)
        changedWorkouts.insert(id)
        workouts[id] = prepared.workout
        return true
    }

    /// Notes what each counted workout with the exercise contributes now, and keeps it as changed: the next settling
    /// moves it to what it contributes with the facts the exercise has then.
    private mutating func recountWorkouts(of exerciseId: String, before position: UInt64) throws {
        var streams: [String] = []
        let prefix = Key().text(exerciseId).bytes
        try table(.sessions).scan(prefix: prefix) { key, _ in
            var reader = Key.Reader(key)
            _ = reader.text()
            _ = reader.instant()
            streams.append(reader.text())
            return true
        }
        for stream in streams {
            guard let workout = try takeWorkout(stream, before: position) else { continue }
            try noteBefore(workout)
            keep(workout, wasActive: workout.isActive, startPosition: nil)
        }
    }

    /// Notes what `workout` contributes, the first time this fold changes it.
    private mutating func noteBefore(_ workout: Workout?) throws {
        guard let workout, unsettled[workout.id] == nil else { return }
        unsettled[workout.id] = Unsettled(before: workout.counts ? try contribution(workout) : nil)
    }

    /// Keeps the changed `workout`, and its place among the workouts in progress.
    private mutating func keep(_ workout: Workout, wasActive: Bool, startPosition: UInt64?) {
        if unsettled[workout.id] == nil { unsettled[workout.id] = Unsettled(before: nil) }
        updateActiveRow(of: workout.id, isActive: workout.isActive, wasActive: wasActive, startPosition: startPosition)
        changedWorkouts.insert(workout.id)
        parkCurrent()
        current = workout
    }

    /// Notes, for the end of the fold, a workout that has just started as in progress, and one that has just ended as
    /// no longer so.
    private mutating func updateActiveRow(of stream: String, isActive: Bool, wasActive: Bool, startPosition: UInt64?) {
        if let startPosition, isActive {
            activeRows[stream, default: ActiveRow(existedBefore: wasActive)].start = startPosition
        } else if wasActive && !isActive {
            activeRows[stream, default: ActiveRow(existedBefore: wasActive)].start = nil
        }
    }

    /// Puts the workout last changed back among the others.
    private mutating func parkCurrent() {
        guard let workout = current else { return }
        workouts[workout.id] = workout
        current = nil
    }

    /// Moves the read model, for each workout changed since the last settling, from what it contributed then to what
    /// it contributes now: in the order they started, so that records mostly add on rather than count again.
    private mutating func settle() throws {
        parkCurrent()
        // Each workout looked up once, not at every comparison of the sort.
        var order = unsettled.map { stream, unsettled in
            (startedAt: workouts[stream]!.startedAt, stream: stream, unsettled: unsettled)
        }
        unsettled.removeAll(keepingCapacity: true)
        order.sort { ($0.startedAt, $0.stream) < ($1.startedAt, $1.stream) }
        for (_, stream, unsettled) in order {
            let workout = workouts[stream]!
            let after =
                workout.counts
                ? try contribution(workout, prepared: unsettled.prepared, with: unsettled.preparedWith) : nil
            if unsettled.before != nil || after != nil { try move(from: unsettled.before, to: after) }
        }
    }

    /// What `workout` contributes: `prepared` when it is given and was worked out with `preparedFacts`, the facts of
    /// the workout's exercises as this fold has them (which the preparation could only foresee).
    private mutating func contribution(
        _ workout: Workout, prepared: WorkoutContribution? = nil, with preparedFacts: [ExerciseFacts] = []
    ) throws -> WorkoutContribution {
        let facts = try workout.exercises.map { try self.facts($0.exerciseId) }
        if let prepared, facts == preparedFacts { return prepared }
        return WorkoutContribution(workout, rules: rules, exercises: facts)
    }

    // MARK: Moving between contributions

    private struct ExerciseChange {
        var mustRecount = false
        var addedSets: [SetFact] = []
        /// An exercise has one session per workout, and a move is one workout's.
        var addedSession: SessionFact?
    }

    private mutating func move(from old: WorkoutContribution?, to new: WorkoutContribution?) throws {
        let history = table(.history)
        if let old, old.workoutKey != new?.workoutKey { try history.delete(old.workoutKey) }
        if let new, new.history != old?.history || new.workoutKey != old?.workoutKey {
            try put(.history, new.workoutKey) { new.history.writeRow(to: &$0) }
        }
        if old?.trainedDay != new?.trainedDay {
            if let day = old?.trainedDay { try addToDay(day, -1) }
            if let day = new?.trainedDay { try addToDay(day, 1) }
        }
        for (key, counter) in old?.weeks ?? [:] { try addToWeek(key, counter, sign: -1) }
        for (key, counter) in new?.weeks ?? [:] { try addToWeek(key, counter, sign: 1) }

        if old == nil, let new {
            // A workout that contributed nothing before (the common case: it has just finished): each of its
            // exercises adds its session and its sets.
            for session in new.sessions {
                try put(.sessions, session.key) { session.writeRow(to: &$0) }
                let change = ExerciseChange(addedSets: session.sets, addedSession: session.fact)
                try updateRecords(session.exerciseId, change, workoutKey: new.workoutKey, changedFrom: new.workoutKey)
            }
            return
        }
        var changes: [String: ExerciseChange] = [:]
        var oldSessions = Dictionary(uniqueKeysWithValues: (old?.sessions ?? []).map { ($0.key, $0) })
        for session in new?.sessions ?? [] {
            if !oldSessions.isEmpty, let previous = oldSessions.removeValue(forKey: session.key) {
                guard previous != session else { continue }
                changes[session.exerciseId, default: .init()].mustRecount = true
            } else {
                changes[session.exerciseId, default: .init()].addedSets += session.sets
                changes[session.exerciseId, default: .init()].addedSession = session.fact
            }
            try put(.sessions, session.key) { session.writeRow(to: &$0) }
        }
        let sessions = table(.sessions)
        for (key, session) in oldSessions {
            try sessions.delete(key)
            changes[session.exerciseId, default: .init()].mustRecount = true
        }
        // Records can change only from the earlier of the workout's old and new places on.
        let earliest = [old?.workoutKey, new?.workoutKey].compactMap { $0 }.min { $0.lexicographicallyPrecedes($1) }
        for (exerciseId, change) in changes {
            try updateRecords(exerciseId, change, workoutKey: new?.workoutKey, changedFrom: earliest ?? [])
        }
    }

    // MARK: Records

    /// Adds the records of a workout that comes after every other of the exercise; anything else (an earlier
    /// workout, a changed or removed set) counts the exercise's records again from the first workout that changed,
    /// `changedFrom`, on: the records before it stand, and counting on from them in order gives the same rows that
    /// counting from the first set would.
    private mutating func updateRecords(
        _ exerciseId: String, _ change: ExerciseChange, workoutKey: [UInt8]?, changedFrom: [UInt8]
    ) throws {
        // The cached state is swapped out, so that changing it copies nothing, and put back by its index: one lookup.
        let cached = recordStates.index(forKey: exerciseId)
        var state = RecordState()
        if let cached { swap(&state, &recordStates.values[cached]) } else { state = try storedRecordState(exerciseId) }
        var tracker = RecordTracker(isAssisted: try facts(exerciseId).isAssisted, rules: rules, state: state)
        let prefix = Key().text(exerciseId)
        if !change.mustRecount, let workoutKey,
            tracker.state.lastWorkoutKey.map({ $0.lexicographicallyPrecedes(workoutKey) }) ?? true
        {
            for set in change.addedSets {
                for entry in tracker.consider(set) { try put(entry, prefix) }
            }
            if let session = change.addedSession {
                for entry in tracker.consider(session) { try put(entry, prefix) }
            }
            tracker.state.lastWorkoutKey = workoutKey
        } else {
            tracker.state = try recordsBefore(changedFrom, prefix: prefix)
            var entries: [RecordEntry] = []
            try table(.sessions).scan(prefix: prefix.bytes, from: prefix.bytes + changedFrom) { key, value in
                for fact in try ReadModelRow.decode(
                    key: key, value: value, table: "sessions", SetFact.decode(key:row:))
                {
                    entries += tracker.consider(fact)
                }
                let session = try ReadModelRow.decode(
                    key: key, value: value, table: "sessions", SessionFact.init(key:row:))
                entries += tracker.consider(session)
                tracker.state.lastWorkoutKey = Array(key[prefix.bytes.count...])
                return true
            }
            for entry in entries { try put(entry, prefix) }
        }
        if let cached { recordStates.values[cached] = tracker.state } else { recordStates[exerciseId] = tracker.state }
    }

    /// Keeps the exercise's records made before the workout key `bound` and deletes the others; returns where the
    /// records stood then: the last kept record of each kind, and the last workout before the bound. Each kind's
    /// records run in the order they were made, so only the later ones are read, from the end.
    private func recordsBefore(_ bound: [UInt8], prefix: Key) throws -> RecordState {
        var state = RecordState()
        let records = table(.records)
        for kind in RecordKind.allCases {
            var later: [[UInt8]] = []
            try records.scan(prefix: prefix.byte(kind.code).bytes, reverse: true) { key, value in
                let entry = try ReadModelRow.decode(value, table: "records", RecordEntry.Placing.init(decoding:))
                guard entry.workoutKey.lexicographicallyPrecedes(bound) else {
                    later.append(Array(key))
                    return true
                }
                state.best[kind] = (entry.value, entry.sequence)
                return false
            }
            for key in later { try records.delete(key) }
        }
        try table(.sessions).scan(prefix: prefix.bytes, from: prefix.bytes + bound, reverse: true) { key, _ in
            state.lastWorkoutKey = Array(key[prefix.bytes.count...])
            return false
        }
        return state
    }

    /// Stores a record under the exercise's key `prefix`.
    private mutating func put(_ entry: RecordEntry, _ prefix: Key) throws {
        try put(.records, prefix.byte(entry.kind.code).unsigned(entry.sequence).bytes) { entry.writeRow(to: &$0) }
    }

    // MARK: Rows kept in memory during the fold

    /// The workout's state, taken out of the cache so that changing it copies nothing, else read from its row (a
    /// workout in progress), else worked out from its events before `position` (a finished one).
    private mutating func takeWorkout(_ stream: String, before position: UInt64) throws -> Workout? {
        if current?.id == stream {
            defer { current = nil }
            return current
        }
        if let cached = workouts.removeValue(forKey: stream) { return cached }
        let kept = try table(.workouts).withValue(forKey: Array(stream.utf8)) { raw in
            try ReadModelRow.decode(raw, table: "workouts", Workout.init(decoding:))
        }
        if let kept {
            rowsRead.insert(stream)
            return kept
        }
        guard let workoutEvents else {
            throw ProjectionError(
                .invalidDefinition,
                "the training fold needs the events of workout \(stream), whose state it does not keep",
                remedy: "give TrainingProjection a WorkoutEventSource")
        }
        return Workout.replaying(
            stream, try workoutEvents.events(of: stream, before: position, in: model.transaction))
    }

    private mutating func addToDay(_ day: Int, _ delta: Int64) throws {
        let count =
            try days[day]
            ?? table(.days).withValue(forKey: Key().signed(Int32(day)).bytes) {
                Int64(bitPattern: $0.bigEndian(UInt64.self, at: 0))
            } ?? 0
        days[day] = count &+ delta
    }

    private mutating func addToWeek(_ key: WeekKey, _ counter: WeekCounter, sign: Int64) throws {
        var current =
            try weeks[key]
            ?? table(.weeks).withValue(forKey: key.bytes) { raw in
                try ReadModelRow.decode(raw, table: "weeks", WeekCounter.init(decoding:))
            } ?? WeekCounter()
        current.add(counter, sign: sign)
        weeks[key] = current
    }

    /// The exercise's record state as its table holds it.
    private func storedRecordState(_ exerciseId: String) throws -> RecordState {
        try table(.recordState).withValue(forKey: Array(exerciseId.utf8)) { raw in
            try ReadModelRow.decode(raw, table: "record-state", RecordState.init(decoding:))
        } ?? RecordState()
    }

    private mutating func highestWorkoutNumber() throws -> UInt64 {
        if let highest { return highest }
        let stored = try table(.meta).withValue(forKey: Array("highest".utf8)) { $0.bigEndian(UInt64.self, at: 0) }
        highest = stored ?? 0
        return highest!
    }

    /// The exercise's name, muscles and force: a custom exercise as this read model holds it, else the catalog's.
    private mutating func facts(_ exerciseId: String) throws -> ExerciseFacts {
        if let cached = exerciseFacts[exerciseId] { return cached }
        let facts = try ExerciseFacts.folded(exerciseId, customExercises: table(.exercises))
        exerciseFacts[exerciseId] = facts
        return facts
    }

    /// Settles the workouts changed, and writes the rows kept in memory.
    mutating func flush() throws {
        try settle()
        // A finished workout's state is not kept: its events give it back when it is needed.
        for stream in changedWorkouts.sorted() {
            let workout = workouts[stream]!
            if workout.isActive {
                try put(.workouts, Array(stream.utf8)) { workout.writeRow(to: &$0) }
            } else if rowsRead.contains(stream) {
                try table(.workouts).delete(Array(stream.utf8))
            }
        }
        let daysTable = table(.days)
        for (day, count) in days {
            let key = Key().signed(Int32(day)).bytes
            if count == 0 {
                try daysTable.delete(key)
            } else {
                var value: [UInt8] = []
                value.appendBigEndian(UInt64(bitPattern: count))
                try daysTable.put(value, forKey: key)
            }
        }
        let weeksTable = table(.weeks)
        for (key, counter) in weeks {
            let key = key.bytes
            if counter.isZero { try weeksTable.delete(key) } else { try put(.weeks, key) { counter.writeRow(to: &$0) } }
        }
        let states = table(.recordState)
        for (exerciseId, state) in recordStates {
            if state.lastWorkoutKey == nil {
                try states.delete(Array(exerciseId.utf8))
            } else {
                try put(.recordState, Array(exerciseId.utf8)) { state.writeRow(to: &$0) }
            }
        }
        let meta = table(.meta)
        for (stream, row) in activeRows {
            let key = Array(("active/" + stream).utf8)
            if let start = row.start {
                var value: [UInt8] = []
                value.appendBigEndian(start)
                try meta.put(value, forKey: key)
            } else if row.existedBefore {
                try meta.delete(key)
            }
        }
        if highestChanged, let highest {
            var value: [UInt8] = []
            value.appendBigEndian(highest)
            try meta.put(value, forKey: Array("highest".utf8))
        }
    }
}
