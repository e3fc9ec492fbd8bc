import ArgumentParser
import EventJournal
import Foundation
import Training

/// Writes a large, realistic training journal from a seed: years of workouts with warm-ups, RPE, rests, pauses,
/// corrections and removals, edits and deletions of past workouts, late sets, routines and their edits, schedules,
/// rule changes, body weights and custom exercises: every training event type. The same seed gives the same events.
struct GenerateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate", abstract: "Write a seeded, generated training journal.")

    @Option(help: "The journal directory (created).")
    var journal: String

    @Option(help: "At least this many events.")
    var events: Int

    @Option(help: "The seed.")
    var seed: UInt64 = 1

    func run() async throws {
        let target = try Journal.open(
            at: journal, options: JournalOptions(durability: .relaxed, initialMapSize: 1 << 30), create: true)
        var generator = TrainingGenerator(seed: seed)
        var written = 0
        while written < events {
            let (stream, batch) = generator.next()
            _ = try await target.append(batch, to: stream)
            written += batch.count
        }
        writeLine(#"{"events":\#(try target.head().position),"seed":\#(seed)}"#)
    }
}

/// A small, fast pseudo-random generator (SplitMix64), so that a seed always gives the same journal.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number from 0 to `bound` − 1.
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// True with probability `percent` in 100.
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
}

/// The appends of a generated journal, one at a time: each an event stream and its events.
struct TrainingGenerator {
    private var random: SplitMix64
    /// Microseconds since the epoch: the next workout's start.
    private var time: Int64 = 946_893_600_000_000  // 2000-01-03T10:00:00Z
    private var pending: [(String, [ProposedEvent])] = []
    private var workoutCount: UInt64 = 0
    /// Finished workouts: their start and their highest set number, for later edits.
    private var finished: [PastWorkout] = []
    /// The last workout discarded (with sets), which is restored now and then, with when its last set was logged.
    private var lastDiscarded: (workout: PastWorkout, lastSetAt: Timestamp)?

    private typealias PastWorkout = (stream: String, startedAt: Int64, lastSet: UInt32, exercise: String)
    /// Each exercise's current working weight in kilograms.
    private var working: [String: Double] = [:]
    /// Each exercise's heaviest working weight in kilograms, which its training nears and falls back from, as a
    /// lifter's does over the years: without it, weights rose by half a kilogram a session without end, and past
    /// 300,000 events every set was over 1,000 kg, implausible, out of records and volume.
    private var ceiling: [String: Double] = [:]

    static let routines: [(id: String, name: String, exercises: [String])] = [
        (
            "push", "Push",
            [
                "Barbell_Bench_Press_-_Medium_Grip", "Standing_Military_Press", "Incline_Dumbbell_Press",
                "Dips_-_Triceps_Version",
                "Side_Lateral_Raise",
            ]
        ),
        (
            "pull", "Pull",
            ["Barbell_Deadlift", "Pullups", "Bent_Over_Barbell_Row", "Barbell_Curl", "Band_Assisted_Pull-Up"]
        ),
        (
            "legs", "Legs",
            ["Barbell_Full_Squat", "Romanian_Deadlift", "Leg_Press", "Standing_Calf_Raises", "custom-zercher-squat"]
        ),
    ]

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
        let metadata = EventMetadata(source: "generator")
        func at(_ payload: any TrainingEventPayload, _ offset: Int64 = 0) -> ProposedEvent {
            payload.proposed(occurredAt: Timestamp(microsecondsSinceEpoch: time + offset), metadata: metadata)
        }
        pending.append(
            ("profile", [at(ProfileUpdated(name: "Sam", age: 30, unit: .kilograms, timeZone: "Europe/Berlin"))]))
        pending.append(
            (
                "catalog",
                [
                    at(
                        CustomExerciseAdded(
                            exerciseId: "custom-zercher-squat", name: "Zercher Squat",
                            primaryMuscles: ["quadriceps"], secondaryMuscles: ["glutes", "abdominals"], force: "push")),
                    at(
                        CustomExerciseAdded(
                            exerciseId: "custom-rowing", name: "Rowing Machine", primaryMuscles: ["middle back"],
                            force: "pull", category: "cardio")),
                ]
            ))
        for routine in Self.routines {
            pending.append(
                (
                    "routine-\(routine.id)",
                    [at(RoutineCreated(routineId: routine.id, name: routine.name))]
                        + routine.exercises.map {
                            at(
                                RoutineExerciseAdded(
                                    exerciseId: $0, exerciseName: $0, targetSets: 3, minimumReps: 5, maximumReps: 8,
                                    restSeconds: 120))
                        }
                ))
        }
        pending.append(
            (
                "schedule",
                [at(ScheduleSet(kind: .weekdays, days: ["Legs", "Push", "Pull", "Legs", "Push", "Pull", ""]))]
            ))
    }

    /// The next append.
    mutating func next() -> (String, [ProposedEvent]) {
        if !pending.isEmpty { return pending.removeFirst() }
        workoutCount += 1
        let metadata = EventMetadata(source: "generator")
        func at(_ payload: any TrainingEventPayload, _ offset: Int64 = 0) -> ProposedEvent {
            payload.proposed(occurredAt: Timestamp(microsecondsSinceEpoch: time + offset), metadata: metadata)
        }
        // Now and then, something other than a workout comes first.
        if workoutCount % 40 == 0 {
            let kilograms = 78 + random.below(80) / 10
            pending.append(
                ("profile", [at(BodyWeightRecorded(weight: Weight(ExactDecimal(Int64(kilograms)), .kilograms)))]))
        }
        if workoutCount % 500 == 0 {
            let routine = Self.routines[random.below(Self.routines.count)]
            let exercise = routine.exercises[random.below(routine.exercises.count)]
            pending.append(
                (
                    "routine-\(routine.id)",
                    [
                        at(RoutineExerciseMoved(exerciseId: exercise, toIndex: UInt32(random.below(5)))),
                        at(RoutineExerciseRemoved(exerciseId: exercise)),
                        at(
                            RoutineExerciseAdded(
                                exerciseId: exercise, exerciseName: exercise, targetSets: 3, minimumReps: 6,
                                maximumReps: 10,
                                restSeconds: 90)),
                    ]
                ))
            let target = 1 + random.below(4)
            pending.append(("rules", [at(RulesChanged(key: "streak.weekly-target", value: String(target)))]))
            pending.append(
                (
                    "schedule",
                    [at(ScheduleSet(kind: .split, days: ["Push", "Pull", "", "Legs"], startDate: "2000-01-03"))]
                ))
        }
        if workoutCount % 700 == 0 {
            let formula = ["epley", "brzycki"][random.below(2)]
            pending.append(("rules", [at(RulesChanged(key: "e1rm.formula", value: formula))]))
            pending.append(
                (
                    "catalog",
                    [
                        at(
                            CustomExerciseAdded(
                                exerciseId: "custom-sled", name: "Sled Push", primaryMuscles: ["quadriceps"],
                                force: "push"))
                    ]
                ))
        }
        // A discarded workout brought back, as people undo a slip: the last one, so that it is recent.
        if workoutCount % 500 == 0, let restored = lastDiscarded {
            lastDiscarded = nil
            finished.append(restored.workout)
            if finished.count > 100 { finished.removeFirst() }
            // Finished at its last set, as `restore` finishes one.
            pending.append((restored.workout.stream, [at(WorkoutRestored(finishedAt: restored.lastSetAt))]))
        }
        if !finished.isEmpty, random.chance(6) {
            pending.append(pastWorkoutChange())
        }
        pending.append(workoutAppend())
        time += Int64(4 + random.below(6)) * 3_600_000_000
        return pending.removeFirst()
    }

    /// A change to a finished workout: a new date, a late set, a correction, a removed set, or its deletion (now and
    /// then undone at once by a restore, in the same append).
    private mutating func pastWorkoutChange() -> (String, [ProposedEvent]) {
        let index = random.below(finished.count)
        let past = finished[index]
        let when = Timestamp(microsecondsSinceEpoch: time)
        func proposed(_ payload: any TrainingEventPayload) -> ProposedEvent {
            payload.proposed(occurredAt: when, metadata: EventMetadata(source: "generator"))
        }
        let choice = random.below(10)
        let set = SetDetails(
            exerciseId: past.exercise, weight: Weight(ExactDecimal(Int64(40 + random.below(100))), .kilograms),
            reps: UInt32(3 + random.below(8)))
        switch choice {
        case 0:
            if random.chance(25) {
                return (past.stream, [proposed(WorkoutDeleted(reason: "by mistake")), proposed(WorkoutRestored())])
            }
            finished.remove(at: index)
            return (past.stream, [proposed(WorkoutDeleted(reason: "duplicate"))])
        case 1, 2:
            let moved = past.startedAt - Int64(1 + random.below(48)) * 3_600_000_000
            finished[index].startedAt = moved
            return (
                past.stream,
                [proposed(WorkoutEdited(startedAt: Timestamp(microsecondsSinceEpoch: moved), note: "moved"))]
            )
        case 3, 4, 5:
            finished[index].lastSet += 1
            return (past.stream, [proposed(SetLogged(setNumber: past.lastSet + 1, set: set))])
        case 6, 7:
            return (
                past.stream, [proposed(SetCorrected(setNumber: 1 + UInt32(random.below(Int(past.lastSet))), set: set))]
            )
        default:
            return (past.stream, [proposed(SetRemoved(setNumber: 1 + UInt32(random.below(Int(past.lastSet)))))])
        }
    }

    /// One workout from start to finish (or discard), with everything that happens in it.
    private mutating func workoutAppend() -> (String, [ProposedEvent]) {
        let stream = "workout-\(workoutCount)"
        let routine = Self.routines[Int(workoutCount % 3)]
        var offset: Int64 = 0
        var events: [ProposedEvent] = []
        func add(_ payload: any TrainingEventPayload, after minutes: Double = 0) {
            offset += Int64(minutes * 60_000_000)
            events.append(
                payload.proposed(
                    occurredAt: Timestamp(microsecondsSinceEpoch: time + offset),
                    metadata: EventMetadata(source: "generator")))
        }
        add(WorkoutStarted(name: routine.name, routineId: routine.id))
        var exercises = routine.exercises
        if random.chance(5) { exercises.append("custom-rowing") }
        for exercise in exercises { add(ExerciseAdded(exerciseId: exercise, exerciseName: exercise)) }
        var setNumber: UInt32 = 0
        var lastExercise = exercises[0]
        for exercise in exercises {
            if exercise == "custom-rowing" {
                setNumber += 1
                let metres = ExactDecimal(Int64(1_000 + random.below(4_000)))
                add(
                    SetLogged(
                        setNumber: setNumber,
                        set: SetDetails(
                            exerciseId: exercise, weight: nil, reps: 0,
                            durationSeconds: UInt32(300 + random.below(900)),
                            distanceMeters: metres)), after: 10)
                continue
            }
            let base = working[exercise] ?? Double(20 + random.below(60))
            let limit = ceiling[exercise] ?? base + Double(40 + random.below(120))
            ceiling[exercise] = limit
            var next = max(5, base + Double(random.below(7) - 2) * 0.5)
            // A deload, one session in twenty and whenever the heaviest is passed: a tenth lighter, to climb again.
            if next > limit || random.chance(5) { next = max(5, (base * 0.9 * 2).rounded() / 2) }
            working[exercise] = next
            if random.chance(50) {
                setNumber += 1
                add(
                    SetLogged(
                        setNumber: setNumber,
                        set: SetDetails(exerciseId: exercise, weight: weight(next * 0.5), reps: 10, kind: .warmup)),
                    after: 2)
            }
            for index in 0..<3 {
                setNumber += 1
                let kind: SetKind = index == 2 && random.chance(10) ? (random.chance(50) ? .drop : .failure) : .normal
                let rpe = random.chance(50) ? RPE(Double(14 + random.below(7)) / 2) : nil
                add(
                    SetLogged(
                        setNumber: setNumber,
                        set: SetDetails(
                            exerciseId: exercise, weight: weight(next), reps: UInt32(4 + random.below(7)), kind: kind,
                            rpe: rpe)), after: 2.5)
                let endsAt = Timestamp(microsecondsSinceEpoch: time + offset + 120_000_000)
                add(RestTimerStarted(durationSeconds: 120, endsAt: endsAt, afterSet: setNumber))
                switch random.below(5) {
                case 0:
                    add(
                        RestTimerExtended(
                            bySeconds: 30,
                            endsAt: Timestamp(microsecondsSinceEpoch: endsAt.microsecondsSinceEpoch + 30_000_000)),
                        after: 1)
                case 1: add(RestTimerSkipped(), after: 1)
                default: add(RestTimerFinished(endedAt: endsAt), after: 2)
                }
            }
            lastExercise = exercise
        }
        if random.chance(5) {
            add(WorkoutPaused(), after: 1)
            add(WorkoutResumed(), after: 5)
        }
        if random.chance(3) { add(ExerciseMoved(exerciseId: exercises[0], toIndex: 2)) }
        if random.chance(3) {
            add(SetCorrected(setNumber: 1, set: SetDetails(exerciseId: exercises[0], weight: weight(60), reps: 8)))
        }
        if random.chance(2) { add(SetRemoved(setNumber: 2)) }
        if random.chance(2) { add(ExerciseRemoved(exerciseId: exercises[exercises.count - 1])) }
        if random.chance(4) {
            add(WorkoutDiscarded(), after: 1)
            if let lastSetAt = events.last(where: { $0.type == SetLogged.typeName })?.occurredAt {
                lastDiscarded = ((stream, time, setNumber, lastExercise), lastSetAt)
            }
        } else {
            add(WorkoutFinished(note: random.chance(10) ? "felt good" : nil), after: 5)
            finished.append((stream, time, setNumber, lastExercise))
            // People correct recent workouts: changes pick among the last hundred.
            if finished.count > 100 { finished.removeFirst() }
        }
        return (stream, events)
    }

    /// A weight rounded to 0.5 kg; one set in ten entered in pounds.
    private mutating func weight(_ kilograms: Double) -> Weight {
        if random.chance(10) {
            return Weight(ExactDecimal(significand: Int64((kilograms * 2.2046 * 2).rounded()) * 5, scale: 1)!, .pounds)
        }
        return Weight(ExactDecimal(significand: Int64((kilograms * 2).rounded()) * 5, scale: 1)!, .kilograms)
    }
}
