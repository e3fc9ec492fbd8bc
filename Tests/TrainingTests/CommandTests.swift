import EventJournal
import Foundation
import Testing

@testable import Training

struct CommandTests {
    /// Both callers load the state before either appends (the clock, read between the two, waits for both), so both
    /// see no workout in progress: the expected version must make exactly one start win.
    @Test func racingStartsLeaveExactlyOneWorkoutActive() async throws {
        let test = try TestJournal()
        let arrivals = Mutex(0)
        let barrier: @Sendable () -> Timestamp = {
            let arrived = arrivals.withLock { count -> Int in
                count += 1
                return count
            }
            if arrived <= 2 {
                while arrivals.withLock({ $0 }) < 2 { usleep(1_000) }
            }
            return .now()
        }
        let first = try TrainingLog(journal: test.journal, clock: barrier)
        let second = try TrainingLog(journal: test.journal, clock: barrier)
        async let a = trainingError { try await first.start(name: "A") }
        async let b = trainingError { try await second.start(name: "B") }
        let outcomes = await [a, b]
        #expect(outcomes.filter { $0 == nil }.count == 1)
        #expect(outcomes.compactMap { $0?.code } == [.workoutInProgress])
        #expect(try first.query { try $0.activeWorkout() } != nil)
        #expect(try test.journal.head().position == 1, "one WorkoutStarted, nothing else")
    }

    /// Records the training fold does not decode still count for the streams' versions and the workout numbers.
    @Test func foreignRecordsInTrainingStreamsDoNotBlockCommands() async throws {
        let test = try TestJournal()
        func foreign() -> ProposedEvent { ProposedEvent(type: "Note", encoding: .json, payload: Array("{}".utf8)) }
        _ = try await test.journal.append([foreign()], to: "profile")
        _ = try await test.journal.append([foreign()], to: "workout-1")
        let log = try TrainingLog(journal: test.journal)
        try await log.updateProfile(ProfileUpdated(name: "Ana"))
        #expect(try await log.start() == "workout-2")
        #expect(try test.journal.version(of: "profile") == 2)
    }

    /// A schedule an older version recorded with a name new routines cannot have (`-Legs`) can be set again as it is;
    /// a new such name is refused.
    @Test func aScheduleNameFromBeforeTheRuleStands() async throws {
        let test = try TestJournal()
        let old = Schedule(.weekdays(["-Legs", nil, nil, nil, nil, nil, nil]))
        _ = try await test.journal.append([old.event.proposed()], to: "schedule")
        let log = try TrainingLog(journal: test.journal)
        try await log.setSchedule(Schedule(.weekdays([nil, "-Legs", nil, nil, nil, nil, nil])))
        #expect(
            await trainingError {
                try await log.setSchedule(Schedule(.weekdays(["-Push", nil, nil, nil, nil, nil, nil])))
            }?
            .message == "a routine's name cannot hold a comma or begin with -: \"-Push\"")
    }

    /// A routine named at more than 100 characters by an older version, which took such names (with its first
    /// exercise, as `routine add` makes a routine), stays usable: exercises are added to it and a schedule names it; a
    /// new routine of such a name is refused.
    @Test func aLongRoutineNameRecordedBeforeTheLimitStaysUsable() async throws {
        let test = try TestJournal()
        let name = String(repeating: "a", count: 150)
        let id = Routine.id(forName: name)
        let bench = RoutineExerciseAdded(
            exerciseId: "Barbell_Bench_Press_-_Medium_Grip", exerciseName: "Barbell Bench Press - Medium Grip",
            targetSets: 3, minimumReps: 5, maximumReps: 5, restSeconds: 120)
        _ = try await test.journal.append(
            [RoutineCreated(routineId: id, name: name).proposed(), bench.proposed()], to: Routine.streamID(id))
        let log = try TrainingLog(journal: test.journal)
        #expect(
            try await log.addToRoutine(name, exercise: "squat", sets: 3, reps: 5...5, restSeconds: 120)
                == (name, "Barbell Squat", false))
        try await log.setSchedule(Schedule(.weekdays([name, nil, nil, nil, nil, nil, nil])))
        let longer = name + "b"
        #expect(
            await trainingError {
                try await log.addToRoutine(longer, exercise: "squat", sets: 3, reps: 5...5, restSeconds: 120)
            }?.message == "a routine's name is at most 100 characters")
        #expect(
            await trainingError {
                try await log.setSchedule(Schedule(.weekdays([longer, nil, nil, nil, nil, nil, nil])))
            }?
            .message == "a routine's name is at most 100 characters")
    }

    @Test func refusedCommandsWriteNothing() async throws {
        let test = try TestJournal()
        let log = try TrainingLog(journal: test.journal)
        #expect(
            await trainingError { try await log.logSet(SetRequest(exercise: "squat", weight: nil, reps: 5)) }?.code
                == .noActiveWorkout)
        try await log.start()
        try await log.logSet(SetRequest(exercise: "squat", weight: weight("100"), reps: 5))
        let head = try test.journal.head().position
        let refusals: [(TrainingError.Code, @Sendable () async throws -> Void)] = [
            (.workoutInProgress, { try await log.start() }),
            (.unknownExercise, { try await log.logSet(SetRequest(exercise: "squaat presss", weight: nil, reps: 5)) }),
            (
                .needsConfirmation,
                { try await log.logSet(SetRequest(exercise: "squat", weight: weight("500.5"), reps: 5)) }
            ),
            (.notFound, { try await log.removeSet(9) }),
            (.alreadyDone, { try await log.resume() }),
            (.notAllowed, { try await log.extendRest(by: 10) }),
        ]
        for (code, command) in refusals {
            #expect(await trainingError(command)?.code == code)
        }
        #expect(try test.journal.head().position == head)
        // 500 kg is exactly five times 100: allowed without confirming; 500.5 was not.
        try await log.logSet(SetRequest(exercise: "squat", weight: weight("500"), reps: 1))
        try await log.logSet(SetRequest(exercise: "deadlift", weight: weight("20"), reps: 5))
        let jump = SetRequest(exercise: "deadlift", weight: weight("150"), reps: 5)
        #expect(await trainingError { try await log.logSet(jump) }?.code == .needsConfirmation)
        var confirmed = jump
        confirmed.confirmed = true
        try await log.logSet(confirmed)
        // A warm-up is not what the next set is compared with: 180 kg after an empty bar needs no confirming, being
        // 1.2 times the 150 before it.
        try await log.logSet(SetRequest(exercise: "deadlift", weight: weight("20"), reps: 5, kind: .warmup))
        try await log.logSet(SetRequest(exercise: "deadlift", weight: weight("180"), reps: 5))
        let absurd = SetRequest(exercise: "deadlift", weight: weight("2600", .pounds), reps: 1, confirmed: true)
        #expect(await trainingError { try await log.logSet(absurd) }?.code == .invalidValue, "1179 kg")
        let negative = SetRequest(exercise: "deadlift", weight: weight("-5"), reps: 1)
        #expect(await trainingError { try await log.logSet(negative) }?.code == .invalidValue)
    }

    @Test func aWeightFiveTimesThePreviousIsCheckedInCorrectionsAndPastSetsOfNoWeight() async throws {
        let test = try TestJournal()
        let log = try TrainingLog(journal: test.journal)
        try await log.start()
        try await log.logSet(SetRequest(exercise: "squat", weight: weight("100"), reps: 5))
        try await log.logSet(SetRequest(exercise: "squat", weight: weight("0"), reps: 5))
        // A set of 0 kg says nothing of the working weight: 600 kg is six times the 100 before it, which the message
        // names as the last set with a weight, not as the last set.
        let jump = SetRequest(exercise: "squat", weight: weight("600"), reps: 1)
        let refusal = await trainingError { try await log.logSet(jump) }
        #expect(refusal?.code == .needsConfirmation)
        #expect(
            refusal?.message
                == "600 kg of Barbell Squat is more than five times the last working set with a weight (100 kg)")
        try await log.logSet(SetRequest(exercise: "squat", weight: weight("10"), reps: 5, confirmed: true))
        let head = try test.journal.head().position
        // Set 3's 10 kg, a typo for 100, is corrected to 100 without confirming: it is compared with set 1's 100, not
        // with the 10 it replaces. 900 kg is nine times 100 and needs confirming, as a logged set does.
        try await log.correctSet(3, SetCorrection(weight: .some(weight("100"))))
        #expect(try test.journal.head().position == head + 1)
        let typo = SetCorrection(weight: .some(weight("900")))
        #expect(await trainingError { try await log.correctSet(2, typo) }?.code == .needsConfirmation)
        #expect(try test.journal.head().position == head + 1)
        var confirmed = typo
        confirmed.confirmed = true
        try await log.correctSet(2, confirmed)
        #expect(try test.journal.head().position == head + 2)
        // 120 kg after 20 kg, confirmed, then put right as 122.5: no jump from the 120 it replaces, though six times the
        // 20 before it, so no confirming.
        try await log.logSet(SetRequest(exercise: "deadlift", weight: weight("20"), reps: 10))
        try await log.logSet(SetRequest(exercise: "deadlift", weight: weight("120"), reps: 5, confirmed: true))
        try await log.correctSet(5, SetCorrection(weight: .some(weight("122.5"))))
        let deadlift = try #require(try log.query { try $0.activeWorkout() }).sets.last
        #expect(deadlift?.number == 5 && deadlift?.details.weight == weight("122.5"))
    }

    /// A correction that gives a value and takes it off at once is refused, writing nothing (the command line refuses
    /// the options together before it comes here).
    @Test func aValueBothGivenAndClearedIsRefused() async throws {
        let test = try TestJournal()
        let log = try TrainingLog(journal: test.journal)
        try await log.start()
        try await log.logSet(SetRequest(exercise: "plank", weight: nil, reps: 0, durationSeconds: 60))
        let head = try test.journal.head().position
        let both = SetCorrection(durationSeconds: 90, clearing: [.time])
        let refusal = await trainingError { try await log.correctSet(1, both) }
        #expect(refusal?.message == "the set's time is both given and cleared")
        #expect(try test.journal.head().position == head)
    }

    /// A workout's first set of an exercise, mistyped and put right after later workouts: no set comes before it, and
    /// the weight it replaces is the typo. It is compared with the exercise's other sets too: 19 kg put right as
    /// 100 kg is no jump from the later workout's 100 kg. 600 kg is six times that, and needs confirming.
    @Test func aFirstSetPutRightIsComparedWithTheSetsAfterIt() async throws {
        let test = try TestJournal()
        let log = try TrainingLog(journal: test.journal)
        for _ in 1...2 {
            try await log.start()
            try await log.logSet(SetRequest(exercise: "bench press", weight: weight("100"), reps: 5))
            try await log.finish()
        }
        try await log.correctSet(1, in: "workout-1", SetCorrection(weight: .some(weight("19"))))
        try await log.correctSet(1, in: "workout-1", SetCorrection(weight: .some(weight("100"))))
        let refusal = await trainingError {
            try await log.correctSet(1, in: "workout-1", SetCorrection(weight: .some(weight("600"))))
        }
        #expect(
            refusal?.message
                == "600 kg of Barbell Bench Press - Medium Grip is more than five times the heaviest of the set "
                + "before it, its latest other set and the weight it replaces (100 kg)")
    }

    @Test func exercisesAreTakenOutAndMovedInAWorkout() async throws {
        let test = try TestJournal()
        let log = try TrainingLog(journal: test.journal)
        let id = try await log.start()
        try await log.logSet(SetRequest(exercise: "squat", weight: weight("100"), reps: 5))
        try await log.addExercise("bench press")
        try await log.addExercise("deadlift")
        func exercises() throws -> [String] { try #require(try log.query { try $0.workout(id) }).exercises.map(\.name) }
        #expect(try exercises() == ["Barbell Squat", "Barbell Bench Press - Medium Grip", "Barbell Deadlift"])
        #expect(try await log.moveExercise("deadlift", to: 1).moved)
        #expect(try exercises() == ["Barbell Deadlift", "Barbell Squat", "Barbell Bench Press - Medium Grip"])
        // Already there: nothing is written.
        let unmoved = try test.journal.head().position
        #expect(try await log.moveExercise("deadlift", to: 1).moved == false)
        #expect(try test.journal.head().position == unmoved)
        // An exercise with a set is taken out only with its sets; one that is not in the workout, not at all.
        let before = try test.journal.head().position
        #expect(await trainingError { try await log.removeExercise("squat") }?.code == .notAllowed)
        #expect(await trainingError { try await log.removeExercise("front squat") }?.code == .notFound)
        #expect(await trainingError { try await log.moveExercise("deadlift", to: 4) }?.code == .invalidValue)
        #expect(try test.journal.head().position == before)
        #expect(try await log.removeExercise("bench press").sets == 0)
        #expect(try await log.removeExercise("squat", withSets: true).sets == 1)
        #expect(try exercises() == ["Barbell Deadlift"])
        // Its set is removed with it: added back, the squat has none.
        let workout = try #require(try log.query { try $0.workout(id) })
        #expect(workout.countedSets.isEmpty && workout.sets.map(\.isRemoved) == [true])
        try await log.addExercise("squat")
        #expect(try #require(try log.query { try $0.workout(id) }).countedSets.isEmpty)
        try await log.removeExercise("squat")
        // A workout with no set that counts is not finished.
        #expect(await trainingError { try await log.finish() }?.code == .notAllowed)
        try await log.logSet(SetRequest(exercise: "deadlift", weight: weight("60"), reps: 5))
        try await log.finish()
        #expect(try log.query { try $0.history().map(\.volume) } == [300_000_000], "60 × 5; not the squat's 100 × 5")
        // The deadlift's set is the finished workout's last: it is not taken out, nor removed alone; the workout is to
        // be deleted.
        let head = try test.journal.head().position
        let emptying = await trainingError { try await log.removeExercise("deadlift", withSets: true) }
        #expect(emptying?.code == .notAllowed && emptying?.remedy.contains("liftledger delete") == true)
        let lastSet = try #require(try log.query { try $0.workout(id) }).countedSets.first!.number
        let removing = await trainingError { try await log.removeSet(lastSet, in: id) }
        #expect(removing?.code == .notAllowed && removing?.remedy.contains("liftledger delete") == true)
        #expect(try test.journal.head().position == head)
    }

    @Test func aCorrectionIsComparedWithTheWeightsBeforeItNotAfter() async throws {
        let test = try TestJournal()
        let clock = ManualClock("2026-11-20T18:00:00Z")
        let log = try TrainingLog(journal: test.journal, clock: clock.function)
        try await log.start()
        try await log.logSet(SetRequest(exercise: "squat", weight: weight("50"), reps: 5))
        try await log.finish()
        clock.advance(seconds: 86_400)
        try await log.start()
        try await log.logSet(SetRequest(exercise: "squat", weight: weight("200"), reps: 5, confirmed: true))
        try await log.logSet(SetRequest(exercise: "squat", weight: weight("100"), reps: 5))
        // Workout 1's 50 kg made 400 is eight times the 50 it replaces, with nothing before it: the 200 kg of workout
        // 2, later, does not vouch for it. Workout 2's set 2, 100 made 900, is four and a half times the 200 before it.
        let jump = await trainingError {
            try await log.correctSet(1, in: "1", SetCorrection(weight: .some(weight("400"))))
        }
        #expect(jump?.code == .needsConfirmation)
        try await log.correctSet(2, SetCorrection(weight: .some(weight("900"))))
        #expect(try #require(try log.query { try $0.activeWorkout() }).sets.last?.details.weight == weight("900"))
    }

    @Test func aDiscardedWorkoutTakesNoChanges() async throws {
        let test = try TestJournal()
        let log = try TrainingLog(journal: test.journal)
        let id = try await log.start()
        try await log.logSet(SetRequest(exercise: "squat", weight: weight("100"), reps: 5))
        try await log.logSet(SetRequest(exercise: "bench press", weight: weight("80"), reps: 5))
        try await log.discard()
        let head = try test.journal.head().position
        let changes: [@Sendable () async throws -> Void] = [
            { try await log.correctSet(1, in: id, SetCorrection(reps: 6)) },
            { try await log.removeSet(1, in: id) },
            { try await log.removeExercise("squat", in: id, withSets: true) },
            { try await log.moveExercise("bench press", to: 1, in: id) },
        ]
        for change in changes {
            let error = await trainingError(change)
            #expect(error?.code == .notAllowed && error?.message.hasSuffix("was discarded") == true)
        }
        #expect(try test.journal.head().position == head)
    }

    /// A discarded workout that is deleted too (`delete` took discarded workouts once; the tombstone is appended here
    /// as such a build wrote it) is brought back by one `WorkoutRestored`, which finishes it when `finish --at last`
    /// would have as it was discarded. By hand: a set at 18:10, a rest started at 18:12 and moved at 18:13, the
    /// discard at 18:20: the rest still ran then, so the end is its last change, 18:13. A second restore is refused.
    @Test func aDiscardedAndDeletedWorkoutIsRestoredOnceAtTheEndFinishWouldGive() async throws {
        let test = try TestJournal()
        let clock = ManualClock("2026-11-20T18:00:00Z")
        let log = try TrainingLog(journal: test.journal, clock: clock.function)
        let id = try await log.start()
        clock.set("2026-11-20T18:10:00Z")
        try await log.logSet(SetRequest(exercise: "squat", weight: weight("100"), reps: 5))
        clock.set("2026-11-20T18:12:00Z")
        try await log.startRest(seconds: 120)
        clock.set("2026-11-20T18:13:00Z")
        try await log.extendRest(by: 60)
        clock.set("2026-11-20T18:20:00Z")
        try await log.discard()
        _ = try await test.journal.append([WorkoutDeleted().proposed()], to: id, expectedVersion: .any)
        #expect(try log.query { try $0.workout(id)?.isRestorable } == true)
        clock.set("2026-11-20T18:30:00Z")
        let end = try #require(Timestamp(rfc3339: "2026-11-20T18:13:00Z"))
        #expect(try await log.restoreWorkout(id) == .finished(at: end))
        let restored = try log.query { try $0.workout(id) }
        #expect(restored?.counts == true && restored?.finishedAt == end && restored?.isDeleted == false)
        let again = await trainingError { _ = try await log.restoreWorkout(id) }
        #expect(again?.code == .alreadyDone && again?.message == "\(id) is in the history already")
    }

    @Test func correctionsRemovalsEditsAndDeletion() async throws {
        let test = try TestJournal()
        let clock = ManualClock("2026-11-20T18:00:00Z")
        let log = try TrainingLog(journal: test.journal, clock: clock.function)
        try await log.start()
        try await log.logSet(SetRequest(exercise: "bench press", weight: weight("100"), reps: 5))
        try await log.logSet(SetRequest(exercise: "bench press", weight: weight("100"), reps: 4))
        try await log.correctSet(2, SetCorrection(weight: .some(weight("95")), reps: 5, rpe: RPE(9)))
        try await log.removeSet(1)
        clock.advance(seconds: 1_200)
        let id = try await log.finish(note: "ok")
        clock.advance(seconds: 3_600)
        // Moved, the 20-minute workout must start in 2000 or later and end by now (19:20): from 19:10 it would end at
        // 19:30.
        let head = try test.journal.head().position
        for start in ["1999-12-31T23:00:00Z", "2026-11-20T19:10:00Z"] {
            let moved = Timestamp(rfc3339: start)
            #expect(
                await trainingError { try await log.editWorkout(id, startedAt: moved, note: nil, name: nil) }?.code
                    == .invalidValue, "\(start)")
        }
        #expect(try test.journal.head().position == head)
        try await log.editWorkout(id, startedAt: Timestamp(rfc3339: "2026-11-20T19:00:00Z"), note: nil, name: nil)
        try await log.editWorkout(id, startedAt: Timestamp(rfc3339: "2026-11-19T07:00:00Z"), note: nil, name: "Early")
        var workout = try #require(try log.query { try $0.workout(id) })
        #expect(workout.countedSets.map(\.details.weight) == [weight("95")])
        #expect(workout.countedSets.first?.details.rpe == RPE(9))
        #expect(workout.name == "Early" && workout.note == "ok")
        #expect(workout.startedAt == Timestamp(rfc3339: "2026-11-19T07:00:00Z"))
        // An empty note clears it; cleared, an empty note again changes nothing and writes nothing.
        try await log.editWorkout(id, startedAt: nil, note: "", name: nil)
        #expect(try log.query { try $0.workout(id) }?.note == nil)
        #expect(try log.query { try $0.history() }.first?.note == nil)
        let cleared = try test.journal.head().position
        #expect(try await log.editWorkout(id, startedAt: nil, note: "", name: nil) == false)
        #expect(try test.journal.head().position == cleared)
        try await log.deleteWorkout("1")
        workout = try #require(try log.query { try $0.workout(id) })
        #expect(workout.isDeleted)
        #expect(try log.query { try $0.lastCountedWorkout() } == nil)
    }

    @Test func routinesAndSchedules() async throws {
        let test = try TestJournal()
        let log = try TrainingLog(journal: test.journal)
        try await log.addToRoutine("Pull", exercise: "pull up", sets: 3, reps: 5...8, restSeconds: 120)
        try await log.addToRoutine("Pull", exercise: "barbell row", sets: 3, reps: 8...12, restSeconds: 90)
        #expect(try await log.moveInRoutine("pull", exercise: "barbell row", to: 1) == ("Pull", true))
        var routine = try #require(try log.query { try $0.routine(named: "Pull") })
        #expect(routine.exercises.count == 2)
        let rowID = try log.query { try $0.catalog() }.lookup("barbell row")!.id
        #expect(routine.exercises.first?.exerciseId == rowID)
        // Moved to the place it has: nothing written.
        let unmoved = try test.journal.head()
        #expect(try await log.moveInRoutine("pull", exercise: "barbell row", to: 1) == ("Pull", false))
        #expect(try test.journal.head() == unmoved)
        try await log.removeFromRoutine("Pull", exercise: "pull up")
        routine = try #require(try log.query { try $0.routine(named: "pull") })
        #expect(routine.exercises.map(\.exerciseId) == [rowID])
        // Targets changed in place: the row, first of two, stays first, with its sets and rest; the same again writes
        // nothing.
        try await log.addToRoutine("Pull", exercise: "pull up", sets: 3, reps: 5...8, restSeconds: 120)
        #expect(try await log.editRoutineExercise("pull", exercise: "barbell row", reps: 6...10) == ("Pull", true))
        routine = try #require(try log.query { try $0.routine(named: "pull") })
        #expect(
            routine.exercises.map(\.exerciseId) == [rowID, try log.query { try $0.catalog() }.lookup("pull up")!.id])
        let row = routine.exercises[0]
        #expect([row.targetSets, row.minimumReps, row.maximumReps, row.restSeconds] == [3, 6, 10, 90])
        let edited = try test.journal.head()
        #expect(try await log.editRoutineExercise("Pull", exercise: "barbell row", sets: 3) == ("Pull", false))
        #expect(try test.journal.head() == edited)
        try await log.removeFromRoutine("Pull", exercise: "pull up")
        // A rest of 0 s is refused, as `rest 0` is: a routine's rest starts the timer.
        let head = try test.journal.head().position
        let noRest = await trainingError {
            try await log.addToRoutine("Pull", exercise: "pull up", sets: 3, reps: 5...8, restSeconds: 0)
        }
        #expect(noRest?.code == .invalidValue)
        #expect(try test.journal.head().position == head)

        // The default plan, by hand: 2026-11-23 is a Monday (2026-11-22 is a Sunday).
        let schedule = try log.query { try $0.schedule() }
        #expect(LocalDate("2026-11-23")!.weekdayName == "Monday")
        #expect(schedule.due(on: LocalDate("2026-11-23")!) == "Legs")
        #expect(schedule.due(on: LocalDate("2026-11-24")!) == "Push")
        #expect(schedule.due(on: LocalDate("2026-11-28")!) == "Pull")
        #expect(schedule.due(on: LocalDate("2026-11-22")!) == nil)

        // A 4-day split from 2026-11-01: day 1 Push, 2 rest, 3 Pull, 4 Legs; the 22nd is 21 days on, 21 mod 4 = 1.
        #expect(
            try await log.setSchedule(Schedule(.split(["Push", nil, "Pull", "Legs"], start: LocalDate("2026-11-01")!))))
        // The schedule in force, set again: nothing written.
        let scheduled = try test.journal.head()
        #expect(
            !(try await log.setSchedule(
                Schedule(.split(["Push", nil, "Pull", "Legs"], start: LocalDate("2026-11-01")!)))))
        #expect(try test.journal.head() == scheduled)
        let split = try log.query { try $0.schedule() }
        #expect(split.due(on: LocalDate("2026-11-01")!) == "Push")
        #expect(split.due(on: LocalDate("2026-11-22")!) == nil)
        #expect(split.due(on: LocalDate("2026-11-24")!) == "Legs")
        #expect(split.due(on: LocalDate("2026-10-31")!) == "Legs", "the day before day 1 is day 4")
    }

    /// A routine whose exercises are all taken out, one by one or by `deleteRoutine`, is listed, found and started
    /// from no more; a workout done from it is still found by it in the history, and adding to it again makes it anew.
    /// Deleting one that is not there writes nothing.
    @Test func aDeletedRoutineIsGoneButItsWorkoutsKeepIt() async throws {
        let test = try TestJournal()
        let log = try TrainingLog(journal: test.journal)
        try await log.addToRoutine("Pull", exercise: "pull up", sets: 3, reps: 5...8, restSeconds: 120)
        try await log.addToRoutine("Pull", exercise: "barbell row", sets: 3, reps: 8...12, restSeconds: 90)
        // Blanks around a new routine's name are no part of it.
        #expect(
            try await log.addToRoutine("  Legs  ", exercise: "squat", sets: 5, reps: 5...5, restSeconds: 180)
                == ("Legs", "Barbell Squat", true))
        try await log.start(routine: "Pull")
        try await log.logSet(SetRequest(exercise: "pull up", weight: nil, reps: 5))
        try await log.finish()
        #expect(try await log.deleteRoutine("pull") == ("Pull", 2))
        #expect(try log.query { try $0.routines() }.map(\.name) == ["Legs"])
        #expect(try log.query { try $0.routine(named: "Pull") } == nil)
        #expect(try log.query { try $0.routine(named: "Pull", includingDeleted: true) }?.exercises == [])
        let starting = await trainingError { try await log.start(routine: "Pull") }
        #expect(starting?.code == .notFound)
        let head = try test.journal.head()
        let again = await trainingError { try await log.deleteRoutine("Pull") }
        #expect(again?.code == .notFound)
        #expect(try test.journal.head() == head)
        // Taking out the last exercise by hand deletes it too.
        try await log.removeFromRoutine("Legs", exercise: "squat")
        #expect(try log.query { try $0.routines() }.isEmpty)
        try await log.addToRoutine("Pull", exercise: "chin up", sets: 3, reps: 5...8, restSeconds: 120)
        let made = try #require(try log.query { try $0.routine(named: "Pull") })
        #expect(made.exercises.map(\.exerciseName) == ["Chin-Up"])
    }

    /// A routine an older version made of a name with an emoji's variation selector has the id it gave then (the
    /// selector kept after a hyphen), and is still found by its name, with or without the selector.
    @Test func aRoutineMadeBeforeInvisibleCharactersWereLeftOutIsStillFound() async throws {
        let test = try TestJournal()
        let oldID = "push-\u{FE0F}"
        #expect(Routine.id(forName: "Push 💪\u{FE0F}") == "push")
        let bench = RoutineExerciseAdded(
            exerciseId: "Barbell_Bench_Press_-_Medium_Grip", exerciseName: "Barbell Bench Press - Medium Grip",
            targetSets: 3, minimumReps: 5, maximumReps: 5, restSeconds: 120)
        _ = try await test.journal.append(
            [RoutineCreated(routineId: oldID, name: "Push 💪\u{FE0F}").proposed(), bench.proposed()],
            to: Routine.streamID(oldID))
        let log = try TrainingLog(journal: test.journal)
        #expect(try log.query { try $0.routine(named: "Push 💪\u{FE0F}") }?.id == oldID)
        #expect(try log.query { try $0.routine(named: "push") }?.id == oldID)
    }

    /// A routine an older version made of a fullwidth name has the id it gave then (`ｐｕｓｈ`, where names now fold to
    /// `push`), and is still found by its name: shown, added to (not made again under the new id) and started, though a
    /// routine `Push` of the folded id stands beside it; a workout started from it gets its targets, not `Push`'s.
    /// Alone, it is found by its name in ASCII too: `Push` made a second routine beside it.
    @Test func aRoutineOfAFullwidthNameMadeBeforeWidthFoldingIsStillFound() async throws {
        let test = try TestJournal()
        let oldID = "ｐｕｓｈ"
        #expect(Routine.id(forName: "Ｐｕｓｈ") == "push")
        let bench = RoutineExerciseAdded(
            exerciseId: "Barbell_Bench_Press_-_Medium_Grip", exerciseName: "Barbell Bench Press - Medium Grip",
            targetSets: 3, minimumReps: 5, maximumReps: 5, restSeconds: 120)
        _ = try await test.journal.append(
            [RoutineCreated(routineId: oldID, name: "Ｐｕｓｈ").proposed(), bench.proposed()],
            to: Routine.streamID(oldID))
        let log = try TrainingLog(journal: test.journal)
        #expect(try log.query { try $0.routine(named: "push") }?.id == oldID)
        #expect(
            try await log.addToRoutine("Push", exercise: "dips", sets: 3, reps: 8...12, restSeconds: 90) == (
                "Ｐｕｓｈ", "Dips - Triceps Version", false
            ))
        // A routine of the folded id, as this version's `routine add Push` made one beside it before.
        let squat = RoutineExerciseAdded(
            exerciseId: "Barbell_Squat", exerciseName: "Barbell Squat", targetSets: 5, minimumReps: 5, maximumReps: 5,
            restSeconds: 240)
        _ = try await test.journal.append(
            [RoutineCreated(routineId: "push", name: "Push").proposed(), squat.proposed()],
            to: Routine.streamID("push"))
        #expect(try log.query { try $0.routine(named: "Ｐｕｓｈ") }?.id == oldID)
        #expect(try log.query { try $0.routine(named: "Push") }?.id == "push")
        #expect(
            try await log.addToRoutine("Ｐｕｓｈ", exercise: "squat", sets: 3, reps: 8...12, restSeconds: 90) == (
                "Ｐｕｓｈ", "Barbell Squat", false
            ))
        #expect(
            try log.query { try $0.routines() }.map { [$0.id, String($0.exercises.count)] } == [
                [oldID, "3"], ["push", "1"],
            ])
        try await log.start(routine: "Ｐｕｓｈ")
        let session = try #require(try log.activeSession())
        #expect(session.workout.routineId == oldID)
        #expect(session.exercises.map { $0.target?.targetSets } == [3, 3, 3])
    }

    /// A custom exercise is recorded as free-exercise-db writes one: each muscle once (the chest, given as primary
    /// twice and as secondary, is primary once; the triceps once), the force in lower case, and no equipment for an
    /// empty one.
    @Test func aCustomExerciseIsRecordedAsTheCatalogWritesOne() async throws {
        let test = try TestJournal()
        let log = try TrainingLog(journal: test.journal)
        let added = try await log.addCustomExercise(
            CustomExerciseAdded(
                exerciseId: "", name: "Foo Press", primaryMuscles: ["chest", "chest"],
                secondaryMuscles: ["chest", "triceps", "triceps"], equipment: " ", force: "PUSH"))
        #expect(added.primaryMuscles == ["chest"] && added.secondaryMuscles == ["triceps"])
        #expect(added.equipment == nil && added.force == "push")
    }

    /// A weight 2.2 times the exercise's weight before it, within 5%, or a 2.2th, reads as typed in the other unit. By
    /// hand: 185 kg after 82.5 kg is 2.242 times, and 2.242 × 0.45359237 = 1.017, within 5% of 1: 185 lb meant. 100 kg
    /// after 185 kg is 0.54 times: none. In pounds, 80 lb after 180 lb is 0.444 times, 0.444 ÷ 0.45359237 = 0.980: 80
    /// kg meant.
    @Test func aWeightTypedInTheOtherUnitIsTold() async throws {
        let test = try TestJournal()
        let log = try TrainingLog(journal: test.journal)
        func kilograms(_ text: String) -> Weight { Weight(ExactDecimal(text)!, .kilograms) }
        func pounds(_ text: String) -> Weight { Weight(ExactDecimal(text)!, .pounds) }
        func slip(_ number: UInt32) throws -> Weight? {
            try log.query {
                try $0.weightMeantInTheOtherUnit(by: number, of: try #require(try $0.activeWorkout()))?.meant
            }
        }
        try await log.start()
        try await log.logSet(SetRequest(exercise: "bench press", weight: kilograms("82.5"), reps: 8))
        #expect(try slip(1) == nil)
        try await log.logSet(SetRequest(exercise: "bench press", weight: kilograms("185"), reps: 5, confirmed: true))
        #expect(try slip(2) == pounds("185"))
        try await log.logSet(SetRequest(exercise: "bench press", weight: kilograms("100"), reps: 5))
        #expect(try slip(3) == nil)
        try await log.logSet(SetRequest(exercise: "squat", weight: pounds("180"), reps: 5))
        try await log.logSet(SetRequest(exercise: "squat", weight: pounds("80"), reps: 5))
        #expect(try slip(5) == kilograms("80"))
    }

    /// Body weights are listed by when they were taken, one recorded later but taken earlier (`--at`) first, from the
    /// read model and from the `profile` stream alike.
    @Test func bodyWeightsAreInTheOrderTheyWereTaken() async throws {
        let test = try TestJournal()
        let log = try TrainingLog(journal: test.journal)
        try await log.updateProfile(ProfileUpdated(), bodyWeight: weight("80"))
        try await log.updateProfile(
            ProfileUpdated(), bodyWeight: weight("82"), at: Timestamp(rfc3339: "2026-01-05T07:00:00Z")!)
        let expected = [weight("82"), weight("80")]
        #expect(try Profile.recorded(in: test.journal).bodyWeights.map(\.weight) == expected)
        #expect(try log.query { try $0.profile() }.bodyWeights.map(\.weight) == expected)
    }

    @Test func localDatesRoundTripThroughDayNumbers() {
        for text in ["1970-01-01", "2000-02-29", "2026-11-22", "1969-12-31", "2100-03-01"] {
            let date = LocalDate(text)!
            #expect(LocalDate(dayNumber: date.dayNumber) == date)
            #expect(date.description == text)
        }
        #expect(LocalDate("1970-01-02")!.dayNumber == 1)
        #expect(LocalDate("2026-02-29") == nil)
        // No year 0, and only ASCII digits: `+999` read as the year 999.
        #expect(
            ["0000-01-01", "+999-01-01", "2026-+1-01", "0001-01-01"].map { LocalDate($0)?.description } == [
                nil, nil, nil, "0001-01-01",
            ])
    }
}
