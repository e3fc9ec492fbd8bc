import EventJournal
import Foundation
import Testing

@testable import Training

struct JSONDecodingTests {
    /// Every event type, with its optional fields both present and absent.
    static let samples: [TrainingEvent] = {
        let time = Timestamp(rfc3339: "2026-11-22T18:00:00.123456Z")!
        let set = SetDetails(
            exerciseId: "Barbell_Squat", weight: weight("102.5"), reps: 5, kind: .failure, rpe: RPE(8.5),
            note: "grind", durationSeconds: 40, distanceMeters: ExactDecimal("12.5"))
        return [
            .profileUpdated(
                ProfileUpdated(
                    name: "Ana", age: 34, heightCentimeters: ExactDecimal("171.5"), unit: .pounds,
                    timeZone: "Europe/Berlin")),
            .profileUpdated(ProfileUpdated()),
            .profileUpdated(ProfileUpdated(unit: .kilograms)),
            .bodyWeightRecorded(BodyWeightRecorded(weight: weight("176.4", .pounds))),
            .bodyWeightRecorded(BodyWeightRecorded(weight: weight("102.05828325"))),
            .customExerciseAdded(
                CustomExerciseAdded(
                    exerciseId: "custom-zercher", name: "Zercher", primaryMuscles: ["quadriceps", "glutes"],
                    secondaryMuscles: ["abdominals"], equipment: "barbell", force: "push", mechanic: "compound",
                    category: "strength")),
            .customExerciseAdded(CustomExerciseAdded(exerciseId: "custom-plank", name: "Plank", primaryMuscles: [])),
            .routineCreated(RoutineCreated(routineId: "push", name: "Push")),
            .routineExerciseAdded(
                RoutineExerciseAdded(
                    exerciseId: "Dips", exerciseName: "Dips", targetSets: 3, minimumReps: 8, maximumReps: 12,
                    restSeconds: 90)),
            .routineExerciseRemoved(RoutineExerciseRemoved(exerciseId: "Dips")),
            .routineExerciseMoved(RoutineExerciseMoved(exerciseId: "Dips", toIndex: 2)),
            .scheduleSet(ScheduleSet(kind: .split, days: ["Push", "", "Pull"], startDate: "2026-11-01")),
            .scheduleSet(ScheduleSet(kind: .weekdays, days: ["Push", "", "Pull", "", "Legs", "", ""])),
            .workoutStarted(WorkoutStarted(name: "Legs", routineId: "legs")),
            .workoutStarted(WorkoutStarted(name: "Freestyle")),
            .workoutPaused(WorkoutPaused()), .workoutResumed(WorkoutResumed()),
            .workoutFinished(WorkoutFinished(note: "good")), .workoutFinished(WorkoutFinished()),
            .workoutDiscarded(WorkoutDiscarded()),
            .workoutEdited(WorkoutEdited(startedAt: time, note: "moved", name: "Legs B")),
            .workoutEdited(WorkoutEdited(startedAt: time)), .workoutEdited(WorkoutEdited()),
            .workoutDeleted(WorkoutDeleted(reason: "duplicate")), .workoutDeleted(WorkoutDeleted()),
            .workoutRestored(WorkoutRestored()), .workoutRestored(WorkoutRestored(finishedAt: time)),
            .exerciseAdded(ExerciseAdded(exerciseId: "Barbell_Squat", exerciseName: "Barbell Squat")),
            .exerciseRemoved(ExerciseRemoved(exerciseId: "Barbell_Squat")),
            .exerciseMoved(ExerciseMoved(exerciseId: "Barbell_Squat", toIndex: 0)),
            .setLogged(SetLogged(setNumber: 7, set: set)),
            .setLogged(SetLogged(setNumber: 8, set: SetDetails(exerciseId: "Pullups", weight: nil, reps: 12))),
            .setCorrected(SetCorrected(setNumber: 7, set: set)),
            .setCorrected(
                SetCorrected(
                    setNumber: 8,
                    set: SetDetails(exerciseId: "Pullups", weight: weight("-20", .pounds), reps: 10, kind: .warmup))),
            .setRemoved(SetRemoved(setNumber: 7)),
            .restTimerStarted(RestTimerStarted(durationSeconds: 90, endsAt: time, afterSet: 7)),
            .restTimerStarted(RestTimerStarted(durationSeconds: 120, endsAt: time)),
            .restTimerExtended(RestTimerExtended(bySeconds: -15, endsAt: time)),
            .restTimerSkipped(RestTimerSkipped()),
            .restTimerFinished(RestTimerFinished(endedAt: time)),
            .rulesChanged(RulesChanged(key: "e1rm.formula", value: "brzycki")),
        ]
    }()

    static func decode(_ typeName: String, _ json: String) throws -> TrainingEvent? {
        try TrainingEvent.decode(typeName: typeName, json: Data(json.utf8), using: JSONDecoder())
    }

    @Test func everyEventTypeRoundTrips() throws {
        let covered = Set(Self.samples.map { type(of: $0.payload).typeName })
        #expect(covered == TrainingEvent.typeNames, "every registered type is exercised")
        let sorted = JSONEncoder()
        sorted.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for encoder in [JSONEncoder(), sorted] {
            for event in Self.samples {
                let typeName = type(of: event.payload).typeName
                let json = try encoder.encode(event.payload)
                let decoded = try TrainingEvent.decode(typeName: typeName, json: json, using: JSONDecoder())
                #expect(decoded == event, "\(typeName): \(String(decoding: json, as: UTF8.self))")
            }
        }
    }

    @Test func readsTheDocumentedShape() throws {
        let logged = try Self.decode(
            "SetLogged",
            #"{"setNumber": 7, "exerciseId": "Barbell_Squat", "weight": {"value": "225", "unit": "lb"}, "reps": 5, "#
                + #""kind": "normal", "rpe": 8.5, "distanceMeters": "0.5"}"#)
        let set = SetDetails(
            exerciseId: "Barbell_Squat", weight: weight("225", .pounds), reps: 5, rpe: RPE(8.5),
            distanceMeters: ExactDecimal("0.5"))
        #expect(logged == .setLogged(SetLogged(setNumber: 7, set: set)))
        let edited = try Self.decode("WorkoutEdited", #"{"startedAt": "2026-11-21T18:05:09.25+01:00"}"#)
        let startedAt = Timestamp(rfc3339: "2026-11-21T17:05:09.250000Z")!
        #expect(edited == .workoutEdited(WorkoutEdited(startedAt: startedAt)))
        #expect(try Self.decode("RestTimerSkipped", "{}") == .restTimerSkipped(RestTimerSkipped()))
    }

    @Test(arguments: [
        ("BodyWeightRecorded", #"{"weight": {"value": "abc", "unit": "kg"}}"#),
        ("BodyWeightRecorded", #"{"weight": {"value": "80", "unit": "stone"}}"#),
        ("SetLogged", #"{"setNumber": 1, "exerciseId": "Dips", "reps": 5, "kind": "normal", "rpe": 8.3}"#),
        ("SetCorrected", #"{"setNumber": 1, "exerciseId": "Dips", "reps": 5, "kind": "normal", "rpe": 11}"#),
        ("SetLogged", #"{"setNumber": 1, "exerciseId": "Dips", "reps": 5, "kind": "heavy"}"#),
        ("SetLogged", #"{"setNumber": 1, "exerciseId": "Dips", "reps": 5, "kind": "normal", "distanceMeters": "1e3"}"#),
        ("RestTimerFinished", #"{"endedAt": "yesterday"}"#),
        ("WorkoutEdited", #"{"startedAt": "2026-02-30T00:00:00Z"}"#),
        ("ProfileUpdated", #"{"heightCentimeters": "171,5"}"#),
        ("ProfileUpdated", #"{"unit": "stone"}"#),
        ("ScheduleSet", #"{"kind": "fortnightly", "days": []}"#),
    ])
    func malformedValuesThrowDataCorrupted(typeName: String, json: String) throws {
        let error = #expect(throws: DecodingError.self) { try Self.decode(typeName, json) }
        guard case .dataCorrupted? = error else {
            Issue.record("expected dataCorrupted, got \(String(describing: error))")
            return
        }
    }

    @Test func missingOrMistypedFieldsThrow() throws {
        #expect(throws: DecodingError.self) { try Self.decode("SetRemoved", "{}") }
        #expect(throws: DecodingError.self) { try Self.decode("SetLogged", #"{"setNumber": 1, "reps": 5}"#) }
        #expect(throws: DecodingError.self) { try Self.decode("SetRemoved", #"{"setNumber": -1}"#) }
        #expect(throws: DecodingError.self) { try Self.decode("WorkoutPaused", "[]") }
    }

    @Test func unknownTypeIsNil() throws {
        #expect(try Self.decode("WorkoutTeleported", "{}") == nil)
        #expect(try Self.decode("setLogged", "{}") == nil)
    }
}
