import EventJournal
import Foundation
import TestSupport
import Testing

@testable import Training

/// Rows leave out what their keys or their other fields hold; these check that what is left out comes back.
struct ReadModelRowTests {
    let start = Timestamp(rfc3339: "2026-11-22T18:00:00Z")!

    /// docs/FORMAT.md describes the rows of the training fold's current code version, and says which version that is:
    /// a reader of the file would otherwise take every read model for one built by other code.
    @Test func theFormatDocumentNamesTheFoldsCodeVersion() throws {
        let format = try String(contentsOfFile: repositoryRoot + "/docs/FORMAT.md", encoding: .utf8)
        let version = TrainingProjection(rules: Rules(), workoutEvents: nil).version
        #expect(format.contains("These are the rows of code version \(version) of `training`"))
    }

    /// A workout's set names its exercise by index when the exercise is among the workout's, and by id when it was
    /// removed; an exercise's name is stored only when it differs from its id.
    @Test func aWorkoutComesBackAsItWasStored() throws {
        var workout = Workout(
            id: "workout-7", started: WorkoutStarted(name: "Legs"), at: start, recordedAt: start)
        let time = Timestamp(microsecondsSinceEpoch: start.microsecondsSinceEpoch + 60_000_000)
        let events: [TrainingEvent] = [
            .exerciseAdded(ExerciseAdded(exerciseId: "Barbell_Squat", exerciseName: "Barbell_Squat")),
            .exerciseAdded(ExerciseAdded(exerciseId: "Leg_Press", exerciseName: "Sled press")),
            .exerciseAdded(ExerciseAdded(exerciseId: "Lunge", exerciseName: "Lunge")),
            .setLogged(SetLogged(setNumber: 1, set: SetDetails(exerciseId: "Lunge", weight: weight("20"), reps: 10))),
            .setLogged(
                SetLogged(
                    setNumber: 2, set: SetDetails(exerciseId: "Leg_Press", weight: weight("312.5", .pounds), reps: 8))),
            .setLogged(
                SetLogged(setNumber: 3, set: SetDetails(exerciseId: "Barbell_Squat", weight: weight("100"), reps: 5))),
            // The lunge is removed: its set keeps its exercise, which is no longer among the workout's.
            .exerciseRemoved(ExerciseRemoved(exerciseId: "Lunge")),
        ]
        for (offset, event) in events.enumerated() { workout.apply(event, at: time, position: UInt64(10 + offset)) }

        let decoded = try row { workout.writeRow(to: &$0) }.withUnsafeBytes { try Workout(decoding: $0) }
        #expect(decoded.exercises.map(\.exerciseId) == ["Barbell_Squat", "Leg_Press"])
        #expect(decoded.exercises.map(\.name) == ["Barbell_Squat", "Sled press"])
        #expect(decoded.sets.map(\.details.exerciseId) == ["Lunge", "Leg_Press", "Barbell_Squat"])
        #expect(decoded.sets == workout.sets)
    }

    /// A `sessions` row holds an exercise's figures and its sets in one workout, with no exercise, start or workout:
    /// they come from its key.
    @Test func aSessionAndItsSetsComeBackFromTheirKeyAndRow() throws {
        let facts = [(1, "100", nil), (2, "102.5", RPE(9)), (4, "105", RPE(10))].map { number, kilograms, rpe in
            SetFact(
                workoutId: "workout-12", number: UInt32(number), startedAt: start,
                details: SetDetails(exerciseId: "Deadlift", weight: weight(kilograms), reps: 3, rpe: rpe),
                loggedAt: Timestamp(microsecondsSinceEpoch: start.microsecondsSinceEpoch + Int64(number) * 60_000_000),
                position: 90 + UInt64(number), isImplausible: false, isExcluded: number == 4)
        }
        let figures = SessionFact(
            workoutId: "workout-12", workoutName: "Pull", startedAt: start, workingSets: 3, reps: 9,
            volume: 921_000_000, recordVolume: 921_000_000, bestEstimate: Score(116_666_667),
            bestEstimateSet: 2, topWeight: 105_000_000, position: 120)
        let key = Key().text("Deadlift").instant(start).text("workout-12").bytes
        let session = ExerciseSession(key: key, exerciseId: "Deadlift", fact: figures, sets: facts)
        let written = row { session.writeRow(to: &$0) }
        let (setFacts, sessionFact) = try key.withUnsafeBytes { key in
            try written.withUnsafeBytes { row in
                (try SetFact.decode(key: key, row: row), try SessionFact(key: key, row: row))
            }
        }
        #expect(setFacts == facts)
        #expect(sessionFact == figures)
        #expect(!written.contains(Array("workout-12".utf8)) && !written.contains(Array("Deadlift".utf8)))
    }

    /// A history line's name is stored only when it differs from the exercise's id.
    @Test func aHistoryLineKeepsItsNameWhenItDiffers() throws {
        let lines = [
            WorkoutSummary.ExerciseLine(exerciseId: "Deadlift", name: "Deadlift", sets: 3, reps: 9, volume: 1),
            WorkoutSummary.ExerciseLine(exerciseId: "Leg_Press", name: "Sled press", sets: 2, reps: 16, volume: 2),
        ]
        let summary = WorkoutSummary(
            workoutId: "workout-3", name: "Pull", routineId: nil, startedAt: start, finishedAt: start,
            durationSeconds: 0, note: nil, sets: 5, workingSets: 5, volume: 3, implausibleSets: 0, exercises: lines,
            finishedPosition: 40)
        #expect(try row { summary.writeRow(to: &$0) }.withUnsafeBytes { try WorkoutSummary(decoding: $0) } == summary)
    }
}
