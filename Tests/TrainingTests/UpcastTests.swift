import EventJournal
import Testing

@testable import Training

struct UpcastTests {
    /// A journal holding `SetLogged` version 1 (kilograms and RPE as binary64, written here field by field as that
    /// version laid them out) reads back as version 2.
    @Test func version1SetsReadAsTheCurrentVersion() async throws {
        let journal = try TestJournal().journal
        func version1(set: UInt64, kilograms: Double?, reps: UInt64, rpe: Double?) -> ProposedEvent {
            var writer = PayloadWriter()
            writer.unsigned(1, set)
            writer.string(2, "Barbell_Squat")
            if let kilograms { writer.double(3, kilograms) }
            writer.unsigned(4, reps)
            writer.unsigned(5, 2)
            if let rpe { writer.double(6, rpe) }
            writer.string(7, "old")
            return ProposedEvent(type: "SetLogged", schemaVersion: 1, encoding: .binary, payload: writer.finish())
        }
        _ = try await journal.append(
            [
                WorkoutStarted(name: "Old").proposed(),
                ExerciseAdded(exerciseId: "Barbell_Squat", exerciseName: "Barbell Squat").proposed(),
                version1(set: 1, kilograms: 102.5, reps: 5, rpe: 8.5),
                version1(set: 2, kilograms: 60, reps: 10, rpe: nil),
                version1(set: 3, kilograms: nil, reps: 12, rpe: 7),
            ], to: "workout-1")
        let records = try journal.readStream("workout-1")
        #expect(records[2].schemaVersion == 1, "stored as written")
        let sets = try records.dropFirst(2).map { try TrainingEvent.decode($0) }
        let expected: [TrainingEvent] = [
            .setLogged(
                SetLogged(
                    setNumber: 1,
                    set: SetDetails(
                        exerciseId: "Barbell_Squat", weight: weight("102.5"), reps: 5, kind: .warmup, rpe: RPE(8.5),
                        note: "old"))),
            .setLogged(
                SetLogged(
                    setNumber: 2,
                    set: SetDetails(
                        exerciseId: "Barbell_Squat", weight: weight("60"), reps: 10, kind: .warmup, note: "old"))),
            .setLogged(
                SetLogged(
                    setNumber: 3,
                    set: SetDetails(
                        exerciseId: "Barbell_Squat", weight: nil, reps: 12, kind: .warmup, rpe: RPE(7), note: "old"))),
        ]
        #expect(sets == expected)
        // The fold sees them as any other set.
        let workout = try TrainingReadModels(journal: journal).query { try $0.workout("workout-1") }
        #expect(workout?.sets.map(\.details.weight) == [weight("102.5"), weight("60"), nil])
    }

    /// A schema version newer than this build's, or a type it does not know, is kept and passed over, not guessed at.
    @Test func newerVersionsAndUnknownTypesArePassedOver() async throws {
        let journal = try TestJournal().journal
        _ = try await journal.append([WorkoutStarted(name: "Now").proposed()], to: "workout-1")
        let future = ProposedEvent(
            type: "WorkoutFinished", schemaVersion: 9, encoding: .binary, payload: WorkoutFinished().encoded)
        let unknown = ProposedEvent(type: "WorkoutRated", encoding: .binary, payload: [0x08, 0x05])
        _ = try await journal.append([future, unknown], to: "workout-1")
        #expect(try TrainingEvent.decode(#require(try journal.record(at: 2))) == nil)
        #expect(try TrainingEvent.decode(#require(try journal.record(at: 3))) == nil)
        let (active, position) = try TrainingReadModels(journal: journal).query {
            (try $0.activeWorkout()?.id, $0.position)
        }
        #expect(active == "workout-1", "the newer finish is not applied")
        #expect(position == 3)
    }
}
