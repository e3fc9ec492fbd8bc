import EventJournal
import LMDB
import Projections
import Testing

@testable import Training

/// The training fold with its chunk prepared ahead (as a rebuild's reading thread prepares it) writes the same rows as
/// without, whether the preparation ran to its end or was cut short, and for the workouts it must leave to the fold.
struct PreparedFoldTests {
    /// Events at consecutive positions, each a minute after the one before.
    struct Events {
        var list: [RecordedTrainingEvent] = []
        var position: UInt64
        var minute: Int64 = 0

        init(after position: UInt64) { self.position = position }

        mutating func add(_ stream: String, _ event: TrainingEvent) {
            position += 1
            minute += 1
            // 2026-11-02T08:00:00Z, a Monday, and on.
            let time = Timestamp(microsecondsSinceEpoch: 1_793_606_400_000_000 + minute * 60_000_000)
            list.append(
                RecordedTrainingEvent(
                    position: position, streamID: stream, streamVersion: 1, occurredAt: time, recordedAt: time,
                    event: event))
        }

        mutating func workout(_ number: Int, _ exerciseId: String, sets: Int = 2, finish: Bool = true) {
            let stream = "workout-\(number)"
            add(stream, .workoutStarted(WorkoutStarted(name: "Workout \(number)")))
            add(stream, .exerciseAdded(ExerciseAdded(exerciseId: exerciseId, exerciseName: exerciseId)))
            for set in 1...sets { log(stream, set, exerciseId) }
            if finish { add(stream, .workoutFinished(WorkoutFinished())) }
        }

        mutating func log(_ stream: String, _ number: Int, _ exerciseId: String) {
            let details = SetDetails(
                exerciseId: exerciseId, weight: weight(String(60 + 5 * number)), reps: UInt32(4 + number))
            add(stream, .setLogged(SetLogged(setNumber: UInt32(number), set: details)))
        }
    }

    static let squat = "Barbell_Full_Squat"

    /// A first chunk that stores a custom exercise and a finished workout-0, and a second chunk with one workout of
    /// each kind the preparation must handle, by hand:
    /// - workout-1, workout-3, workout-9: catalog exercises only, started and finished within the chunk: prepared and
    ///   taken over;
    /// - workout-2: a custom exercise stored by the first chunk: prepared with its facts when the preparation is given
    ///   them (as a rebuild gives them), and otherwise with the catalog's (it has none), which the fold must not take,
    ///   since the read model's facts give it muscles;
    /// - workout-4: the squat given other muscles by a `CustomExerciseAdded` between two of its sets: not prepared,
    ///   since the fold counts its first set under the catalog's facts and the rest under the new ones;
    /// - workout-5: started twice; workout-6: a set logged before its start; workout-7: deleted after it finished;
    ///   workout-8: still in progress at the end (and started after workout-9); `session-9`: not a workout number;
    /// - workout-0: started again and finished: prepared, but not taken over, since the fold must first take away what
    ///   it contributed in the first chunk.
    static func chunks() -> (first: [RecordedTrainingEvent], second: [RecordedTrainingEvent]) {
        var first = Events(after: 0)
        first.add(
            "exercises",
            .customExerciseAdded(
                CustomExerciseAdded(exerciseId: "sled-push", name: "Sled Push", primaryMuscles: ["quadriceps"])))
        first.workout(0, squat)
        var second = Events(after: first.position)
        second.workout(1, squat)
        second.workout(2, "sled-push")
        second.workout(3, "Barbell_Bench_Press_-_Medium_Grip")
        second.add("workout-4", .workoutStarted(WorkoutStarted(name: "Squat")))
        second.add("workout-4", .exerciseAdded(ExerciseAdded(exerciseId: squat, exerciseName: "Squat")))
        second.log("workout-4", 1, squat)
        second.add(
            "exercises",
            .customExerciseAdded(
                CustomExerciseAdded(exerciseId: squat, name: "Squat", primaryMuscles: ["calves"], force: "pull")))
        second.log("workout-4", 2, squat)
        second.add("workout-4", .workoutFinished(WorkoutFinished()))
        second.workout(5, squat)
        second.workout(5, squat, sets: 1)
        second.log("workout-6", 1, squat)
        second.workout(6, squat)
        second.workout(7, squat)
        second.add("workout-7", .workoutDeleted(WorkoutDeleted()))
        second.workout(9, squat, sets: 3)
        second.workout(8, squat, finish: false)
        second.add("session-9", .workoutStarted(WorkoutStarted(name: "Not numbered")))
        second.add("session-9", .workoutFinished(WorkoutFinished()))
        second.workout(0, squat, sets: 3)
        return (first.list, second.list)
    }

    /// The workout events of both chunks, as a journal would give them to the fold.
    struct ListedWorkoutEvents: WorkoutEventSource {
        let events: [RecordedTrainingEvent]

        func events(
            of stream: String, before position: UInt64, in transaction: Transaction
        ) throws
            -> [RecordedTrainingEvent]
        {
            events.filter { $0.streamID == stream && $0.position < position }
        }
    }

    /// The training projection, reading finished workouts' events from both chunks.
    static var projection: TrainingProjection {
        let (first, second) = chunks()
        return TrainingProjection(rules: Rules(), workoutEvents: ListedWorkoutEvents(events: first + second))
    }

    /// The training projection, but for the context its preparation is given: none of the read model's custom
    /// exercises, as if the preparation had foreseen them wrongly.
    struct WithoutCustomExercises: Projection {
        let base = PreparedFoldTests.projection
        var name: String { base.name }
        var version: UInt32 { base.version }
        var rulesDigest: [UInt8] { base.rulesDigest }
        var tables: [String] { base.tables }

        func fold(_ events: ArraySlice<RecordedTrainingEvent>, into model: ReadModel) throws {
            try base.fold(events, into: model)
        }

        func preparationContext(
            in model: ReadModel, after events: ArraySlice<RecordedTrainingEvent>, prepared: PreparedWorkouts?
        ) throws -> CustomExercises { CustomExercises() }

        func prepare(
            _ events: ArraySlice<RecordedTrainingEvent>, context: CustomExercises, until isWanted: () -> Bool
        ) -> PreparedWorkouts? {
            base.prepare(events, context: context, until: isWanted)
        }

        func fold(
            _ events: ArraySlice<RecordedTrainingEvent>, prepared: PreparedWorkouts, into model: ReadModel
        ) throws {
            try base.fold(events, prepared: prepared, into: model)
        }
    }

    /// Every row of every table, keys and values in turn, after folding the first chunk plainly and the second as
    /// `isWanted` says (nil for a plain fold), prepared by `projection`.
    func rows(
        preparingUntil isWanted: (() -> Bool)?,
        by projection: any Projection<RecordedTrainingEvent> = PreparedFoldTests.projection,
        chunks: (first: [RecordedTrainingEvent], second: [RecordedTrainingEvent]) = PreparedFoldTests.chunks()
    ) throws -> [[[UInt8]]] {
        let store = try ReadModelStore.scratch(projections: [ProjectionDescriptor(projection)])
        let (first, second) = chunks
        try store.fold([projection], first[...], through: first.last!.position)
        try store.fold([projection], second[...], through: second.last!.position, preparingUntil: isWanted)
        return try store.read { snapshot in
            let model = try #require(try snapshot.model(TrainingProjection.name))
            return try TrainingTable.allCases.indices.map { index in
                var rows: [[UInt8]] = []
                try model.table(index).scan { key, value in
                    rows += [Array(key), Array(value)]
                    return true
                }
                return rows
            }
        }
    }

    /// The names of the tables whose rows differ.
    func differences(_ rows: [[[UInt8]]], _ others: [[[UInt8]]]) -> [String] {
        zip(TrainingTable.allCases, zip(rows, others)).filter { $1.0 != $1.1 }.map(\.0.name)
    }

    @Test func onlyWorkoutsInProgressKeepTheirStateInARow() throws {
        let kept = try rows(preparingUntil: nil)[TrainingTable.workouts.rawValue]
        // Keys and values in turn: workout-8 alone is still in progress; every other workout has ended.
        let keys = stride(from: 0, to: kept.count, by: 2).map { String(decoding: kept[$0], as: UTF8.self) }
        #expect(keys == ["workout-8"])
    }

    @Test func aFinishedWorkoutChangedLaterNeedsItsEvents() throws {
        let (first, second) = Self.chunks()
        let withoutEvents = TrainingProjection(rules: Rules(), workoutEvents: nil)
        let store = try ReadModelStore.scratch(projections: [ProjectionDescriptor(withoutEvents)])
        try store.fold([Self.projection], first[...], through: first.last!.position)
        // The second chunk starts workout-0 again, which ended in the first: its state is not kept, and nothing can
        // give its events back.
        #expect(throws: ProjectionError.self) {
            try store.fold([withoutEvents], second[...], through: second.last!.position)
        }
    }

    @Test func aPreparedFoldWritesWhatAPlainFoldWrites() throws {
        let plain = try rows(preparingUntil: nil)
        #expect(plain.count == TrainingTable.allCases.count)
        #expect(differences(try rows(preparingUntil: { false }), plain) == [])
        // Cut short after each number of checks: one while finding the workouts, then one before each workout.
        for checks in 0...10 {
            var checked = 0
            let cutShort = try rows(preparingUntil: {
                checked += 1
                return checked > checks
            })
            #expect(differences(cutShort, plain) == [], "cut short after \(checks) checks")
        }
        // Prepared without the custom exercise the first chunk stored: the fold sets workout-2's contribution aside.
        let unforeseen = try rows(preparingUntil: { false }, by: WithoutCustomExercises())
        #expect(differences(unforeseen, plain) == [])
    }

    /// The training fold does not read rest timers' events (``TrainingProjection/eventTypes``), but may be given them
    /// in a pass with a projection that reads every type: it must write the same rows with them as without them. The
    /// second chunk gets, after each set of workout-1 (finished in the chunk) and of workout-8 (still in progress at
    /// its end), a timer started, then skipped in workout-1 and extended in workout-8, later than the set; a timer
    /// started after workout-0 finishes in the first chunk runs out in the second. The events keep their positions
    /// either way.
    @Test func restTimersEventsChangeNoRow() throws {
        let (plainFirst, plainSecond) = Self.chunks()
        var position: UInt64 = 0
        var timed: [RecordedTrainingEvent] = []
        func add(_ stream: String, _ event: TrainingEvent, at time: Timestamp) {
            position += 1
            timed.append(
                RecordedTrainingEvent(
                    position: position, streamID: stream, streamVersion: 1, occurredAt: time, recordedAt: time,
                    event: event))
        }
        for recorded in plainFirst + plainSecond {
            if recorded.position == plainSecond.first!.position {
                add(
                    "workout-0", .restTimerFinished(RestTimerFinished(endedAt: recorded.occurredAt)),
                    at: recorded.occurredAt)
            }
            add(recorded.streamID, recorded.event, at: recorded.occurredAt)
            // Twenty and forty seconds after the event (the next comes a minute after it).
            let time = Timestamp(microsecondsSinceEpoch: recorded.occurredAt.microsecondsSinceEpoch + 20_000_000)
            let later = Timestamp(microsecondsSinceEpoch: time.microsecondsSinceEpoch + 20_000_000)
            let ends = Timestamp(microsecondsSinceEpoch: time.microsecondsSinceEpoch + 90_000_000)
            switch (recorded.streamID, recorded.event) {
            case ("workout-0", .workoutFinished) where recorded.position < plainSecond.first!.position:
                add("workout-0", .restTimerStarted(RestTimerStarted(durationSeconds: 90, endsAt: ends)), at: time)
            case ("workout-1", .setLogged(let logged)):
                add(
                    "workout-1",
                    .restTimerStarted(RestTimerStarted(durationSeconds: 90, endsAt: ends, afterSet: logged.setNumber)),
                    at: time)
                add("workout-1", .restTimerSkipped(RestTimerSkipped()), at: later)
            case ("workout-8", .setLogged(let logged)):
                add(
                    "workout-8",
                    .restTimerStarted(RestTimerStarted(durationSeconds: 90, endsAt: ends, afterSet: logged.setNumber)),
                    at: time)
                add("workout-8", .restTimerExtended(RestTimerExtended(bySeconds: 30, endsAt: ends)), at: later)
            default:
                break
            }
        }
        let boundary = timed.firstIndex { $0.streamID == "workout-0" && $0.event.payload is RestTimerFinished }!
        let first = Array(timed[..<boundary])
        let second = Array(timed[boundary...])
        let isRestTimers = { (recorded: RecordedTrainingEvent) in
            !TrainingProjection.eventTypesRead.contains(type(of: recorded.event.payload).typeName)
        }
        #expect(timed.filter(isRestTimers).count == 10)
        let projection = TrainingProjection(rules: Rules(), workoutEvents: ListedWorkoutEvents(events: timed))
        for isWanted in [nil, { false }] as [(() -> Bool)?] {
            let given = try rows(preparingUntil: isWanted, by: projection, chunks: (first, second))
            let passedOver = try rows(
                preparingUntil: isWanted, by: projection,
                chunks: (first.filter { !isRestTimers($0) }, second.filter { !isRestTimers($0) }))
            #expect(differences(given, passedOver) == [], "prepared: \(isWanted != nil)")
            // workout-8, in progress, has its row either way.
            #expect(given[TrainingTable.workouts.rawValue].count == 2)
        }
    }

    @Test func thePreparationLeavesToTheFoldTheWorkoutsItCannotSettleAlone() throws {
        let (first, second) = Self.chunks()
        let projection = Self.projection
        // The context of the second chunk's preparation: asked for before the first chunk is folded, as a rebuild asks
        // for it, it comes from the first chunk's events (found by looking at each, or by the first chunk's own
        // preparation); asked for after, from the read model's rows.
        func preparationContext(foldingFirst: Bool, prepared: PreparedWorkouts? = nil) throws -> CustomExercises {
            let store = try ReadModelStore.scratch(projections: [ProjectionDescriptor(projection)])
            try store.fold(
                [projection], foldingFirst ? first[...] : [], through: foldingFirst ? first.last!.position : 0)
            return try store.read { snapshot in
                try projection.preparationContext(
                    in: #require(try snapshot.model(projection.name)), after: foldingFirst ? [] : first[...],
                    prepared: prepared)
            }
        }
        let context = try preparationContext(foldingFirst: false)
        #expect(context.facts.keys.sorted() == ["sled-push"])
        #expect(try preparationContext(foldingFirst: true).facts == context.facts)
        let firstPrepared = try #require(projection.prepare(first[...], context: CustomExercises()) { false })
        #expect(firstPrepared.customExercisesAdded == [0])
        #expect(try preparationContext(foldingFirst: false, prepared: firstPrepared).facts == context.facts)
        let prepared = try #require(projection.prepare(second[...], context: context) { false })
        let ids = Set(prepared.workouts.compactMap { $0?.workout.id })
        // Prepared: those started and ended in the chunk, once, with no custom exercise added among their events.
        #expect(ids == ["workout-0", "workout-1", "workout-2", "workout-3", "workout-7", "workout-9"])
        #expect(
            prepared.workouts.compactMap { $0 }.allSatisfy { $0.workout.id == "workout-7" || $0.contribution != nil })
        // The facts each workout was prepared with: workout-2's custom exercise with the muscles the first chunk gave
        // it; the squat as the catalog has it until the second chunk gives it other muscles (during workout-4), and
        // with those after.
        let facts = Dictionary(
            uniqueKeysWithValues: prepared.workouts.compactMap { $0 }.map { ($0.workout.id, $0.exercises) })
        #expect(facts["workout-2"]?.map(\.primaryMuscles) == [["quadriceps"]])
        #expect(facts["workout-1"] == [try ExerciseFacts.catalogued(Self.squat)])
        #expect(facts["workout-1"]?.map(\.primaryMuscles) != [["calves"]])
        #expect(facts["workout-9"]?.map(\.primaryMuscles) == [["calves"]])
        #expect(facts["workout-0"]?.map(\.primaryMuscles) == [["calves"]])
    }
}
