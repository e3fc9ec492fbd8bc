import EventJournal
import Foundation
import Interchange
import TestSupport
import Testing
import Training

/// Imports of the synthetic files in Fixtures/synthetic, one per layout the data README describes, with the figures
/// worked out by hand from each file in the comments.
struct ImportTests {
    let directory: TemporaryDirectory
    let journal: Journal
    let log: TrainingLog

    init() async throws {
        directory = try TemporaryDirectory()
        journal = try Journal.open(at: directory.child("journal"), create: true)
        log = try TrainingLog(journal: journal)
        try await log.updateProfile(ProfileUpdated(timeZone: "Europe/Berlin"))
    }

    static let synthetic = repositoryRoot + "/Fixtures/synthetic/"
    static let exports = repositoryRoot + "/Fixtures/exports/"

    func importing(_ file: String, unit: MassUnit? = nil, map: String? = nil) async throws -> ImportReport {
        try await Importer(log: log).importFile(
            at: file.hasPrefix("/") ? file : Self.synthetic + file, options: ImportOptions(unit: unit, mappingFile: map)
        )
    }

    /// The sets of a workout, as the read models hold them.
    func sets(_ workoutId: String) throws -> [LoggedSet] {
        try #require(try log.query { try $0.workout(workoutId) }).countedSets
    }

    func kilograms(_ milligrams: Int64) -> String { ExactDecimal(significand: milligrams, scale: 6)!.description }

    /// LiftLedger's own export of the journal in Strong's layout, weights in `unit`, written to a file: its path and
    /// its text.
    func strongExport(unit: MassUnit = .kilograms) throws -> (path: String, text: String) {
        var text = ""
        _ = try log.query { try StrongExport.write($0, unit: unit, to: { text += $0 }) }
        let path = directory.child("strong.csv")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return (path, text)
    }

    /// The report adds each set's weight times its reps, worked out exactly and rounded to the milligram once (half
    /// to even): the expected volumes are worked out so, from a pound's 0.45359237 kg.
    struct Expected: Sendable, CustomStringConvertible {
        var file: String
        var unit: MassUnit?
        var workouts: Int
        var sets: Int
        var warmups: Int
        var rests: Int
        /// Kilograms, exact.
        var volume: String
        var description: String { file }
    }

    @Test(arguments: [
        // Push Day: W 60×10, 100×5, a 120 s rest, 100×5, D 80×8, F Triceps Pushdown 30×12; Cardio: a run, no weight.
        // 600 + 500 + 500 + 640 + 360 = 2600 kg.
        Expected(file: "strong-2023.csv", unit: .kilograms, workouts: 2, sets: 6, warmups: 1, rests: 1, volume: "2600"),
        // 225 lb × 5 = 1125 lb = 510.29141625 kg, 235 lb × 3 = 705 lb = 319.78262085, 405 lb × 10 = 4050 lb =
        // 1837.0490985; to the milligram 510.291416 + 319.782621 + 1837.049098 = 2667.123135.
        Expected(
            file: "strong-2019.csv", unit: .pounds, workouts: 1, sets: 3, warmups: 0, rests: 0, volume: "2667.123135"),
        // Pounds written as kilograms with noise: 45 lb × 8 = 360 lb, 95 lb × 5 = 475 lb, 95 lb × 3 = 285 lb, 40 lb × 8
        // = 320 lb: 163.293253 + 215.456376 + 129.273825 + 145.149558 kg.
        Expected(file: "strong-semicolon.csv", workouts: 2, sets: 5, warmups: 1, rests: 0, volume: "653.173012"),
        // 140 kg × 5 + 315 lb × 3 (945 lb = 428.64478965 kg) = 700 + 428.64479.
        Expected(file: "strong-oldest.csv", workouts: 1, sets: 3, warmups: 0, rests: 0, volume: "1128.64479"),
        // W 40×10, 100×5, Ruhezeit 180 s, 100×5: 400 + 500 + 500.
        Expected(file: "strong-de.csv", unit: .kilograms, workouts: 1, sets: 3, warmups: 1, rests: 1, volume: "1400"),
        // 95 lb × 10 = 950 lb, 185 lb × 5 = 925 lb, 135 lb × 8 = 1080 lb, 20 lb × 12 = 240 lb
        // = 430.912752 + 419.572942 + 489.87976 + 108.862169 kg.
        Expected(file: "hevy-imperial.csv", workouts: 2, sets: 5, warmups: 1, rests: 0, volume: "1449.227623"),
        // 135 lb × 8 = 1080 lb, 155 lb × 5 = 775 lb, 35 lb × 20 = 700 lb
        // = 489.87976 + 351.534087 + 317.514659 kg.
        Expected(file: "fitnotes-old.csv", workouts: 2, sets: 4, warmups: 0, rests: 0, volume: "1158.928506"),
    ])
    func eachLayoutImportsAsWorkedOutByHand(_ expected: Expected) async throws {
        let report = try await importing(expected.file, unit: expected.unit)
        #expect(report.workouts == expected.workouts && report.workoutsAdded == expected.workouts)
        #expect(
            report.sets == expected.sets && report.warmupSets == expected.warmups && report.restRows == expected.rests)
        // The report sums each set's volume rounded to the milligram: compare to the milligram.
        #expect(kilograms(report.volumeMilligrams) == expected.volume)
        let history = try log.query { try $0.history() }
        #expect(history.count == expected.workouts)
    }

    @Test func strongRowsKeepKindsNotesRpeRestsAndDuration() async throws {
        _ = try await importing("strong-2023.csv", unit: .kilograms)
        let push = try sets("workout-1")
        #expect(push.map(\.details.kind) == [.warmup, .normal, .normal, .drop, .failure])
        #expect(push.map(\.details.rpe) == [nil, RPE(8.5), RPE(9), nil, RPE(10)])
        #expect(push[2].details.note == "grind on\nthe last rep, \"ugly\"")
        let workout = try #require(try log.query { try $0.workout("workout-1") })
        #expect(workout.note == "Felt good" && workout.name == "Push Day")
        // 1h 7m.
        #expect(try log.query { try $0.history() }.first?.durationSeconds == 4_020)
        let rests = try journal.readStream("workout-1").filter { $0.type == RestTimerStarted.typeName }
        #expect(rests.count == 1)
        // 5.2 km in a file in kilograms, over 1500 s.
        let run = try sets("workout-2")
        #expect(
            run.first?.details.distanceMeters == ExactDecimal("5200") && run.first?.details.durationSeconds == 1_500)
    }

    @Test func conversionNoiseBecomesTheWeightTheUserEntered() async throws {
        _ = try await importing("strong-semicolon.csv")
        // 20.411656650000001 kg is 45 lb; 43.091275150000003 kg is 95 lb; 18.143694800000002 kg is 40 lb.
        let upper = try sets("workout-1")
        #expect(upper.map(\.details.weight) == ["45", "95", "95", "40"].map { Weight(ExactDecimal($0)!, .pounds) })
        #expect(upper.map(\.details.kind) == [.warmup, .normal, .failure, .normal])
        #expect(upper[1].details.note == "left shoulder\ntight")
        // Pull Up (Assisted) maps to the band-assisted pull-up: less help is better.
        let assisted = try log.query { try $0.latestRecords(of: "Band_Assisted_Pull-Up") }
        #expect(assisted[.heaviestWeight]?.current.weight == Weight(ExactDecimal(40), .pounds))
        // 2000 m rowed in 480 s.
        #expect(try sets("workout-2").first?.details.distanceMeters == ExactDecimal(2_000))
    }

    @Test func perRowUnitsHevyDatesAndFitNotesTimes() async throws {
        _ = try await importing("strong-oldest.csv")
        #expect(
            try sets("workout-1").map(\.details.weight) == [
                Weight(ExactDecimal(140), .kilograms), Weight(ExactDecimal(315), .pounds),
                Weight(ExactDecimal(0), .kilograms),
            ])
        // The heaviest deadlift is 315 lb (142.88159655 kg, kept to the milligram), not 140 kg.
        let deadlift = try log.query { try $0.latestRecords(of: "Barbell_Deadlift") }
        #expect(deadlift[.heaviestWeight]?.current.valueText == "142.881597")
        _ = try await importing("hevy-imperial.csv")
        // Sorted by start: the walk of 10 January comes before Upper A of the 12th.
        let upper = try #require(try log.query { try $0.workout("workout-3") })
        #expect(upper.name == "Upper A" && upper.note == "morning")
        #expect(upper.startedAt == Timestamp(rfc3339: "2025-01-12T06:05:00Z"), "07:05 in Berlin is 06:05 UTC")
        #expect(upper.countedSets.map(\.details.note) == ["close grip", nil, "superset 0", "superset 0"])
        // 2.5 miles is 4023.36 m.
        #expect(try sets("workout-2").first?.details.distanceMeters == ExactDecimal("4023.36"))
        _ = try await importing("fitnotes-old.csv")
        #expect(try sets("workout-5").first?.details.durationSeconds == 1_530, "0:25:30")
        let custom = try log.query { try $0.customExercises() }.first { $0.name == "Kettlebell Swing Thing" }
        #expect(custom?.primaryMuscles == ["quadriceps"], "FitNotes' category Legs")
    }

    /// Found by the fuzzer: a weight of 10^18 lb once overflowed its conversion to kilograms.
    @Test func anAbsurdWeightIsImportedFlaggedAndKeptOutOfRecords() async throws {
        let file = directory.child("absurd.csv")
        try Data(
            """
            Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,RPE
            2024-05-01 10:00:00,A,30m,Squat (Barbell),1,999999999999999999,5,0,0,
            2024-05-01 10:00:00,A,30m,Squat (Barbell),2,100,5000,0,0,
            2024-05-01 10:00:00,A,30m,Squat (Barbell),3,100,5,0,0,
            2024-05-03 10:00:00,B,30m,Squat (Barbell),1,5000,5,0,0,

            """.utf8
        ).write(to: URL(fileURLWithPath: file))
        let report = try await importing(file, unit: .pounds)
        #expect(report.implausible.map(\.line) == [2, 3, 5], "over 1,000 kg; over 1,000 reps; over 1,000 kg")
        // Only set 3, 100 lb × 5, counts: 45.359237 kg.
        let squat = try log.query { try $0.latestRecords(of: "Barbell_Squat") }
        #expect(squat[.heaviestWeight]?.current.valueText == "45.359237")
        #expect(squat[.mostReps]?.current.valueText == "5")
        // The flagged sets count in the history's set counts alone: 3 sets, 1 session set of 5 reps, 5 reps in the
        // history, 100 lb × 5 = 226.796185 kg of volume.
        let history = try #require(try log.query { try $0.history() }.first)
        #expect(history.sets == 3 && history.exercises.map(\.reps) == [5] && history.volume == 226_796_185)
        // Workout B's only set is excluded: it has no session in the squat's progress.
        let sessions = try log.query { try $0.progress(of: "Barbell_Squat") }.sessions
        #expect(sessions.count == 1)
        let session = try #require(sessions.first)
        #expect(session.workingSets == 1 && session.reps == 5 && session.volume == 226_796_185)
        // A duration longer than a year (9000 h is 375 days) is no workout's.
        try Data(String(contentsOfFile: file, encoding: .utf8).replacingOccurrences(of: "30m", with: "9000h").utf8)
            .write(to: URL(fileURLWithPath: file))
        let error = await importError { _ = try await importing(file, unit: .pounds) }
        #expect(error?.code == .malformed && error?.message.hasSuffix("duration \"9000h\" is more than a year") == true)
    }

    /// A workout dated before 2000 on the profile's calendar is flagged: in Tokyo (UTC+9), a Strong row at 1999-12-31
    /// 23:00 is, one at 2000-01-01 05:00 (1999-12-31T20:00Z) is not.
    @Test func aWorkoutBefore2000IsFlaggedByItsLocalDate() async throws {
        try await log.updateProfile(ProfileUpdated(timeZone: "Asia/Tokyo"))
        let file = directory.child("y2k.csv")
        try Data(
            """
            Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,RPE
            1999-12-31 23:00:00,A,30m,Squat (Barbell),1,100,5,0,0,
            2000-01-01 05:00:00,B,30m,Squat (Barbell),1,90,5,0,0,

            """.utf8
        ).write(to: URL(fileURLWithPath: file))
        let report = try await importing(file, unit: .kilograms)
        #expect(report.implausible.map(\.line) == [2])
        #expect(report.implausible.first?.why == "the workout is dated 1999-12-31, before 2000", "the local date")
    }

    /// A live set covers at most 1,000 km; an imported one may cover more, and is flagged and kept out of records.
    @Test func aDistanceOver1000KilometresIsFlaggedAndKeptOutOfRecords() async throws {
        let file = directory.child("far.csv")
        // Kilograms, so the distances are in kilometres: 1000.0005 km is half a metre over the limit, 1000 km is on it.
        try Data(
            """
            Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,RPE
            2024-05-01 10:00:00,A,30m,Running,1,0,0,1000.0005,1500,
            2024-05-03 10:00:00,B,30m,Running,1,0,0,1000,1500,

            """.utf8
        ).write(to: URL(fileURLWithPath: file))
        let report = try await importing(file, unit: .kilograms)
        #expect(report.implausible.map(\.line) == [2])
        #expect(report.implausible.first?.why == "a distance of 1000000.5 m, over 1,000 km")
        let exercise = try #require(report.exercises.first).exerciseId
        let records = try log.query { try $0.latestRecords(of: exercise) }
        #expect(records[.longestDistance]?.current.valueText == "1000000", "workout B's 1000 km, in metres")
    }

    /// A session left open and finished nine days later lasts 216 hours, and LiftLedger's export writes so: such a
    /// workout imports, as any up to a year long.
    @Test func aWorkoutOfNineDaysImports() async throws {
        let file = directory.child("long.csv")
        try Data(
            """
            Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE
            2026-11-01 10:00:00,Long,216h,Plank,1,,1,,60,,,

            """.utf8
        ).write(to: URL(fileURLWithPath: file))
        _ = try await importing(file, unit: .kilograms)
        // 216 h × 3600 s = 777,600 s.
        #expect(try log.query { try $0.history() }.first?.durationSeconds == 777_600)
    }

    @Test func importingTwiceAddsNothing() async throws {
        let first = try await importing(Self.exports + "hevy-kg-2022-2026.csv")
        let head = try journal.head()
        let second = try await importing(Self.exports + "hevy-kg-2022-2026.csv")
        #expect(first.workoutsAdded == 232 && second.workoutsAdded == 0 && second.workoutsAlreadyImported == 232)
        #expect(try journal.head() == head)
    }

    /// An exercise that an earlier import added as custom is custom in the report of the next import too (it read as
    /// mapped to the catalog).
    @Test func aCustomExerciseIsCustomInEveryReport() async throws {
        let first = try await importing(Self.exports + "strong-zh-2020-2023.csv", unit: .pounds)
        let second = try await importing(Self.exports + "strong-zh-2020-2023.csv", unit: .pounds)
        let custom = first.exercises.filter(\.isCustom).map(\.exerciseId)
        #expect(custom.count == 1 && first.customExercisesAdded.count == 1)
        #expect(second.exercises.filter(\.isCustom).map(\.exerciseId) == custom && second.customExercisesAdded.isEmpty)
    }

    /// A file whose two exercises swapped places, and one weight changed: its sets are corrected by their place in
    /// the file, so every one of the four is (by hand: bench, bench, press, press against press, press 52.5, bench,
    /// bench), and the press moved to the front, once, which the report now names. The workout then reads as the
    /// file.
    @Test func aReorderedFileReportsTheExerciseMoved() async throws {
        let header =
            "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE"
        func row(_ exercise: String, _ order: Int, _ weight: String) -> String {
            "2023-03-06 18:02:10,Push Day,1h 7m,\(exercise),\(order),\(weight),5,0,0,,,"
        }
        let bench = "Bench Press (Barbell)"
        let press = "Overhead Press (Barbell)"
        let first = directory.child("first.csv")
        let second = directory.child("second.csv")
        try Data(
            ([header] + [row(bench, 1, "100"), row(bench, 2, "100"), row(press, 1, "50"), row(press, 2, "50")])
                .joined(separator: "\n").utf8
        ).write(to: URL(fileURLWithPath: first))
        try Data(
            ([header] + [row(press, 1, "50"), row(press, 2, "52.5"), row(bench, 1, "100"), row(bench, 2, "100")])
                .joined(separator: "\n").utf8
        ).write(to: URL(fileURLWithPath: second))
        _ = try await importing(first, unit: .kilograms)
        let report = try await importing(second, unit: .kilograms)
        let correction = try #require(report.corrections.first)
        #expect(correction.setsCorrected == 4 && correction.exercisesMoved == 1)
        #expect(correction.setsAdded == 0 && correction.setsRemoved == 0 && correction.exercisesAdded == 0)
        let workout = try #require(try log.query { try $0.workout("workout-1") })
        #expect(
            workout.exercises.map(\.exerciseId) == ["Standing_Military_Press", "Barbell_Bench_Press_-_Medium_Grip"])
        #expect(workout.countedSets.map { $0.details.weight?.value.description } == ["50", "52.5", "100", "100"])
    }

    @Test func aBetterMappingCorrectsTheEarlierImportThroughEvents() async throws {
        _ = try await importing("fitnotes-old.csv")
        let swing = "custom-kettlebell-swing-thing"
        #expect(try sets("workout-1").contains { $0.details.exerciseId == swing })
        let mapping = directory.child("map.json")
        try Data(#"{"Kettlebell Swing Thing": "One-Arm Kettlebell Swings"}"#.utf8).write(
            to: URL(fileURLWithPath: mapping))
        let head = try journal.head().position
        let report = try await importing("fitnotes-old.csv", map: mapping)
        #expect(report.workoutsCorrected == 1 && report.workoutsAdded == 0)
        let corrected = try sets("workout-1")
        #expect(!corrected.contains { $0.details.exerciseId == swing })
        #expect(corrected.contains { $0.details.exerciseId == "One-Arm_Kettlebell_Swings" })
        // Reported: the swings' sets corrected to the mapped exercise, which comes in as the custom one goes.
        let correction = try #require(report.corrections.first)
        #expect(correction.setsCorrected == corrected.count { $0.details.exerciseId == "One-Arm_Kettlebell_Swings" })
        #expect(correction.exercisesAdded == 1 && correction.exercisesRemoved == 1 && correction.setsRemoved == 0)
        // Appended, not rewritten: the original SetLogged is still there, before the correction.
        #expect(try journal.head().position > head)
        let types = try journal.readStream("workout-1").map(\.type)
        #expect(types.contains(SetCorrected.typeName) && types.filter { $0 == SetLogged.typeName }.count == 3)
        // The exercise the correction brings in is named as the catalog names it.
        let added = try journal.readStream("workout-1").compactMap { record -> ExerciseAdded? in
            if case .exerciseAdded(let added) = try TrainingEvent.decode(record) { return added }
            return nil
        }
        #expect(added.last?.exerciseName == "One-Arm Kettlebell Swings")
        // The custom exercise lost its only set, so it left the workout; the others stay in their order.
        let exercises = try #require(try log.query { try $0.workout("workout-1") }).exercises.map(\.exerciseId)
        #expect(exercises == ["Barbell_Bench_Press_-_Medium_Grip", "One-Arm_Kettlebell_Swings"])
        // Once more with the same mapping: nothing.
        let again = try journal.head()
        _ = try await importing("fitnotes-old.csv", map: mapping)
        #expect(try journal.head() == again)

        // The first exercise mapped too: its sets' new exercise comes first, as in the file, not after the swings.
        try Data(
            #"{"Kettlebell Swing Thing": "One-Arm Kettlebell Swings", "Flat Barbell Bench Press": "Dumbbell Bench Press"}"#
                .utf8
        ).write(to: URL(fileURLWithPath: mapping))
        _ = try await importing("fitnotes-old.csv", map: mapping)
        let remapped = try #require(try log.query { try $0.workout("workout-1") })
        #expect(remapped.exercises.map(\.exerciseId) == ["Dumbbell_Bench_Press", "One-Arm_Kettlebell_Swings"])
        #expect(remapped.countedSets.map(\.details.exerciseId).first == "Dumbbell_Bench_Press")

        // A target given by another app's name, as every command takes one (it was refused as "no exercise"); a name
        // no row has, mistyped, is reported (it was passed over without a word).
        try Data(
            #"{"Flat Barbell Bench Press": "Bench Press (Barbell)", "Kettlebell Swing Thng": "One-Arm Kettlebell Swings"}"#
                .utf8
        ).write(to: URL(fileURLWithPath: mapping))
        let typo = try await importing("fitnotes-old.csv", map: mapping)
        #expect(typo.unusedMappings == ["Kettlebell Swing Thng"])
        let back = try #require(try log.query { try $0.workout("workout-1") })
        #expect(back.countedSets.map(\.details.exerciseId).first == "Barbell_Bench_Press_-_Medium_Grip")
    }

    /// A mapping file that maps a name twice is refused, naming it (the JSON reader kept the last), and so is one that
    /// maps an empty name; and a header's unit (Hevy's `weight_kg`) with `--unit` naming the other is refused (it went
    /// unheeded). Nothing is written.
    @Test func aMappingOfANameTwiceOrOfNoNameAndAUnitAgainstTheHeaderAreRefused() async throws {
        let head = try journal.head()
        let mapping = directory.child("twice.json")
        try Data(#"{"Kettlebell Swing Thing": "squat", "Kettlebell Swing Thing": "bench press"}"#.utf8).write(
            to: URL(fileURLWithPath: mapping))
        let twice = await importError { _ = try await importing("fitnotes-old.csv", map: mapping) }
        #expect(twice?.message == "the mapping file \(mapping) maps \"Kettlebell Swing Thing\" more than once")
        // Two spellings that compare alike, as imports compare names: one of them was taken, which one left to the
        // order of a dictionary (it changed from run to run).
        try Data(#"{"Kettlebell Swing Thing": "squat", "kettlebell swing-thing": "bench press"}"#.utf8).write(
            to: URL(fileURLWithPath: mapping))
        let alike = await importError { _ = try await importing("fitnotes-old.csv", map: mapping) }
        #expect(
            alike?.message
                == "the mapping file \(mapping) maps \"Kettlebell Swing Thing\" and \"kettlebell swing-thing\", one "
                + "name written two ways")
        // Blanks, or an invisible character alone.
        for name in [" ", "\u{200B}"] {
            try Data(#"{"\#(name)": "squat"}"#.utf8).write(to: URL(fileURLWithPath: mapping))
            let empty = await importError { _ = try await importing("fitnotes-old.csv", map: mapping) }
            #expect(empty?.message == "the mapping file \(mapping) maps an empty name")
        }
        let hevy = repositoryRoot + "/Fixtures/exports/hevy-kg-2022-2026.csv"
        let unit = await importError { _ = try await importing(hevy, unit: .pounds) }
        #expect(unit?.message == "\(hevy)'s header gives its weights in kg, not in lb")
        #expect(try journal.head() == head)
    }

    /// A new custom exercise spelt three ways in one file is one exercise, named as its first row spells it, and the
    /// report names it so for each spelling (it gave each row's spelling, names no exercise has).
    @Test func aNewCustomExerciseSpeltSeveralWaysIsReportedByItsName() async throws {
        let file = directory.child("spellings.csv")
        let rows = ["Weird Thing", "weird  thing", "WEIRD-THING"].enumerated().map { index, name in
            "2026-04-24 09:40:00,Upper,51m,\"\(name)\",\(index + 1),40,10,0,0,\n"
        }
        try Data(
            ("Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,RPE\n" + rows.joined())
                .utf8
        ).write(to: URL(fileURLWithPath: file))
        let report = try await importing(file, unit: .kilograms)
        #expect(report.customExercisesAdded == ["Weird Thing"])
        #expect(Set(report.exercises.map(\.exerciseId)) == ["custom-weird-thing"])
        #expect(report.exercises.map(\.name) == ["Weird Thing", "Weird Thing", "Weird Thing"])
    }

    /// FitNotes' workout is its day, however a row writes it: a row dated `2021-2-1` joins the `2021-02-01` workout
    /// (it made a second workout that day), and the file as FitNotes writes it is the same two workouts.
    @Test func aFitNotesDayIsOneWorkoutHoweverItIsWritten() async throws {
        let text = try String(contentsOfFile: Self.synthetic + "fitnotes-old.csv", encoding: .utf8)
        let unpadded = directory.child("fitnotes-unpadded.csv")
        try Data(text.replacingOccurrences(of: "2021-02-01,Kettlebell", with: "2021-2-1,Kettlebell").utf8).write(
            to: URL(fileURLWithPath: unpadded))
        let report = try await importing(unpadded)
        #expect(report.workoutsAdded == 2 && report.sets == 4)
        #expect(try sets("workout-1").count == 3)
        let head = try journal.head()
        #expect(try await importing("fitnotes-old.csv").workoutsAdded == 0)
        #expect(try journal.head() == head)
    }

    @Test func aWorkoutChangedInTheAppIsCorrectedUnderNewSetNumbersAndOnceOnly() async throws {
        _ = try await importing("fitnotes-old.csv")
        // Workout 1 holds bench 135 lb × 8, bench 155 lb × 5 and swings 35 lb × 20 as sets 1 to 3. Set 1 is removed
        // here; the same file again changes nothing, since it reads as the import left the workout.
        try await log.removeSet(1, in: "workout-1")
        let removed = try journal.head()
        _ = try await importing("fitnotes-old.csv")
        #expect(try journal.head() == removed)
        // A later export in which the swings have 21 reps reads otherwise, and the file wins for that workout: its
        // three sets meet sets 2 and 3 (both corrected) and a new set 4, not a second set 1.
        let text = try String(contentsOfFile: Self.synthetic + "fitnotes-old.csv", encoding: .utf8)
        let later = directory.child("fitnotes-later.csv")
        try Data(text.replacingOccurrences(of: ",35.0,20,", with: ",35.0,21,").utf8).write(
            to: URL(fileURLWithPath: later))
        // A dry run says so and writes nothing.
        let preview = try await Importer(log: log).importFile(at: later, options: ImportOptions(isDryRun: true))
        #expect(preview.workoutsCorrected == 1 && preview.headAfter == preview.headBefore)
        #expect(try journal.head() == removed)
        let report = try await importing(later)
        #expect(report.workoutsCorrected == 1 && report.workoutsAdded == 0)
        let restored = try sets("workout-1")
        #expect(restored.map(\.number) == [2, 3, 4])
        #expect(
            restored.map { "\($0.details.weight!) × \($0.details.reps)" } == ["135 lb × 8", "155 lb × 5", "35 lb × 21"])
        let logged = try journal.readStream("workout-1").compactMap { record -> UInt32? in
            if case .setLogged(let logged) = try TrainingEvent.decode(record) { return logged.setNumber }
            return nil
        }
        #expect(logged == [1, 2, 3, 4])
        let head = try journal.head()
        _ = try await importing(later)
        #expect(try journal.head() == head)
    }

    @Test func aMalformedRowIsRefusedWithItsLineAndNothingIsWritten() async throws {
        let file = directory.child("broken.csv")
        var lines = try String(contentsOfFile: Self.synthetic + "strong-2023.csv", encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // The drop set, on line 7 (line 6 holds the second line of a quoted note).
        lines[6] = lines[6].replacingOccurrences(of: "80.0,8.0", with: "80.0,eight")
        try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: file))
        let before = try snapshot(of: journal.path)
        let error = await importError { _ = try await importing(file, unit: .kilograms) }
        #expect(
            error?.code == .malformed && error?.message.hasPrefix("line 7:") == true, "\(String(describing: error))")
        #expect(try snapshot(of: journal.path) == before, "not a byte of the journal changed")
        // An RPE that is a number, but no half step from 1 to 10, is said to be that (line 3's 8.5 made 7.25).
        lines = try String(contentsOfFile: Self.synthetic + "strong-2023.csv", encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines[2] = lines[2].replacingOccurrences(of: ",,8.5", with: ",,7.25")
        try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: file))
        let rpe = await importError { _ = try await importing(file, unit: .kilograms) }
        #expect(rpe?.message == "line 3: RPE \"7.25\" is not 1 to 10 in half steps", "\(String(describing: rpe))")
        #expect(try snapshot(of: journal.path) == before)
    }

    /// A Hevy workout's end_time gives its duration, which must be 0 to a year, as Strong's durations must: an end two
    /// hours or half an hour before the start (no clock change in January), or 13 months after it, is
    /// refused at its line, and nothing is written. Local times in the hour the clocks go back over are another
    /// matter: an end before the start there is the hour's second pass.
    @Test func aHevyEndBeforeItsStartOrWeeksAfterItIsRefused() async throws {
        let original = try String(contentsOfFile: Self.synthetic + "hevy-imperial.csv", encoding: .utf8)
        for (end, why) in [
            ("12 Jan 2025, 05:05", "before start_time"), ("12 Jan 2025, 06:35", "before start_time"),
            ("12 Feb 2026, 08:10", "more than a year after start_time"),
        ] {
            let file = directory.child("hevy-end.csv")
            try Data(original.replacingOccurrences(of: "12 Jan 2025, 08:10", with: end).utf8).write(
                to: URL(fileURLWithPath: file))
            let before = try snapshot(of: journal.path)
            let error = await importError { _ = try await importing(file) }
            #expect(error?.code == .malformed && error?.message.hasPrefix("line 2: end_time") == true)
            #expect(error?.message.contains(why) == true, "\(String(describing: error))")
            #expect(try snapshot(of: journal.path) == before)
        }
        // New York's clocks went back from 02:00 EDT (UTC−4) to 01:00 EST (UTC−5) on 3 November 2024: 01:50 EDT is
        // 05:50Z, 01:10 EST is 06:10Z, 20 minutes later.
        let file = directory.child("hevy-back.csv")
        try Data(
            original.replacingOccurrences(of: "12 Jan 2025, 07:05", with: "3 Nov 2024, 01:50")
                .replacingOccurrences(of: "12 Jan 2025, 08:10", with: "3 Nov 2024, 01:10").utf8
        ).write(to: URL(fileURLWithPath: file))
        _ = try await Importer(log: log).importFile(
            at: file, options: ImportOptions(timeZone: TimeZone(identifier: "America/New_York")))
        let upper = try #require(try log.query { try $0.history() }.first { $0.name == "Upper A" })
        #expect(upper.startedAt == Timestamp(rfc3339: "2024-11-03T05:50:00Z") && upper.durationSeconds == 1_200)
        // 00:45 comes once that night, before 01:30: an end before the start, outside the hour that comes twice.
        try Data(
            original.replacingOccurrences(of: "12 Jan 2025, 07:05", with: "3 Nov 2024, 01:30")
                .replacingOccurrences(of: "12 Jan 2025, 08:10", with: "3 Nov 2024, 00:45").utf8
        ).write(to: URL(fileURLWithPath: file))
        let error = await importError {
            _ = try await Importer(log: log).importFile(
                at: file, options: ImportOptions(timeZone: TimeZone(identifier: "America/New_York")))
        }
        #expect(error?.message.hasSuffix("is before start_time") == true, "\(String(describing: error))")
    }

    /// New York's clocks went from 02:00 EST to 03:00 EDT on 8 March 2026: 02:30 did not occur there. Foundation
    /// moved it on to 03:30 EDT, which put a Strong workout after the one at 03:10 that the file has after it, and
    /// made a Hevy workout end before it began. Refused, at its line, with the cause, and nothing written.
    @Test func aLocalTimeTheClocksSkipIsRefusedWithItsCause() async throws {
        let newYork = ImportOptions(unit: .kilograms, timeZone: TimeZone(identifier: "America/New_York"))
        let strong = directory.child("strong-skipped.csv")
        try Data(
            """
            Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,RPE
            2026-03-08 01:59:00,A,30m,Bench Press (Barbell),1,60,5,0,0,
            2026-03-08 02:30:00,B,30m,Bench Press (Barbell),1,60,5,0,0,

            """.utf8
        ).write(to: URL(fileURLWithPath: strong))
        let hevy = directory.child("hevy-skipped.csv")
        let original = try String(contentsOfFile: Self.synthetic + "hevy-imperial.csv", encoding: .utf8)
        try Data(
            original.replacingOccurrences(of: "12 Jan 2025, 07:05", with: "8 Mar 2026, 02:30")
                .replacingOccurrences(of: "12 Jan 2025, 08:10", with: "8 Mar 2026, 03:10").utf8
        ).write(to: URL(fileURLWithPath: hevy))
        for (file, field) in [
            (strong, "line 3: date \"2026-03-08 02:30:00\""), (hevy, "start_time \"8 Mar 2026, 02:30\""),
        ] {
            let before = try snapshot(of: journal.path)
            let error = await importError { _ = try await Importer(log: log).importFile(at: file, options: newYork) }
            #expect(error?.code == .malformed)
            #expect(
                error?.message.contains("\(field) does not exist in America/New_York: the clocks skip it") == true,
                "\(String(describing: error))")
            #expect(try snapshot(of: journal.path) == before)
        }
        // Nuuk's clocks go from 23:00 (UTC−2) to midnight (UTC−1) on 28 March 2026 (Python's zoneinfo reads 23:30 back
        // as 00:30 the next day): a skip across midnight, which Foundation moved to the next day.
        try Data(
            """
            Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,RPE
            2026-03-28 23:30:00,Late,30m,Bench Press (Barbell),1,60,5,0,0,

            """.utf8
        ).write(to: URL(fileURLWithPath: strong))
        let nuuk = ImportOptions(unit: .kilograms, timeZone: TimeZone(identifier: "America/Nuuk"))
        let acrossMidnight = await importError {
            _ = try await Importer(log: log).importFile(at: strong, options: nuuk)
        }
        #expect(
            acrossMidnight?.message.contains("\"2026-03-28 23:30:00\" does not exist in America/Nuuk") == true,
            "\(String(describing: acrossMidnight))")
        // 01:59 EST is 06:59Z, read as it was: the hour before the change is no skipped time.
        try Data(
            """
            Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,RPE
            2026-03-08 01:59:00,A,30m,Bench Press (Barbell),1,60,5,0,0,
            2026-03-08 03:00:00,B,30m,Bench Press (Barbell),1,60,5,0,0,

            """.utf8
        ).write(to: URL(fileURLWithPath: strong))
        _ = try await Importer(log: log).importFile(at: strong, options: newYork)
        // 03:00 EDT is 07:00Z: a minute after 01:59 EST.
        #expect(
            try log.query { try $0.history() }.map(\.startedAt) == [
                Timestamp(rfc3339: "2026-03-08T06:59:00Z"), Timestamp(rfc3339: "2026-03-08T07:00:00Z"),
            ])
        // A leap second, 23:59:60 on 25 April, stays on its day: it was read as midnight, a workout of the 26th.
        try Data(
            """
            Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,RPE
            2026-04-25 23:59:60,Leap,30m,Bench Press (Barbell),1,60,5,0,0,

            """.utf8
        ).write(to: URL(fileURLWithPath: strong))
        _ = try await Importer(log: log).importFile(
            at: strong, options: ImportOptions(unit: .kilograms, timeZone: .gmt))
        #expect(
            try log.query { try $0.history() }.first { $0.name == "Leap" }?.startedAt
                == Timestamp(rfc3339: "2026-04-25T23:59:59Z"))
    }

    /// A row's reps may be any 32-bit count (flagged past 1,000). With implausible sets counted, the sums of reps stop at
    /// the largest count instead of overflowing, which crashed every fold and query of the journal; and the suggestion
    /// after such a set stops at the top of the range.
    @Test func hugeRepsCountedUnderTheRuleOffStopAtTheLargestCount() async throws {
        try await log.changeRule("records.exclude-implausible", to: "off")
        let file = directory.child("reps.csv")
        try Data(
            """
            Date,Workout Name,Exercise Name,Set Order,Weight,Reps
            2024-01-01 10:00:00,A,Bench Press (Barbell),1,100,4294967295
            2024-01-01 10:00:00,A,Bench Press (Barbell),2,100,3

            """.utf8
        ).write(to: URL(fileURLWithPath: file))
        _ = try await importing(file, unit: .kilograms)
        let line = try #require(try log.query { try $0.history() }.first?.exercises.first)
        #expect(line.sets == 2 && line.reps == UInt32.max)
        try await log.addToRoutine(
            "Push", exercise: "Barbell Bench Press - Medium Grip", sets: 2, reps: 5...8, restSeconds: 90)
        try await log.start(routine: "Push")
        // The first set reached 8, the second did not: the same weight and the top of the range again.
        let suggestion = try #require(try log.activeSession()?.exercises.first?.suggestion)
        #expect(suggestion.weight == Weight(ExactDecimal(100), .kilograms) && suggestion.reps == 8)
        #expect(suggestion.reason == "not every set reached 8 reps last time: the same weight, at the top of the range")
    }

    /// Only Strong's layout, which LiftLedger's export writes, reads `\\` as one backslash; in Hevy's, a note keeps
    /// both, and `\n` is a line break in every layout.
    @Test func backslashesInNotesAreReadAsEachLayoutWritesThem() async throws {
        let original = try String(contentsOfFile: Self.synthetic + "hevy-imperial.csv", encoding: .utf8)
        let file = directory.child("hevy-notes.csv")
        try Data(original.replacingOccurrences(of: #""close grip""#, with: #""C:\\grip\nwide""#).utf8).write(
            to: URL(fileURLWithPath: file))
        _ = try await importing(file)
        let upper = try #require(try log.query { try $0.history() }.first { $0.name == "Upper A" })
        let note = try sets(upper.workoutId).first?.details.note
        #expect(note == "C:\\\\grip\nwide", "\(String(describing: note))")
    }

    /// A workout's name over two lines, or with a tab, is refused at its line, as `start --name` refuses it: tables
    /// print a name on one line. Nothing is written.
    @Test func workoutNamesAreOnOneLine() async throws {
        let strong =
            "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,RPE\n"
            + "2026-04-24 09:40:00,\"Upper\nBody\",51m,Bench,1,40,10,0,0,\n"
        let hevy = try String(contentsOfFile: Self.synthetic + "hevy-imperial.csv", encoding: .utf8)
            .replacingOccurrences(of: #""Upper A""#, with: "\"Upper\tA\"")
        let head = try journal.head()
        for (name, text) in [("strong-split.csv", strong), ("hevy-tab.csv", hevy)] {
            let path = directory.child(name)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            let refused = await importError { _ = try await importing(path, unit: .kilograms) }
            #expect(
                refused?.message == "line 2 names a workout with a line break or another control character",
                "\(String(describing: refused))")
        }
        #expect(try journal.head() == head)
    }

    /// A custom exercise's id, made of its name, is part of read-model keys, which LMDB limits to 511 bytes: a name
    /// is at most 100 scalars, and the longest in bytes (100 four-byte scalars) still folds and answers queries. One
    /// longer is refused at its line, and nothing is written; `exercise add` refuses it too.
    @Test func exerciseNamesAreAsLongAsKeysAllow() async throws {
        let header = "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,RPE\n"
        func file(_ name: String) throws -> String {
            let path = directory.child("long-\(name.unicodeScalars.count).csv")
            let row = "2026-04-24 09:40:00,Upper,51m,\"\(name)\",1,40,10,0,0,\n"
            try Data((header + row).utf8).write(to: URL(fileURLWithPath: path))
            return path
        }
        let longest = String(repeating: "\u{1D400}", count: Exercise.maximumNameLength)
        #expect(longest.utf8.count == 400)
        let added = try await importing(try file(longest), unit: .kilograms)
        #expect(added.workoutsAdded == 1)
        let custom = try #require(try log.query { try $0.catalog() }.lookup(longest))
        #expect(custom.id.utf8.count > 400)
        let records = try log.query { try $0.records(of: custom.id) }
        #expect(records[.heaviestWeight]?.count == 1)

        let head = try journal.head()
        let tooLong = await importError { _ = try await importing(try file(longest + "x"), unit: .kilograms) }
        #expect(
            tooLong?.message == "line 2 names an exercise longer than 100 characters", "\(String(describing: tooLong))")
        #expect(try journal.head() == head)
        // A name over two lines, or with a tab, is refused at its line as exercise add refuses it.
        for name in ["Line\nBreak", "Tab\tName"] {
            let split = await importError { _ = try await importing(try file(name), unit: .kilograms) }
            #expect(
                split?.message == "line 2 names an exercise with a line break or another control character",
                "\(String(describing: split))")
        }
        // A name of invisible characters alone names none: each was taken as the one exercise `custom-`.
        for name in ["\u{202E}", "\u{2066}", "\u{200E}"] {
            let invisible = await importError { _ = try await importing(try file(name), unit: .kilograms) }
            #expect(invisible?.message == "line 2 names no exercise", "\(String(describing: invisible))")
        }
        #expect(try journal.head() == head)
        await #expect(throws: TrainingError.self) {
            try await log.addCustomExercise(
                CustomExerciseAdded(
                    exerciseId: "", name: String(repeating: "y", count: 101), primaryMuscles: ["chest"],
                    secondaryMuscles: []))
        }
        #expect(try journal.head() == head)
    }

    /// Blank lines, empty or of spaces and tabs alone, are passed over, between rows and at the end.
    @Test func blankLinesArePassedOver() async throws {
        let file = directory.child("blank.csv")
        try Data(
            "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,RPE\r\n\r\n"
                .appending("2026-04-24 09:40:00,Upper,51m,Bench Press (Barbell),1,40,10,0,0,\r\n  \t\r\n")
                .appending("2026-04-25 09:40:00,Lower,51m,Squat (Barbell),1,60,5,0,0,\n \n").utf8
        ).write(to: URL(fileURLWithPath: file))
        let report = try await importing(file, unit: .kilograms)
        #expect(report.workoutsAdded == 2 && report.sets == 2)
    }

    /// A negative distance does not parse, as a negative weight or time does not (it was dropped without a word), and
    /// nothing is written; a set's seconds are whole, 600.7 being 601.
    @Test func aNegativeDistanceIsRefusedAndSecondsAreWhole() async throws {
        let file = directory.child("run.csv")
        func write(distance: String) throws {
            try Data(
                """
                Date,Workout Name,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes
                2024-01-01 10:00:00,Run,Running (Treadmill),1,,,\(distance),600.7,

                """.utf8
            ).write(to: URL(fileURLWithPath: file))
        }
        try write(distance: "-3")
        let before = try snapshot(of: journal.path)
        let error = await importError { _ = try await importing(file, unit: .kilograms) }
        #expect(error?.code == .malformed && error?.message == "line 2: distance \"-3\" does not parse")
        #expect(try snapshot(of: journal.path) == before)
        try write(distance: "3")
        _ = try await importing(file, unit: .kilograms)
        let set = try #require(try sets("workout-1").first)
        #expect(set.details.durationSeconds == 601 && set.details.distanceMeters == ExactDecimal(3_000))
    }

    /// A weight written with a decimal comma, as a spreadsheet in many languages saves a file (in one whose fields are
    /// separated by semicolons), is refused saying so, with the number as the apps export it; not a number with three
    /// digits after its comma, which a thousands separator writes too.
    @Test func aDecimalCommaIsNamedInTheRefusal() async throws {
        let file = directory.child("comma.csv")
        func write(weight: String, seconds: String) throws {
            try Data(
                """
                Date;Workout Name;Exercise Name;Set Order;Weight;Reps;Distance;Seconds;Notes
                2024-01-01 10:00:00;Legs;Squat (Barbell);1;\(weight);10;0;\(seconds);

                """.utf8
            ).write(to: URL(fileURLWithPath: file))
        }
        let before = try snapshot(of: journal.path)
        try write(weight: "40,5", seconds: "0")
        let comma = await importError { _ = try await importing(file, unit: .kilograms) }
        #expect(
            comma?.message == "line 2: weight \"40,5\" does not parse (a decimal comma: the apps export 40.5)",
            "\(String(describing: comma))")
        try write(weight: "40", seconds: "1,200")
        let thousands = await importError { _ = try await importing(file, unit: .kilograms) }
        #expect(thousands?.message == "line 2: seconds \"1,200\" does not parse", "\(String(describing: thousands))")
        #expect(try snapshot(of: journal.path) == before)
    }

    /// A workout of rest rows alone is passed over and counted as such: it would count as a day trained with no set,
    /// and an export, whose rows are sets, would leave it out.
    @Test func aWorkoutOfRestRowsAloneIsPassedOver() async throws {
        let file = directory.child("rest.csv")
        try Data(
            """
            Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE
            2024-03-01 10:00:00,OnlyRest,1h,Bench Press (Barbell),Rest Timer,,,,90,,,
            2024-03-02 10:00:00,Real,1h,Bench Press (Barbell),1,100,5,,,,,

            """.utf8
        ).write(to: URL(fileURLWithPath: file))
        let report = try await importing(file, unit: .kilograms)
        #expect(report.workouts == 2 && report.workoutsAdded == 1 && report.workoutsWithoutSets == 1)
        #expect(report.restRows == 1 && report.sets == 1)
        #expect(try log.query { try $0.history() }.map(\.name) == ["Real"])
        #expect(try log.query { try $0.trainingDays() }.count == 1)
    }

    /// A file saved with CRLF line endings ends the lines inside a quoted note so too: the note's line break is one, and
    /// the copy is the same history as the LF file, already imported.
    @Test func aLineBreakInANoteIsOneWhateverTheFileEndsLinesWith() async throws {
        let rows = [
            "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE",
            "2024-01-01 10:00:00,A,1h,Bench Press (Barbell),1,100,5,,,\"left shoulder\ntight\",,",
        ]
        let lf = directory.child("lf.csv")
        let crlf = directory.child("crlf.csv")
        try Data((rows.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: lf))
        try Data((rows.joined(separator: "\n") + "\n").replacingOccurrences(of: "\n", with: "\r\n").utf8).write(
            to: URL(fileURLWithPath: crlf))
        _ = try await importing(lf, unit: .kilograms)
        let head = try journal.head()
        let again = try await importing(crlf, unit: .kilograms)
        #expect(again.workoutsAlreadyImported == 1 && again.workoutsCorrected == 0)
        #expect(try journal.head() == head)
        #expect(try sets("workout-1").first?.details.note == "left shoulder\ntight")
    }

    /// A workout imported again reads its start and note from the file too: read in another --time-zone, its start moves
    /// (10:00 in New York on 2024-01-15, UTC−5, is 15:00Z, five hours after the 10:00Z read in UTC); a note written
    /// since in the app replaces the one imported. A new date given in LiftLedger stays while the file reads as it did.
    @Test func aReimportCorrectsTheStartAndTheNote() async throws {
        let file = directory.child("zone.csv")
        func write(note: String) throws {
            try Data(
                """
                Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE
                2024-01-15 10:00:00,A,1h,Bench Press (Barbell),1,100,5,,,,\(note),
                2024-01-17 10:00:00,B,1h,Bench Press (Barbell),1,100,5,,,,,

                """.utf8
            ).write(to: URL(fileURLWithPath: file))
        }
        try write(note: "")
        func start(_ id: String) throws -> Timestamp? { try log.query { try $0.workout(id) }?.startedAt }
        _ = try await Importer(log: log).importFile(
            at: file, options: ImportOptions(unit: .kilograms, timeZone: TimeZone(identifier: "UTC")))
        #expect(try start("workout-1") == Timestamp(rfc3339: "2024-01-15T10:00:00Z"))
        let newYork = ImportOptions(unit: .kilograms, timeZone: TimeZone(identifier: "America/New_York"))
        var report = try await Importer(log: log).importFile(at: file, options: newYork)
        #expect(report.workoutsCorrected == 2)
        // Each named, with its start changed and nothing else.
        #expect(report.corrections.map(\.workoutId) == ["workout-1", "workout-2"])
        #expect(report.corrections.allSatisfy { $0.isStartChanged && !$0.isNoteChanged && $0.setsCorrected == 0 })
        #expect(try start("workout-1") == Timestamp(rfc3339: "2024-01-15T15:00:00Z"))
        #expect(try log.query { try $0.workout("workout-1") }?.finishedAt == Timestamp(rfc3339: "2024-01-15T16:00:00Z"))
        // Moved in LiftLedger, and the file read as before: the new date stays.
        try await log.editWorkout("2", startedAt: Timestamp(rfc3339: "2024-01-18T15:00:00Z"), note: nil, name: nil)
        report = try await Importer(log: log).importFile(at: file, options: newYork)
        #expect(report.workoutsAlreadyImported == 2 && report.workoutsCorrected == 0)
        #expect(try start("workout-2") == Timestamp(rfc3339: "2024-01-18T15:00:00Z"))
        try write(note: "felt strong")
        report = try await Importer(log: log).importFile(at: file, options: newYork)
        #expect(report.workoutsCorrected == 1)
        #expect(report.corrections.map { [$0.isStartChanged, $0.isNoteChanged] } == [[false, true]])
        #expect(try log.query { try $0.workout("workout-1") }?.note == "felt strong")
        // Read in the profile's zone, changed since (a move to Tokyo), the times are as they were: nothing moves.
        try await log.updateProfile(ProfileUpdated(timeZone: "Asia/Tokyo"))
        report = try await importing(file, unit: .kilograms)
        #expect(report.workoutsAlreadyImported == 2 && report.workoutsCorrected == 0)
        #expect(try start("workout-1") == Timestamp(rfc3339: "2024-01-15T15:00:00Z"))
    }

    /// A workout deleted in LiftLedger stays deleted when a changed file is imported again: nothing is written to it,
    /// and it counts as already imported. A correction to a workout not deleted is dated at the workout's own end, not
    /// at the file's end read in the zone the profile has since (Tokyo, eight hours ahead of Berlin in winter).
    @Test func aReimportLeavesADeletedWorkoutAloneAndDatesCorrectionsInTheWorkout() async throws {
        let file = directory.child("late.csv")
        func write(weight: Int) throws {
            try Data(
                """
                Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE
                2025-03-01 23:30:00,Late,1h,Squat (Barbell),1,\(weight),5,0,0,,,
                2025-03-03 18:00:00,Legs,1h,Squat (Barbell),1,\(weight),5,0,0,,,

                """.utf8
            ).write(to: URL(fileURLWithPath: file))
        }
        try write(weight: 100)
        _ = try await importing(file, unit: .kilograms)
        try await log.deleteWorkout("workout-2")
        try await log.updateProfile(ProfileUpdated(timeZone: "Asia/Tokyo"))
        try write(weight: 150)
        let head = try journal.head().position
        let report = try await importing(file, unit: .kilograms)
        #expect(report.workoutsCorrected == 1 && report.workoutsAlreadyImported == 1)
        #expect(try journal.head().position == head + 1)
        #expect(try journal.readStream("workout-2").last?.type == WorkoutDeleted.typeName)
        // Late ran from 23:30 to 00:30 in Berlin (UTC+1): 22:30Z to 23:30Z on 2025-03-01.
        let correction = try #require(try journal.readStream("workout-1").last)
        #expect(correction.type == SetCorrected.typeName)
        #expect(correction.occurredAt == Timestamp(rfc3339: "2025-03-01T23:30:00Z"))
    }

    /// Names with no letter or digit stay apart: each was `custom-` (💪 and ??? normalize to nothing, 🏋️ to its
    /// variation selector alone), so their sets and records merged. Their ids are their visible characters in hex
    /// (🏋️ without its variation selector, so that 🏋 finds it too), each is found by its name, and a --map entry
    /// for one maps it alone.
    @Test func namesWithoutLettersStayApart() async throws {
        let file = directory.child("symbols.csv")
        try Data(
            """
            Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,RPE
            2024-01-01 10:00:00,A,1h,💪,1,100,5,,,
            2024-01-01 10:00:00,A,1h,???,1,200,5,,,
            2024-01-01 10:00:00,A,1h,🏋️,1,50,5,,,

            """.utf8
        ).write(to: URL(fileURLWithPath: file))
        let report = try await importing(file, unit: .kilograms)
        #expect(report.customExercisesAdded.count == 3)
        let ids = try sets("workout-1").map(\.details.exerciseId)
        #expect(ids == ["custom-_1f4aa", "custom-_3f_3f_3f", "custom-_1f3cb"])
        let catalog = try log.query { try $0.catalog() }
        #expect(catalog.lookup("💪")?.id == "custom-_1f4aa" && catalog.lookup("\u{1F3CB}")?.id == "custom-_1f3cb")
        #expect(catalog.search("💪").map(\.id) == ["custom-_1f4aa"])
        #expect(try await importing(file, unit: .kilograms).workoutsAlreadyImported == 1)
        // A map for 💪 alone: the other two stay as they are.
        let map = directory.child("symbols-map.json")
        try Data(#"{"💪": "Barbell Curl"}"#.utf8).write(to: URL(fileURLWithPath: map))
        let remapped = try await importing(file, unit: .kilograms, map: map)
        #expect(remapped.workoutsCorrected == 1)
        #expect(
            try sets("workout-1").map(\.details.exerciseId) == ["Barbell_Curl", "custom-_3f_3f_3f", "custom-_1f3cb"])
    }

    /// A name of more than eight symbols has a key of its first eight and a hash of them all, short enough for an
    /// LMDB key (at most 511 bytes), however long the name: 100 × 🔥 in hex alone would be 700 bytes.
    @Test func aLongSymbolNameHasAShortKey() {
        let long = String(repeating: "🔥", count: 100)
        let key = ExerciseCatalog.key(long)
        #expect(key.hasPrefix(String(repeating: "_1f525", count: 8) + "_") && key.utf8.count <= 8 * 6 + 17)
        #expect(key != ExerciseCatalog.key(String(repeating: "🔥", count: 99)))
        #expect(ExerciseCatalog.key("\u{200B} ").isEmpty, "blanks and invisible characters alone are no name")
    }

    /// A carriage return alone ends a line, outside quotes: a FitNotes row after one is a row of its own, not text of
    /// the note before it (which swallowed a set, with status 0), and a file of such lines has rows.
    @Test func aCarriageReturnAloneEndsALine() async throws {
        let header = "Date,Exercise,Category,Weight,Weight Unit,Reps,Distance,Distance Unit,Time,Comment"
        let mixed = directory.child("mixed.csv")
        try Data(
            (header
                + "\r\n2023-01-05,Deadlift,Back,200.0,kgs,3,,,,\"\"\r2023-01-06,Deadlift,Back,200.0,kgs,3,,,,\"\"\r\n")
                .utf8
        ).write(to: URL(fileURLWithPath: mixed))
        let report = try await importing(mixed)
        #expect(report.sets == 2 && report.workoutsAdded == 2)
        let old = directory.child("old-mac.csv")
        try Data((header + "\r2023-02-05,Deadlift,Back,210.0,kgs,3,,,,\"a\rb\"\r").utf8).write(
            to: URL(fileURLWithPath: old))
        #expect(try await importing(old).workoutsAdded == 1)
        // Inside quotes, it is the note's line break, as a CRLF there is.
        #expect(try sets("workout-3").first?.details.note == "a\nb")
        // A file of such lines longer than the 64 KB the header is looked for in: 336 days × 5 sets, 90 KB or so.
        var rows = [header]
        for month in 1...12 {
            for day in 1...28 {
                let date = "2021-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)"
                rows += Array(repeating: "\(date),Deadlift,Back,200.0,kgs,3,,,,\"\"", count: 5)
            }
        }
        let long = directory.child("old-mac-long.csv")
        let text = rows.joined(separator: "\r") + "\r"
        #expect(text.utf8.count > 65_536)
        try Data(text.utf8).write(to: URL(fileURLWithPath: long))
        let longReport = try await importing(long)
        #expect(longReport.workoutsAdded == 336 && longReport.sets == 1_680)
    }

    @Test func filesThatAreNoExportAreRefusedAndWriteNothing() async throws {
        let random = directory.child("random.bin")
        #expect(FileManager.default.createFile(atPath: random, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: random))
        let source = try #require(FileHandle(forReadingAtPath: "/dev/urandom"))
        for _ in 0..<200 { handle.write(try #require(try source.read(upToCount: 1 << 20))) }
        try handle.close()
        let empty = directory.child("empty.csv")
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        let headerOnly = directory.child("header.csv")
        try Data("Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,RPE\n".utf8)
            .write(to: URL(fileURLWithPath: headerOnly))
        let head = try journal.head()
        // Random bytes may fail as text or as a layout; every other case has one right answer.
        let cases: [(String, MassUnit?, [ImportError.Code])] = [
            (random, nil, [.malformed, .unknownLayout]), (empty, nil, [.empty]),
            (headerOnly, .kilograms, [.empty]),
            // The Chinese file writes kilograms converted to pounds (docs/IMPORT.md, "Weights"): read as kilograms, its
            // noisy values are plain only in the other unit, so --unit kg is refused.
            (Self.exports + "strong-zh-2020-2023.csv", .kilograms, [.unit]),
            (Self.exports + "strong-2026.csv", nil, [.unit]),
        ]
        for (file, unit, codes) in cases {
            let error = await importError { _ = try await importing(file, unit: unit) }
            #expect(error.map { codes.contains($0.code) } == true, "\(file): \(String(describing: error))")
            #expect(error.map { !$0.message.isEmpty && !$0.remedy.isEmpty } == true)
        }
        // A Strong file said to be FitNotes' lacks the Category column every FitNotes export has.
        let misnamed = await importError {
            _ = try await Importer(log: log).importFile(
                at: Self.exports + "strong-2026.csv", options: ImportOptions(format: .fitnotes, unit: .kilograms))
        }
        #expect(misnamed?.code == .unknownLayout && misnamed?.message.contains("Category column") == true)
        // A Hevy header whose weight column names no unit (`weight` for `weight_kg`) is an edited one: refused, not
        // read in the unit --unit gives (which would read these kilograms as pounds).
        let hevy = try String(contentsOfFile: Self.exports + "hevy-kg-2022-2026.csv", encoding: .utf8)
        let unitless = directory.child("hevy-unitless.csv")
        try Data(hevy.replacingOccurrences(of: "\"weight_kg\"", with: "\"weight\"").utf8)
            .write(to: URL(fileURLWithPath: unitless))
        let edited = await importError { _ = try await importing(unitless, unit: .pounds) }
        #expect(
            edited?.code == .unknownLayout
                && edited?.message == "the header lacks the weight_kg (or weight_lbs) column of a hevy export",
            "\(String(describing: edited))")
        // Its distance column too: a bare `distance` was read in kilometres beside `weight_kg`, in miles beside
        // `weight_lbs`.
        let distanceless = directory.child("hevy-distance.csv")
        try Data(hevy.replacingOccurrences(of: "\"distance_km\"", with: "\"distance\"").utf8)
            .write(to: URL(fileURLWithPath: distanceless))
        let distance = await importError { _ = try await importing(distanceless, unit: nil) }
        #expect(
            distance?.code == .unknownLayout
                && distance?.message == "the header's distance column names no unit, as a hevy export's does",
            "\(String(describing: distance))")
        // A real export in another encoding is said to be one, with the fix: UTF-16 with its byte-order mark and
        // without, and Latin-1 (its `Ü` one byte, 0xDC, which UTF-8 never has alone).
        let strong = try String(contentsOfFile: Self.synthetic + "strong-de.csv", encoding: .utf8)
        #expect(strong.contains("Ü"))
        for (name, data, says) in [
            ("utf16.csv", try #require(strong.data(using: .utf16)), "is UTF-16 or UTF-32 text (it begins with a"),
            ("utf16le.csv", try #require(strong.data(using: .utf16LittleEndian)), "it is UTF-16 or UTF-32 text, or"),
            ("latin1.csv", try #require(strong.data(using: .isoLatin1)), "text that is not UTF-8"),
            // A program's first bytes (an ELF header) are no wide text: the message does not say they are.
            ("program.csv", Data([0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00, 0x00, 0x0A]), "or no text at all"),
        ] {
            let file = directory.child(name)
            try data.write(to: URL(fileURLWithPath: file))
            let error = await importError { _ = try await importing(file, unit: .kilograms) }
            #expect(error?.message.contains(says) == true, "\(name): \(String(describing: error))")
            #expect(error?.remedy.contains("UTF-8") == true, "\(name)")
        }
        // Times on a 12-hour clock are said to be so, for every row has them: the fix is the file's, not one row's.
        let twelve = directory.child("twelve-hour.csv")
        /// The error of importing one Strong row of one set dated `date`.
        func dateError(_ date: String) async throws -> ImportError? {
            try Data(
                ("Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,RPE\n"
                    + "\(date),Upper,51m,Bench Press (Barbell),1,40.0,10.0,0,0.0,\n").utf8
            ).write(to: URL(fileURLWithPath: twelve))
            return await importError { _ = try await importing(twelve, unit: .kilograms) }
        }
        let twelveError = try await dateError("2026-04-24 9:40:00 PM")
        #expect(
            twelveError?.message
                == "line 2: date \"2026-04-24 9:40:00 PM\" is on a 12-hour clock, which an import does not read",
            "\(String(describing: twelveError))")
        // The remedy gives the row's own time on a 24-hour clock: it gave a fixed example, 21:40:00, for every time.
        #expect(
            twelveError?.remedy.hasPrefix("write the file's times on a 24-hour clock (9:40:00 PM as 21:40:00)") == true)
        // Its other spellings, Spanish and Chinese, and the hours around noon and midnight (by hand: 12 AM is 00, 12 PM
        // is 12, 上午 is before noon); a text that ends as a word of the language does is no time.
        for (date, asWritten) in [
            ("2026-04-24 9:40:00 p. m.", "9:40:00 p. m. as 21:40:00"),
            ("2026-04-24 下午9:40:00", "下午9:40:00 as 21:40:00"),
            ("2026-04-24 12:05 AM", "12:05 AM as 00:05"), ("2026-04-24 12:30:15 pm", "12:30:15 pm as 12:30:15"),
            ("2026-04-24 上午7:05", "上午7:05 as 07:05"), ("Leg Program", nil),
        ] {
            let error = try await dateError(date)
            #expect(
                error?.message.hasSuffix("is on a 12-hour clock, which an import does not read") == (asWritten != nil),
                "\(date)")
            if let asWritten {
                #expect(error?.remedy.contains("(\(asWritten))") == true, "\(date): \(error?.remedy ?? "")")
            }
        }
        // A compressed download of an export is said to be an archive, not UTF-16 (a gzip stream has NUL bytes): gzip's
        // own output, and a file that opens as a zip archive does (`PK` 3 4).
        let gzipped = directory.child("strong.csv.gz")
        let gzip = try run("/bin/sh", ["-c", "gzip -c '\(Self.synthetic)strong-de.csv' > '\(gzipped)'"])
        #expect(gzip.status == 0, "\(gzip.standardError)")
        let zipped = directory.child("strong.zip")
        try (Data([0x50, 0x4B, 0x03, 0x04]) + Data(strong.utf8)).write(to: URL(fileURLWithPath: zipped))
        for (file, kind) in [(gzipped, "gzip"), (zipped, "zip")] {
            let error = await importError { _ = try await importing(file, unit: .kilograms) }
            #expect(error?.message == "\(file) is a \(kind) archive, not text", "\(String(describing: error))")
            #expect(error?.remedy == "take the export out of it (the file inside), then import that")
        }
        // An empty zip archive (its end record alone) has no file to take out.
        let emptyZip = directory.child("empty.zip")
        try Data([0x50, 0x4B, 0x05, 0x06] + [UInt8](repeating: 0, count: 18)).write(to: URL(fileURLWithPath: emptyZip))
        let emptyError = await importError { _ = try await importing(emptyZip, unit: .kilograms) }
        #expect(emptyError?.message == "\(emptyZip) is an empty zip archive", "\(String(describing: emptyError))")
        // A header longer than the 64 KB read for it, quoted or not: said to be so (a quoted field cut at the end of
        // what was read had read as never closed).
        for field in [String(repeating: "x", count: 70_000), "\"" + String(repeating: "x", count: 70_000) + "\""] {
            let long = directory.child("long-header.csv")
            try Data("Date,Workout Name,\(field)\n2026-01-01 10:00:00,A\n".utf8).write(to: URL(fileURLWithPath: long))
            let error = await importError { _ = try await importing(long, unit: .kilograms) }
            #expect(error?.message == "\(long) has no header line in its first 64 KB", "\(String(describing: error))")
        }
        // A file over the largest an import reads (64 MB), whose header is an export's, is refused before its rows
        // are read.
        let huge = directory.child("huge.csv")
        var padded = Data("Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,RPE\n".utf8)
        padded.append(Data(repeating: UInt8(ascii: "\n"), count: (64 << 20) + 1 - padded.count))
        try padded.write(to: URL(fileURLWithPath: huge))
        let tooLarge = await importError { _ = try await importing(huge, unit: .kilograms) }
        #expect(tooLarge?.code == .file && tooLarge?.message.hasSuffix("is over the 64 MB an export can be") == true)
        // LiftLedger's own JSON Lines export is for import-journal.
        let lines = directory.child("journal.jsonl")
        var exported = ""
        try JournalExport.write(journal) { exported += $0 }
        try Data(exported.utf8).write(to: URL(fileURLWithPath: lines))
        let journalExport = await importError { _ = try await importing(lines) }
        #expect(journalExport?.remedy.contains("liftledger import-journal") == true)
        #expect(try journal.head() == head)
    }

    @Test func aJSONLinesExportRestoresTheSameJournal() async throws {
        _ = try await importing("strong-2023.csv", unit: .kilograms)
        _ = try await journal.append(
            [ProposedEvent(type: "Note", encoding: .json, payload: Array(#"{ "a" : [1, 2] }"#.utf8))], to: "notes")
        // Notes enough to outgrow a map of 1 MiB (below).
        let notes = (0..<3_000).map { _ in
            ProposedEvent(type: "Note", encoding: .opaque, payload: [UInt8](repeating: 7, count: 500))
        }
        _ = try await journal.append(notes, to: "more-notes")
        let export = directory.child("export.jsonl")
        var text = ""
        try JournalExport.write(journal) { text += $0 }
        try Data(text.utf8).write(to: URL(fileURLWithPath: export))
        // A map of 1 MiB, which the restore outgrows (see StorageTests for a restore grown first to the size it is
        // told).
        let copy = try Journal.open(
            at: directory.child("copy"), options: JournalOptions(initialMapSize: 1 << 20), create: true)
        let count = try await JournalExport.restore(from: export, into: copy)
        #expect(copy.environment.info().mapSize > 1 << 20, "the map grew")
        #expect(count == Int(try journal.head().position))
        #expect(try copy.head() == journal.head())
        #expect(try copy.verify().isValid)
        // A changed record no longer reproduces its hash: refused, nothing written.
        let tampered = directory.child("tampered.jsonl")
        let changed = text.replacingOccurrences(of: #""source":"cli""#, with: #""source":"cla""#)
        #expect(changed != text)
        try Data(changed.utf8).write(to: URL(fileURLWithPath: tampered))
        let other = try Journal.open(at: directory.child("other"), create: true)
        await #expect(throws: (any Error).self) { try await JournalExport.restore(from: tampered, into: other) }
        #expect(try other.head().position == 0)
        // The readable forms beside the bytes, edited while the bytes are not: the JSON payload of the note, and the
        // decoded `data` of the first set (its reps, 5 in the file, made 95). Refused, nothing written.
        let firstReps = try #require(text.range(of: #""reps":"#))
        var editedData = text
        editedData.insert("9", at: firstReps.upperBound)
        for (field, edited) in [
            ("payload", text.replacingOccurrences(of: "[1, 2]", with: "[1, 3]")), ("data", editedData),
        ] {
            #expect(edited != text)
            try Data(edited.utf8).write(to: URL(fileURLWithPath: tampered))
            let error = await importError { _ = try await JournalExport.restore(from: tampered, into: other) }
            #expect(
                error?.message.contains("\(field) differs from payloadBase64") == true, "\(String(describing: error))")
            #expect(try other.head().position == 0)
        }
    }

    /// An export cut short at the end of a line reads as well as a whole one: its end line tells them apart.
    @Test func aJSONLinesExportCutShortIsRefusedUnlessAllowed() async throws {
        _ = try await importing("strong-2023.csv", unit: .kilograms)
        var text = ""
        try JournalExport.write(journal) { text += $0 }
        var lines = text.split(separator: "\n").map(String.init)
        // The end line counts the records the lines before it hold, and names the journal's head.
        let head = try journal.head()
        let lastLine = try #require(lines.last)
        let end = try #require(try JSONSerialization.jsonObject(with: Data(lastLine.utf8)) as? [String: Any])
        let counted = try #require(end["end"] as? [String: Any])
        #expect(end.count == 1 && lines.count == Int(head.position) + 1)
        #expect((counted["records"] as? Int) == Int(head.position))
        #expect((counted["headPosition"] as? Int) == Int(head.position))
        #expect((counted["headHash"] as? String) == head.hash.hexString)
        let endLine = lines.removeLast()

        func restoring(_ lines: [String], allowingCut: Bool = false) async throws -> (Int?, ImportError?) {
            try await restoring(text: lines.map { $0 + "\n" }.joined(), allowingCut: allowingCut)
        }
        func restoring(text: String, allowingCut: Bool = false) async throws -> (Int?, ImportError?) {
            let file = directory.child("cut-\(UUID()).jsonl")
            try Data(text.utf8).write(to: URL(fileURLWithPath: file))
            let target = try Journal.open(at: directory.child("restored-\(UUID())"), create: true)
            var count: Int?
            let error = await importError {
                count = try await JournalExport.restore(from: file, into: target, allowingCut: allowingCut)
            }
            // A refused restore writes nothing.
            if error != nil { #expect(try target.head().position == 0) }
            return (count, error)
        }
        // The last three records and the end line gone, or the end line alone: refused, naming the remedy.
        for cut in [Array(lines.dropLast(3)), lines] {
            let (_, error) = try await restoring(cut)
            #expect(
                error?.message.contains("cut short after line \(cut.count)") == true, "\(String(describing: error))")
            #expect(error?.remedy.contains("--allow-cut") == true)
        }
        // Allowed: the records the file holds, no more.
        let (count, error) = try await restoring(Array(lines.dropLast(3)), allowingCut: true)
        #expect(error == nil && count == lines.count - 3)
        // Cut inside its last line (a copy stopped mid-write): refused, naming where; allowed, the whole records before.
        let inside = String(lines.map { $0 + "\n" }.joined().dropLast(40))
        let (_, cutInside) = try await restoring(text: inside)
        #expect(cutInside?.message.contains("cut short inside line \(lines.count)") == true)
        let (salvaged, _) = try await restoring(text: inside, allowingCut: true)
        #expect(salvaged == lines.count - 1)
        // Lines ended CRLF, and white space after the end line, read as the export does.
        let crlf = (lines + [endLine]).map { $0 + "\r\n" }.joined() + " \r\n"
        let (crlfCount, crlfError) = try await restoring(text: crlf)
        #expect(crlfError == nil && crlfCount == lines.count)
        // An end line that counts other records than the file holds, and a record after the end line: refused.
        let (_, miscounted) = try await restoring(Array(lines.dropLast(3)) + [endLine])
        #expect(miscounted?.message.contains("counts \(lines.count) records") == true)
        let (_, trailing) = try await restoring(lines + [endLine, lines[0]])
        #expect(trailing?.message.contains("after the end line") == true)
        // Saved as UTF-16 (by an editor, say): refused as such, not as a record whose data differs from its payload.
        let wide = directory.child("wide.jsonl")
        try Data(
            [0xFF, 0xFE]
                + (lines + [endLine]).map { $0 + "\n" }.joined().utf16.flatMap {
                    [UInt8($0 & 0xFF), UInt8($0 >> 8)]
                }
        ).write(to: URL(fileURLWithPath: wide))
        let target = try Journal.open(at: directory.child("restored-wide"), create: true)
        let wideError = await importError { _ = try await JournalExport.restore(from: wide, into: target) }
        #expect(
            wideError?.message == "\(wide) is UTF-16 or UTF-32 text (it begins with a byte-order mark), not UTF-8")
        #expect(try target.head().position == 0)
    }

    /// A lift typed by its common name and the same lift imported from an app are one exercise: the names the README
    /// uses find the exercises the Strong export's barbell lifts ("Squat (Barbell)" and the like) are imported as.
    @Test func commonNamesFindTheExercisesAnImportMapsTo() async throws {
        _ = try await importing(Self.exports + "strong-2026.csv", unit: .kilograms)
        let trained = Set(try log.query { try $0.exercisesTrained() })
        let catalog = try ExerciseCatalog.bundled()
        for name in ["squat", "bench press", "deadlift", "ohp"] {
            let id = try #require(catalog.lookup(name)?.id)
            #expect(trained.contains(id), "\(name) finds \(id), which the import has no sets of")
        }
    }

    /// LiftLedger's own export in Strong's layout, imported into the journal it came from, adds nothing: the 37
    /// workouts from Strong are known by their identity in Strong, the two from Hevy by their start, name and sets.
    /// With one set of a Hevy workout changed in the file, that workout is no longer the one the journal holds, and is
    /// added.
    @Test func theOwnStrongExportImportedBackAddsNothing() async throws {
        _ = try await importing(Self.exports + "strong-2026.csv", unit: .kilograms)
        _ = try await importing("hevy-imperial.csv")
        // A workout logged live starts at a fraction of a second; the export gives whole seconds, the fraction cut off
        // (three quarters of a second, so that an export that rounded would not match).
        // Its notes hold backslashes, a line break and a space at the end, which the file gives back as they were (the
        // space is dropped: an import drops spaces around a field).
        let live = try await log.start(name: "Live")
        let hundred = Weight(ExactDecimal(100), .kilograms)
        let note = #"see C:\notes\today, "\\" "#
        try await log.logSet(SetRequest(exercise: "squat", weight: hundred, reps: 5, note: note))
        try await log.logSet(SetRequest(exercise: "squat", weight: hundred, reps: 5, note: "two\nlines"))
        // Carriage returns, alone and before a line feed (one character to Swift), come back as they were too.
        try await log.logSet(SetRequest(exercise: "squat", weight: hundred, reps: 5, note: "a\rb, c\r\nd"))
        try await log.finish()
        let start = Timestamp(rfc3339: "2026-01-02T18:30:15.750000Z")!
        try await log.editWorkout(live, startedAt: start, note: nil, name: nil)
        let (csv, text) = try strongExport()
        #expect(text.contains(",Live,"))
        // In the file, a backslash is written twice and a line break as \n; the field is quoted for its quotes.
        #expect(text.contains(#","see C:\\notes\\today, ""\\\\"" ","#))
        #expect(text.contains(#",two\nlines,"#))
        #expect(text.contains(#","a\rb, c\r\nd","#))
        let head = try journal.head().position
        let again = try await importing(csv, unit: .kilograms)
        #expect(again.workouts == 40 && again.workoutsAlreadyImported == 40 && again.workoutsAdded == 0)
        #expect(try journal.head().position == head)

        // The first working set of Hevy's "Upper A" (2025-01-12), 5 reps in the file, made 6.
        let set = "2025-01-12 07:05:00,Upper A,1h 5m,Barbell Bench Press - Medium Grip,1,"
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix(set) })
        var fields = line.split(separator: ",", omittingEmptySubsequences: false)
        #expect(fields[6] == "5")
        fields[6] = "6"
        let changed = text.replacingOccurrences(of: line, with: fields.joined(separator: ","))
        try Data(changed.utf8).write(to: URL(fileURLWithPath: csv))
        let report = try await importing(csv, unit: .kilograms)
        #expect(report.workoutsAlreadyImported == 39 && report.workoutsAdded == 1)
    }

    /// A custom exercise named as another app names a catalog exercise (`Squat (Barbell)` is Strong's Barbell Squat)
    /// is the exercise its name means in the journal: the own export of its workout, imported back, adds nothing.
    @Test func aCustomExerciseNamedAsAnAppNamesOneReadsBackAsItself() async throws {
        let custom = try await log.addCustomExercise(
            CustomExerciseAdded(
                exerciseId: "", name: "Squat (Barbell)", primaryMuscles: ["quadriceps"], secondaryMuscles: []))
        _ = try await log.start(name: "Legs")
        try await log.logSet(SetRequest(exercise: custom.id, weight: Weight(ExactDecimal(100), .kilograms), reps: 5))
        try await log.finish()
        let head = try journal.head()
        let report = try await importing(try strongExport().path, unit: .kilograms)
        #expect(report.workoutsAlreadyImported == 1 && report.workoutsAdded == 0)
        #expect(try journal.head() == head)
    }

    /// An exercise taken out and another moved in LiftLedger: its own export of the workout, imported again, reads as
    /// the workout stands, exercise by exercise, and changes nothing (it corrected the sets in place, pairing them by
    /// number).
    @Test func theOwnExportAfterExercisesWereTakenOutAndMovedChangesNothing() async throws {
        let file = directory.child("upper.csv")
        try Data(
            """
            Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,RPE
            2026-04-24 09:40:00,Upper,51m,Squat (Barbell),1,100,5,0,0,
            2026-04-24 09:40:00,Upper,51m,Squat (Barbell),2,100,5,0,0,
            2026-04-24 09:40:00,Upper,51m,Bench Press (Barbell),1,80,5,0,0,
            2026-04-24 09:40:00,Upper,51m,Deadlift (Barbell),1,150,5,0,0,

            """.utf8
        ).write(to: URL(fileURLWithPath: file))
        _ = try await importing(file, unit: .kilograms)
        try await log.removeExercise("bench press", in: "workout-1", withSets: true)
        try await log.moveExercise("deadlift", to: 1, in: "workout-1")
        let head = try journal.head()
        let report = try await importing(try strongExport().path, unit: .kilograms)
        #expect(report.workoutsAlreadyImported == 1 && report.workoutsCorrected == 0 && report.workoutsAdded == 0)
        #expect(try journal.head() == head)
    }

    /// What the user changed in LiftLedger stays when the same export is imported again: the file still reads as
    /// the import left each workout, so nothing is corrected back. A set corrected, a set removed and a workout
    /// deleted after the first import all stand after the second.
    @Test func importingAgainKeepsWhatWasChangedInLiftLedger() async throws {
        let first = try await importing(Self.exports + "strong-2026.csv", unit: .kilograms)
        #expect(first.workoutsAdded == 37)
        try await log.correctSet(3, in: "workout-1", SetCorrection(reps: 7))
        try await log.removeSet(2, in: "workout-2")
        try await log.deleteWorkout("workout-3")
        func figures() throws -> [String] {
            try log.query { snapshot in
                try ["workout-1", "workout-2", "workout-3"].map { id in
                    let workout = try #require(try snapshot.workout(id))
                    return "\(workout.isDeleted) "
                        + workout.countedSets.map { "\($0.number):\($0.details.reps)" }.joined(separator: ",")
                }
            }
        }
        // Whether a workout's figures list set `number` with `reps` (nil: with any reps).
        func lists(_ figures: String, set number: Int, reps: Int? = nil) -> Bool {
            figures.split(separator: " ").dropFirst().first?.split(separator: ",").contains { entry in
                let parts = entry.split(separator: ":")
                return parts.first == "\(number)" && (reps.map { parts.last == "\($0)" } ?? true)
            } ?? false
        }
        let edited = try figures()
        #expect(lists(edited[0], set: 3, reps: 7) && !lists(edited[1], set: 2) && edited[2].hasPrefix("true"))
        let head = try journal.head().position
        let again = try await importing(Self.exports + "strong-2026.csv", unit: .kilograms)
        #expect(again.workoutsAlreadyImported == 37 && again.workoutsCorrected == 0 && again.workoutsAdded == 0)
        #expect(try journal.head().position == head)
        #expect(try figures() == edited)
    }

    /// LiftLedger's own Strong-layout export of workouts imported from FitNotes (whose sets of different exercises
    /// interleave, while the export lists them exercise by exercise) and from Strong in pounds (0 lb comes back as
    /// 0 kg), imported into the journal it came from, adds and corrects nothing.
    @Test func theOwnStrongExportOfInterleavedAndPoundSetsImportsBackAsItIs() async throws {
        _ = try await importing(Self.exports + "fitnotes-2022-2025.csv")
        _ = try await importing(Self.exports + "strong-zh-2020-2023.csv", unit: .pounds)
        let csv = try strongExport().path
        let head = try journal.head().position
        let again = try await importing(csv, unit: .kilograms)
        #expect(again.workouts == 290 + 384)
        #expect(again.workoutsAlreadyImported == 290 + 384 && again.workoutsAdded == 0 && again.workoutsCorrected == 0)
        #expect(try journal.head().position == head)
    }

    /// The export in pounds: a weight entered in pounds as entered, one entered in kilograms as the nearest binary64
    /// of its pounds, as Strong writes a weight it converted (Python's `repr(100 / 0.45359237)` is
    /// `220.46226218487757`, of 102.5 kg `225.9738187394995`). Imported back in pounds, the journal it came from finds
    /// every workout there already, FitNotes' and Strong's too; a new journal gets the weights as they were entered.
    @Test func theOwnStrongExportInPoundsImportsBackAsEntered() async throws {
        _ = try await log.start()
        for (exercise, value, unit, reps) in [
            ("bench press", "100", MassUnit.kilograms, UInt32(5)), ("bench press", "225", .pounds, 5),
            ("squat", "102.5", .kilograms, 3),
        ] {
            _ = try await log.logSet(
                SetRequest(exercise: exercise, weight: Weight(ExactDecimal(value)!, unit), reps: reps))
        }
        _ = try await log.finish()
        let (path, text) = try strongExport(unit: .pounds)
        let weights = text.split(separator: "\n").dropFirst().map { $0.split(separator: ",")[5] }
        #expect(weights == ["220.46226218487757", "225", "225.9738187394995"])
        let other = try TrainingLog(journal: try Journal.open(at: directory.child("other"), create: true))
        _ = try await Importer(log: other).importFile(at: path, options: ImportOptions(unit: .pounds))
        let back = try #require(try other.query { try $0.workout("workout-1") }).countedSets
        #expect(back.map { $0.details.weight?.description } == ["100 kg", "225 lb", "102.5 kg"])
        _ = try await importing(Self.exports + "fitnotes-2022-2025.csv")
        _ = try await importing(Self.exports + "strong-zh-2020-2023.csv", unit: .pounds)
        let (all, allText) = try strongExport(unit: .pounds)
        // Distances in miles, so: FitNotes' climbing of 1 m is 1 / 1609.344 mi, Python's `'%.18f' % (1 / 1609.344)`.
        #expect(allText.contains(",Climbing,1,,0,0.000621371192237334,7200,"))
        let head = try journal.head().position
        let again = try await importing(all, unit: .pounds)
        #expect(again.workouts == 1 + 290 + 384)
        #expect(
            again.workoutsAlreadyImported == again.workouts && again.workoutsAdded == 0,
            "\(again.workoutsAdded) added, \(again.workoutsCorrected) corrected, \(again.implausible.prefix(3))")
        #expect(try journal.head().position == head)
    }

    /// Weights whose conversion comes within a millionth of a two-decimal number in its own unit: 136.4 lb is
    /// 61.869999268 kg exactly (`Decimal('136.4') * Decimal('0.45359237')`), within a millionth of 61.87 kg; 76.58 kg is
    /// `168.83000038117925` lb (`repr(76.58 / 0.45359237)`), within a millionth of 168.83 lb. The conversion, nearer
    /// the number written, wins: each imports back as entered, in both units (a reviewer found 61.87 kg and 168.83 lb).
    @Test func weightsNearATwoDecimalNumberInBothUnitsImportBackAsEntered() async throws {
        _ = try await log.start()
        for (value, unit) in [("76.58", MassUnit.kilograms), ("136.4", .pounds)] {
            _ = try await log.logSet(
                SetRequest(exercise: "bench press", weight: Weight(ExactDecimal(value)!, unit), reps: 5))
        }
        _ = try await log.finish()
        let exports: [(MassUnit, [String])] = [
            (.kilograms, ["76.58", "61.869999268"]), (.pounds, ["168.83000038117925", "136.4"]),
        ]
        for (unit, written) in exports {
            let (path, text) = try strongExport(unit: unit)
            let weights: [String] = text.split(separator: "\n").dropFirst().map { String($0.split(separator: ",")[5]) }
            #expect(weights == written)
            let other = try TrainingLog(
                journal: try Journal.open(at: directory.child("other-\(unit.rawValue)"), create: true))
            _ = try await Importer(log: other).importFile(at: path, options: ImportOptions(unit: unit))
            let back = try #require(try other.query { try $0.workout("workout-1") }).countedSets
            #expect(back.map { $0.details.weight?.description } == ["76.58 kg", "136.4 lb"], "\(unit)")
        }
    }

    /// Distances in miles written with binary noise read back as the metres converted: Python's `repr(861 /
    /// 1609.344)` is `0.5350005965163446` (861 m, which is within a millionth of 0.535 miles, 860.99904 m: the metres,
    /// not the miles, are what is taken whole), Strong's `5.220000000000001` is 5.22 × 1609.344 = 8400.77568 m; a
    /// noisy value of next to nothing is kept as it is written, 0.00000000001 × 1609.344 m, rather than taken as 0.
    /// Metres of more than six decimals are not whole micrometres: `13.109399999999999` (Python's `repr(21097.5342336
    /// / 1609.344)`) is 13.1094 miles, 21097.5342336 m, and `2.5000999999999998` 2.5001 miles, 4023.5209344 m (Python's
    /// `decimal`): each within two units in the last place of those. A value that is no such noise is taken as it is
    /// written: `5.000000000001` miles, 8046.720000001609344 m, and `0.00000000001234`, 0.00000001985930496 m.
    @Test func distancesWrittenWithBinaryNoiseReadBackAsTheMetresConverted() async throws {
        let rows = [
            "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE",
            "2026-03-01 10:00:00,Run,30m,Running,1,,0,0.5350005965163446,600,,,",
            "2026-03-01 10:00:00,Run,30m,Running,2,,0,5.220000000000001,600,,,",
            "2026-03-01 10:00:00,Run,30m,Running,3,,0,0.00000000001,600,,,",
            "2026-03-01 10:00:00,Run,30m,Running,4,,0,13.109399999999999,600,,,",
            "2026-03-01 10:00:00,Run,30m,Running,5,,0,2.5000999999999998,600,,,",
            "2026-03-01 10:00:00,Run,30m,Running,6,,0,5.000000000001,600,,,",
            "2026-03-01 10:00:00,Run,30m,Running,7,,0,0.00000000001234,600,,,",
        ]
        let path = directory.child("noisy-distances.csv")
        try Data((rows.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
        _ = try await importing(path, unit: .pounds)
        #expect(
            try sets("workout-1").map { $0.details.distanceMeters?.description }
                == [
                    "861", "8400.77568", "0.00000001609344", "21097.5342336", "4023.5209344", "8046.720000001609344",
                    "0.00000001985930496",
                ])
    }

    @Test func aStrongCSVExportImportsBackToTheSameHistoryRecordsAndStreak() async throws {
        _ = try await importing(Self.exports + "strong-2026.csv", unit: .kilograms)
        _ = try await importing("hevy-imperial.csv")
        let csv = try strongExport().path
        let other = try TrainingLog(journal: try Journal.open(at: directory.child("other"), create: true))
        try await other.updateProfile(ProfileUpdated(timeZone: "Europe/Berlin"))
        _ = try await Importer(log: other).importFile(at: csv, options: ImportOptions(unit: .kilograms))
        let today = LocalDate("2026-11-22")!
        func figures(_ log: TrainingLog) throws -> ([String], AnalyticsView) {
            try log.query { snapshot in
                let history = try snapshot.history().map {
                    "\($0.name) \($0.durationSeconds) \($0.sets) \($0.workingSets) \($0.volume) "
                        + $0.exercises.map { "\($0.exerciseId):\($0.sets):\($0.reps):\($0.volume)" }.joined(
                            separator: ",")
                }
                return (history, try snapshot.analyticsView(today: today))
            }
        }
        let (history, recorded) = try figures(log)
        let (back, recordedBack) = try figures(other)
        var (view, backView) = (recorded, recordedBack)
        #expect(history.count == 39 && back == history)
        // The other journal numbers its workouts in the order the file lists them: every record it has had, by its
        // value and set number.
        func values(_ view: AnalyticsView) -> [String: [String: [String]]] {
            view.recordHistory.mapValues { kinds in
                kinds.mapValues { sets in
                    sets.map { "\($0.key.split(separator: " ").dropFirst().joined(separator: " ")) \($0.value)" }
                        .sorted()
                }
            }
        }
        #expect(values(view) == values(backView) && !view.recordHistory.isEmpty)
        (view.recordHistory, backView.recordHistory) = ([:], [:])
        #expect(view.changes(to: backView).isEmpty, "records, streak and weekly counts")
    }
}

/// The error `body` throws, as an `ImportError`, or nil.
func importError(_ body: () async throws -> Void) async -> ImportError? {
    do {
        try await body()
        return nil
    } catch {
        return error as? ImportError
    }
}
