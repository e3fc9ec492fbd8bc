import EventJournal
import Foundation
import TestSupport
import Testing

/// The training commands through the `liftledger` binary, as a user runs them.
struct WorkoutCLITests {
    let directory: TemporaryDirectory
    let journal: String

    init() throws {
        directory = try TemporaryDirectory()
        journal = directory.child("journal")
        #expect(try liftledger(["init"], journal: journal).status == 0)
    }

    @discardableResult
    func ok(_ arguments: [String]) throws -> ProgramResult {
        let result = try liftledger(arguments, journal: journal)
        #expect(result.status == 0, "\(arguments): \(result.standardError)")
        return result
    }

    func head() throws -> Int {
        try jsonObject(try liftledger(["stats", "--json"], journal: journal).lines[0])["headPosition"] as! Int
    }

    func exerciseID(_ name: String) throws -> String {
        try jsonObject(try ok(["exercise", "show", name, "--json"]).lines[0])["id"] as! String
    }

    func catalogName(_ name: String) throws -> String {
        try jsonObject(try ok(["exercise", "show", name, "--json"]).lines[0])["name"] as! String
    }

    @Test func aFullWorkoutWritesTheExpectedEventsInOrder() throws {
        try ok(["start"])
        try ok(["add", "bench", "press"])
        try ok(["log", "bench", "press", "60kg", "x", "10", "--type", "warmup"])
        try ok(["log", "bench press", "100kg", "x", "5", "--rpe", "8"])
        try ok(["rest", "1:30"])
        // 90 + 30 s, less the few seconds since the rest began, as every other rest message gives times.
        let extended = try ok(["rest", "extend", "30s"]).standardOutput
        #expect(extended == "rest: 2m 00s left\n" || extended.hasPrefix("rest: 1m 5"), "\(extended)")
        try ok(["rest", "skip"])
        try ok(["log", "bench press", "100", "5", "--type", "failure", "--note", "last rep grinding"])
        try ok(["log", "squat", "225lb", "x", "5"])
        try ok(["log", "bench press", "90kgx8", "--type", "drop"])
        try ok(["pause"])
        try ok(["resume"])
        try ok(["finish", "--note", "good"])

        let bench = try exerciseID("bench press")
        let squat = try exerciseID("squat")
        let records = try liftledger(["events", "--json", "--stream", "workout-1"], journal: journal).lines.map(
            jsonObject)
        try #require(records.count == 14, "\(records.map { $0["type"] ?? "" })")
        func data(_ index: Int) -> NSDictionary { records[index]["data"] as! NSDictionary }
        func set(
            _ number: Int, _ exercise: String, _ value: String, _ unit: String, _ reps: Int, _ kind: String
        )
            -> [String: Any]
        {
            [
                "setNumber": number, "exerciseId": exercise, "weight": ["value": value, "unit": unit], "reps": reps,
                "kind": kind,
            ]
        }
        #expect(
            records.map { $0["type"] as! String } == [
                "WorkoutStarted", "ExerciseAdded", "SetLogged", "SetLogged", "RestTimerStarted", "RestTimerExtended",
                "RestTimerSkipped", "SetLogged", "ExerciseAdded", "SetLogged", "SetLogged", "WorkoutPaused",
                "WorkoutResumed", "WorkoutFinished",
            ])
        #expect(records.map { $0["streamVersion"] as! Int } == Array(1...14))
        #expect(try canonical(data(0)) == canonical(["name": "Workout"]))
        #expect(data(1)["exerciseId"] as? String == bench)
        #expect(try canonical(data(2)) == canonical(set(1, bench, "60", "kg", 10, "warmup")))
        var second = set(2, bench, "100", "kg", 5, "normal")
        second["rpe"] = 8
        #expect(try canonical(data(3)) == canonical(second))
        // The rest timer ends 90 s after it started, then 30 s later.
        let restStart = try #require(Self.microseconds(records[4]["occurredAt"] as! String))
        let firstEnd = try #require(Self.microseconds(data(4)["endsAt"] as! String))
        #expect(firstEnd - restStart == 90_000_000)
        #expect(data(4)["durationSeconds"] as? Int == 90 && data(4)["afterSet"] as? Int == 2)
        #expect(data(5)["bySeconds"] as? Int == 30)
        #expect(try #require(Self.microseconds(data(5)["endsAt"] as! String)) - firstEnd == 30_000_000)
        #expect(data(6).count == 0)
        var third = set(3, bench, "100", "kg", 5, "failure")
        third["note"] = "last rep grinding"
        #expect(try canonical(data(7)) == canonical(third))
        #expect(data(8)["exerciseId"] as? String == squat)
        #expect(try canonical(data(9)) == canonical(set(4, squat, "225", "lb", 5, "normal")))
        #expect(try canonical(data(10)) == canonical(set(5, bench, "90", "kg", 8, "drop")))
        #expect(try canonical(data(13)) == canonical(["note": "good"]))
        for record in records {
            #expect((record["metadata"] as? [String: String])?["source"] == "cli")
            #expect(record["encoding"] as? String == "binary")
        }
        #expect(try liftledger(["status", "--json"], journal: journal).lines == [#"{"active":false}"#])
    }

    /// `status` says that an exercise's routine sets are done, and suggests none past them (by hand: 2 sets of the
    /// routine, a warm-up, two working sets and a missed lift logged). It suggested a third.
    @Test func statusSaysWhenTheRoutinesSetsAreDone() throws {
        try ok(["routine", "add", "Push", "bench", "press", "--sets", "2", "--reps", "5-8"])
        try ok(["start", "Push"])
        try ok(["log", "bench press", "60kg", "x", "10", "--type", "warmup"])
        try ok(["log", "bench press", "100kg", "x", "8"])
        #expect(try ok(["status"]).lines.contains("   next: 100 kg × 8 (repeat set 2)"))
        // A missed lift is no set done, in the count as in the suggestion (it counted it, and suggested another).
        try ok(["log", "bench press", "105kg", "x", "0"])
        let missed = try ok(["status"]).lines
        #expect(
            missed.contains { $0.hasSuffix("Barbell Bench Press - Medium Grip: 1 of 2 sets of 5-8 reps, rest 2m 00s") })
        #expect(missed.contains("   next: 100 kg × 8 (repeat set 2)"), "\(missed)")
        try ok(["log", "bench press", "100kg", "x", "8"])
        let lines = try ok(["status"]).lines
        #expect(lines.contains("   done: the routine's 2 sets") && !lines.contains { $0.hasPrefix("   next:") })
        let exercise = (try jsonObject(try ok(["status", "--json"]).lines[0])["exercises"] as? [[String: Any]])?.first
        #expect(exercise.map { $0["suggestedNext"] is NSNull } == true)
    }

    /// `history --csv` names a workout's routine and exercises, as the table and `--json` do: a workout of the routine
    /// Push (id `push`, the bench press, which the start adds first), with a custom exercise whose name holds a comma
    /// added after it, gives those two names in that order, the field quoted for its comma. It had neither column.
    @Test func historyCSVNamesTheRoutineAndTheExercises() throws {
        try ok(["exercise", "add", "Press, Floor", "--primary", "chest"])
        try ok(["routine", "add", "Push", "bench", "press"])
        try ok(["start", "Push"])
        try ok(["log", "press, floor", "60kg", "x", "8"])
        try ok(["log", "bench press", "100kg", "x", "5"])
        try ok(["finish"])
        let csv = try ok(["history", "--csv"]).lines
        #expect(csv.first?.hasSuffix(",volume_kg,routine_id,exercises") == true, "\(csv)")
        #expect(csv.count == 2)
        #expect(csv.last?.hasSuffix(#",push,"Barbell Bench Press - Medium Grip; Press, Floor""#) == true, "\(csv)")
    }

    /// A set of an exercise of the workout's routine starts the rest the routine gives it (180 s for the bench press
    /// here), from the set's time: its `RestTimerStarted` ends 180 s after its `SetLogged` occurred, after that set.
    /// `--no-rest` starts none (it closes the one running, as any set does); an exercise the routine does not have
    /// starts none, and neither does a late set in a finished workout.
    @Test func aSetOfARoutinesExerciseStartsTheRoutinesRest() throws {
        try ok(["routine", "add", "Push", "bench", "press", "--rest", "180"])
        try ok(["start", "Push"])
        let logged = try ok(["log", "bench press", "100kg", "x", "5"]).lines
        #expect(
            logged == [
                "set 1: Barbell Bench Press - Medium Grip 100 kg × 5",
                "rest: 3m 00s started (the routine's; liftledger rest skip stops it)",
            ])
        func events() throws -> [[String: Any]] { try ok(["events", "--json"]).lines.map(jsonObject) }
        let last = try events().suffix(2)
        #expect(last.map { $0["type"] as? String } == ["SetLogged", "RestTimerStarted"])
        let setAt = (last.first?["occurredAt"] as? String).flatMap(Self.microseconds)
        let endsAt = ((last.last?["data"] as? [String: Any])?["endsAt"] as? String).flatMap(Self.microseconds)
        #expect(setAt != nil && endsAt.map { $0 - setAt! } == 180_000_000)
        #expect((last.last?["data"] as? [String: Any])?["afterSet"] as? Int == 1)
        let rest = try jsonObject(try ok(["status", "--json"]).lines[0])["rest"] as? [String: Any]
        #expect(rest?["durationSeconds"] as? Int == 180)

        for command in [
            ["log", "bench press", "100kg", "x", "5", "--no-rest"], ["log", "squat", "100kg", "x", "5"],
        ] {
            let before = try head()
            let output = try ok(command).lines
            #expect(output.count == 1, "\(command): \(output)")
            #expect(
                try events().suffix(Int(try head() - before)).allSatisfy { $0["type"] as? String != "RestTimerStarted" }
            )
        }
        try ok(["finish"])
        // A set added to a finished workout names it.
        #expect(
            try ok(["log", "bench press", "100kg", "x", "5", "--workout", "1"]).lines == [
                "set 4 of workout-1, finished: Barbell Bench Press - Medium Grip 100 kg × 5"
            ])
        #expect(try events().last?["type"] as? String == "SetLogged")
    }

    /// `profile weights` lists the body weights by when they were taken (one recorded with `--at` for the past comes
    /// first), each with the change since the one before, worked out by hand: 180 lb is 81.6466266 kg, 81,646,627 mg
    /// to the milligram; 178.5 lb is 80.966238045 kg, 80,966,238 mg: a change of -680,389 mg, -1.49999 lb, shown
    /// -1.5; then 81 kg, +33,762 mg, +0.07 lb, shown +0.1.
    @Test func bodyWeightsAreListedByWhenTheyWereTaken() throws {
        try ok(["profile", "set", "--unit", "lb", "--time-zone", "UTC"])
        try ok(["profile", "set", "--body-weight", "178.5lb", "--at", "2026-11-15 07:30"])
        try ok(["profile", "set", "--body-weight", "81kg"])
        try ok(["profile", "set", "--body-weight", "180lb", "--at", "2026-11-01 07:30"])
        let text = try ok(["profile", "weights"]).lines
        #expect(
            Array(text.prefix(3)) == [
                "date        weight      change lb", "2026-11-01  180 lb      -",
                "2026-11-15  178.5 lb    -1.5",
            ], "\(text)")
        #expect(text.count == 4 && text[3].hasSuffix("81 kg       +0.1"), "\(text)")
        let json = try ok(["profile", "weights", "--json", "--last", "2"]).lines.map(jsonObject)
        #expect(json.map { $0["changeKilograms"] as? String } == ["-0.680389", "0.033762"])
        #expect(json.first?["at"] as? String == "2026-11-15T07:30:00.000000Z")
        // The latest is the one taken last, not the one recorded last.
        #expect(try ok(["profile", "show"]).lines.last == "body weight  81 kg")
        let before = try ok(["events", "--json"]).standardOutput
        let refused = try liftledger(
            ["profile", "set", "--body-weight", "80kg", "--at", "2999-01-01 07:00"], journal: journal)
        #expect(refused.status == 1 && refused.standardError.contains("which is still to come"))
        // Before 2000, as for a workout's date: Foundation read 1500-01-01 on the Julian calendar, as 1500-01-10.
        let early = try liftledger(
            ["profile", "set", "--body-weight", "80kg", "--at", "1500-01-01 08:00"], journal: journal)
        #expect(early.status == 1 && early.standardError.contains("before 2000; give a time from 2000-01-01 on"))
        // --at alone dates nothing: the message names what it goes with, not "nothing to change".
        let alone = try liftledger(["profile", "set", "--at", "2026-11-15 07:30"], journal: journal)
        #expect(
            alone.status == 64 && alone.standardError.contains("--at dates a body weight; give --body-weight with it"),
            "\(alone.standardError)")
        #expect(try ok(["events", "--json"]).standardOutput == before)
        // The same reading at the same instant again writes nothing: it was a second reading.
        #expect(
            try ok(["profile", "set", "--body-weight", "178.5lb", "--at", "2026-11-15 07:30"]).standardOutput
                == "the profile holds these values already; nothing was written\n")
        #expect(try ok(["events", "--json"]).standardOutput == before)
        // A change that rounds to nothing in the unit shown has no sign: 81 kg (178.5744 lb by hand) to 178.57 lb is
        // -0.0044 lb, shown 0, not -0.
        try ok(["profile", "set", "--body-weight", "178.57lb"])
        #expect(try ok(["profile", "weights"]).lines.last?.hasSuffix("178.57 lb   0") == true)
    }

    /// 225 × 0.45359237 = 102.05828325, worked by hand.
    @Test func poundsReadBackExactly() throws {
        try ok(["start"])
        try ok(["log", "squat", "225lb", "x", "5"])
        let status = try jsonObject(try ok(["status", "--json"]).lines[0])
        let exercises = try #require(status["exercises"] as? [[String: Any]])
        let set = try #require((exercises.first?["sets"] as? [[String: Any]])?.first)
        let weight = try #require(set["weight"] as? [String: String])
        #expect(weight == ["value": "225", "unit": "lb", "kilograms": "102.05828325"])
        #expect(try ok(["status"]).standardOutput.contains("225 lb × 5"))
    }

    @Test func refusedCommandsAreOneLineNonZeroAndWriteNothing() throws {
        let noWorkout = try liftledger(["log", "squat", "100kg", "x", "5"], journal: journal)
        #expect(noWorkout.status != 0 && noWorkout.standardError.contains("no workout in progress"))
        // A set forgotten after the finish goes to a finished workout: `log` says how.
        #expect(noWorkout.standardError.contains("or add the set to a finished workout with --workout N"))
        try ok(["start"])
        // The set is echoed with the exercise the alias stands for.
        #expect(try ok(["log", "squat", "100kg", "x", "5"]).standardOutput == "set 1: Barbell Squat 100 kg × 5\n")
        let before = try head()
        let cases: [([String], String)] = [
            (["start"], "still in progress"),
            (["log", "squat", "100kg", "x", "-5"], "whole number"),
            (["log", "squat", "100kg", "x", "5.5"], "whole number"),
            (["log", "squat", "nan", "x", "5"], "not a number"),
            (["log", "squat", "-20kg", "x", "5"], "not a number of 0 or more"),
            (["log", "squat", "5000kg", "x", "1"], "more than 1000 kg"),
            // 1000 kg is 2204.62 lb (1000 / 0.45359237 = 2204.6226).
            (["log", "squat", "2300lb", "x", "1"], "weight 2300 lb is more than 1000 kg (2204.62 lb)"),
            (["log", "squat", "100kg", "x", "5", "--rpe", "11"], "half steps"),
            (["log", "squat", "100kg", "x", "5", "--rpe", "8.3"], "half steps"),
            // Read as decimals, not through binary64 (which took these for 8.5, 8 and 10).
            (["log", "squat", "100kg", "x", "5", "--rpe", "8.4999999999999999"], "half steps"),
            (["log", "squat", "100kg", "x", "5", "--rpe", "0x8"], "half steps"),
            (["log", "squat", "100kg", "x", "5", "--rpe", "1e1"], "half steps"),
            (["log", "squaat", "presss", "100kg", "x", "5"], "unknown exercise"),
            (["log", "squat", "501kg", "x", "1"], "--confirm"),
            // The weight and the reps the other way round: it was logged as 5 kg × 225, a record of most reps.
            (
                ["log", "bench", "press", "5", "x", "225"],
                "225 reps of Barbell Bench Press - Medium Grip with 5 kg: the weight and the reps may be the other "
                    + "way round; give the weight first, then the reps; if it is right, add --confirm"
            ),
            (["log", "squat", "100kg", "x", "5", "--type", "heavy"], "or 'failure'; see liftledger log --help"),
            // An option read whatever follows it, given another option instead of its value.
            (["log", "squat", "100kg", "x", "5", "--rpe", "--confirm"], "missing value for '--rpe': --confirm is an"),
            (["correct", "1", "--weight", "--reps", "5"], "missing value for '--weight': --reps is an option; see "),
            (
                ["exercise", "add", "Zercher Thing", "--primary", "quadriceps", "--force", "twist"],
                "unknown force \"twist\"; give push, pull or static"
            ),
            (
                ["exercise", "add", "Zercher Thing", "--primary", "quadriceps", "--mechanic", "wobbly"],
                "unknown mechanic \"wobbly\"; give compound or isolation"
            ),
            (
                ["exercise", "add", "Zercher Thing", "--primary", "quadriceps", "--equipment", "barbel"],
                "unknown equipment \"barbel\"; give bands, barbell, body only, cable, dumbbell, e-z curl bar, exercise "
                    + "ball, foam roll, kettlebells, machine, medicine ball or other"
            ),
            (["routine", "add", "REST", "squat"], "a routine cannot be named \"REST\"; a schedule reads rest as a"),
            (["log", "squat", "100kg"], "no reps after the weight"),
            (
                ["log", "bench", "press", "100", "x", "5", "x", "3"],
                "\"bench press 100 x 5 x 3\" gives sets as well as reps; log one set at a time: liftledger log bench press "
                    + "100 x 5, once for each set"
            ),
            (["log", "squat", "100", "kg"], "no reps after the weight"),
            // A name of blanks: `exercise add " "` was the fix given, which refuses it.
            (["add", " "], "no exercise named; give the exercise's name"),
            // Negative numbers are read as the option's value, and refused for what they are.
            (["correct", "1", "--weight", "-10kg"], "not a number of 0 or more"),
            (["events", "--limit", "-1"], "--limit must be 0 or more"),
            (["routine", "add", "Push", "bench", "--rest", "-5"], "-5"),
            (["correct", "1", "--workout", "-1", "--reps", "5"], "no workout -1"),
            // A negative number where an argument is expected is read as an option by the parser: said for what it is,
            // not as the argument missing.
            (
                ["remove-set", "-1"],
                "'<set>' was given -1: give a number of 1 or more; see liftledger remove-set"
            ),
            (["correct", "-2", "--reps", "3"], "'<set>' was given -2: give a number of 1 or more"),
            (["remove-set", "-1.5"], "'<set>' was given -1.5: give a number of 1 or more"),
            // A name that begins with `-` is read as an option too: said so, not taken for a number.
            (
                ["routine", "add", "-Legs", "squat"],
                "-Legs was read as an option, so '<exercise> ...' is missing: a name cannot begin with -"
            ),
            (["routine", "add", "Push", "-5"], "-5 was read as an option, so '<exercise> ...' is missing"),
            // A place that reads as an option, or that is too large to count, is named for what it is.
            (["routine", "move", "Push", "squat", "-1"], "the place -1 reads as an option; give a place of 1 or more"),
            (["move-exercise", "squat", "99999999999999999999"], "the place 99999999999999999999 is past the end"),
            (
                ["schedule", "set", "--split", "-Legs"],
                "-Legs was read as an option, so --split has no value (a value that begins with - is given as "
                    + "--split=VALUE)"
            ),
            // An option's negative value is the option's: the set is what is missing.
            (["correct", "--workout", "-1", "--reps", "5"], "Missing expected argument '<set>'"),
            (["why", "balance"], "why balance needs a muscle; such as: liftledger why balance chest"),
            (["why", "balance", "bench", "press"], "\"bench press\" is no muscle, and \"balance bench press\" no"),
            (["log", "squat", "100kg", "x", "5", "--workout", "-1"], "no workout -1"),
            (["edit", "1", "--name", " "], "a workout's name cannot be empty"),
            (["edit", "1", "--name", "Leg\nDay"], "a workout's name cannot hold a line break"),
            (["exercise", "add", "Foo\tBar", "--primary", "chest"], "an exercise's name cannot hold a line break"),
            (["routine", "add", "Push\nPull", "bench"], "a routine's name cannot hold a line break"),
            (["import", "/tmp"], "/tmp is a directory"),
            (["profile", "set", "--name", ""], "a profile's name cannot be empty"),
            (["profile", "set", "--age", "-3"], "an age of -3; give an age from 5 to 120"),
            (["profile", "set", "--time-zone", "Mars/Olympus"], "unknown time zone \"Mars/Olympus\""),
            // An offset is no IANA name: Foundation reads GMT+5 as east of Greenwich, POSIX and Etc/GMT+5 as west.
            (["profile", "set", "--time-zone", "GMT+5"], "\"GMT+5\" is an offset, which some tools read east of UTC"),
            (["import", "none.csv", "--time-zone", "utc-03:00"], "\"utc-03:00\" is an offset, which some tools read"),
            // A zone file that is no place: the zone of a machine whose zone is still to be set.
            (["profile", "set", "--time-zone", "Factory"], "unknown time zone \"Factory\"; give an IANA name such as"),
            // Routine names no routine can have: not found, not an LMDB error; refused in a schedule as in a routine.
            (["history", "--routine", ""], "no routine \"\""),
            (["routine", "remove", "!!!", "squat"], "no routine \"!!!\""),
            (["routine", "move", "", "squat", "1"], "no routine \"\""),
            // A word that is no subcommand is read as a routine's name: one a letter or two from a subcommand is
            // pointed to it.
            (["routine", "ediit"], "no routine \"ediit\"; did you mean liftledger routine edit?"),
            (["schedule", "set", "--weekdays", "!!!,B,C,D,E,F,G"], "a routine needs a name with a letter or a digit"),
            (["schedule", "set", "--split", "A,Rest!"], "a routine cannot be named \"Rest!\""),
            (["schedule", "set", "--split", "A,B\u{1B}[2J"], "a routine's name cannot hold a line break or another"),
            (["routine", "add", String(repeating: "a", count: 101), "squat"], "a routine's name is at most 100 char"),
            // Read, but out of range: it said it could not read the time.
            (["log", "plank", "--time", "0"], "a time of \"0\" is no time; give 1 second to a week, such as 90, 1:30"),
            (["import", ""], "no file is named by an empty path; check the path"),
            // As a routine's: a name of 100,000 letters was taken.
            (["start", "--name", String(repeating: "a", count: 101)], "a workout's name is at most 100 characters"),
            (["profile", "set", "--name", String(repeating: "a", count: 101)], "a profile's name is at most 100 char"),
            // A schedule reads commas as its separators; `start -Legs` is read as an option.
            (["routine", "add", "Push, Pull", "squat"], "a routine's name cannot hold a comma or begin with -"),
            (["routine", "add", " -Legs", "squat"], "a routine's name cannot hold a comma or begin with -"),
            (["schedule", "set", "--split=-Legs,rest"], "a routine's name cannot hold a comma or begin with -"),
            // A range with a side missing, or a sign, is a slip, not a target.
            (["routine", "add", "Push", "bench", "--reps=-5"], "cannot read reps \"-5\""),
            (["routine", "add", "Push", "bench", "--reps", "5-"], "cannot read reps \"5-\""),
            (["routine", "add", "Push", "bench", "--reps", "5--8"], "cannot read reps \"5--8\""),
            (["routine", "add", "Push", "bench", "--reps", "+5"], "cannot read reps \"+5\""),
            (
                ["routine", "add", "Push", "bench", "--reps", "12-8"],
                "reps \"12-8\" run from more to fewer; give the fewer first: --reps 8-12"
            ),
            (
                ["routine", "add", "Push", "bench", "--reps", "200-8"],
                "reps \"200-8\" run from more to fewer; give reps from 1"
            ),
            (["routine", "add", "Push", "bench", "--reps", "0"], "targets of 3 sets of 0 reps, 120 s rest; give"),
            // Sets and reps after a load, an RPE among a set's words, a decimal comma, a load added to body weight.
            (
                ["log", "bench", "press", "100kg", "5x5"],
                "log one set at a time: liftledger log \"bench press\" 100kg x 5"
            ),
            (["log", "squat", "100kg", "x", "5", "@8"], "give it with --rpe: liftledger log squat 100kg x 5 --rpe 8"),
            // With a note too: the RPE is not taken for a note's word left unquoted.
            (
                ["log", "squat", "100kg", "x", "5", "@8", "--note", "felt good"],
                "give it with --rpe: liftledger log squat 100kg x 5 --rpe 8"
            ),
            (
                ["log", "squat", "102,5kg", "x", "5"],
                "weight \"102,5kg\" has a decimal comma; write it with a point: 102.5kg"
            ),
            (
                ["log", "pull", "up", "bw+20kg", "x", "5"],
                "weight \"bw+20kg\" adds to body weight; give the weight added"
            ),
            (["profile", "set", "--age", "5000000000"], "an age of 5000000000; give an age from 5 to 120"),
            (["rest", "extend", "0"], "changes nothing"),
            (["rest", "extend", "soon"], "cannot read a rest's change from \"soon\""),
            (["rest", "-5"], "a rest of \"-5\"; give 1 to 3600 seconds or a time up to an hour"),
            (["rest", "1:00:01"], "give 1 to 3600 seconds"),
            (["rest", "5000"], "give 1 to 3600 seconds"),
            (["rest", "--durability", "relaxed", "extend", "30"], "extend came after an option; name it first"),
            (["schedule", "set", "--split", "Push,,Legs"], "day 2 of --split is empty"),
            (["schedule", "set", "--split", ""], "day 1 of --split is empty"),
            (["routine", "add", "Push", "bench", "--rest", "0"], "--rest \"0\" is no rest; give 1 to 3600 seconds"),
            (["routine", "add", "Push", "bench", "--rest", "7200"], "--rest \"7200\" is more than an hour; give 1 to"),
            (["routine", "add", "Push", "bench", "--rest", "soon"], "cannot read --rest \"soon\"; give 1 to 3600 s"),
            (["correct", "1", "--weight", "900kg"], "--confirm"),
        ]
        for (arguments, hint) in cases {
            let result = try liftledger(arguments, journal: journal)
            #expect(result.status != 0, "\(arguments)")
            #expect(result.standardError.hasPrefix("liftledger: error: "), "\(arguments): \(result.standardError)")
            #expect(result.standardError.split(separator: "\n").count == 1, "\(arguments)")
            #expect(result.standardError.contains(hint), "\(arguments): \(result.standardError)")
            #expect(result.standardOutput.isEmpty)
        }
        #expect(try head() == before, "no refused command wrote anything")
        let noPath = try liftledger(["prs"], journal: "")
        #expect(noPath.status == 64 && noPath.standardError.contains("--journal needs a directory"))
        #expect(
            try ok(["log", "squat", "100KG", "X", "5", "--type", "drop", "--rpe", "9.5"]).standardOutput
                == "set 2: Barbell Squat 100 kg × 5  drop  RPE 9.5\n")
        let unknown = try liftledger(["log", "bench", "pres", "100kg", "x", "5"], journal: journal)
        #expect(unknown.standardError.contains("did you mean"), "\(unknown.standardError)")
        try ok(["log", "squat", "501kg", "x", "1", "--confirm"])
        #expect(try head() == before + 2)
    }

    @Test func refusedRuleChangesAndQueriesAreOneLineNonZeroAndWriteNothing() throws {
        let before = try head()
        // The status is 64 for a command line that cannot be read as it stands, 1 for any other refusal (README.md).
        let cases: [([String], String, Int32)] = [
            (["rules", "set", "e1rm.max-reps", "31"], "\"31\" for e1rm.max-reps; give a whole number from 1 to 30", 1),
            (["rules", "set", "e1rm.formula", "brzyki"], "give epley, brzycki or rpe", 1),
            (
                ["rules", "set", "balance.primary", "0.1234"], "give a number from 0 to 1 with at most three decimals",
                1
            ),
            (["rules", "set", "volume.warmups", "include", "--json"], "add --dry-run", 64),
            // A negative value is the rule's to refuse, not taken for an option.
            (["rules", "set", "balance.secondary", "-0.1"], "\"-0.1\" for balance.secondary; give a number from 0", 1),
            (["rules", "set", "balance.secondary"], "give the rule's new value", 64),
            (["rules", "set", "balance.secondary", "0.3", "0.4"], "give one value after the rule, not 2: 0.3 0.4", 64),
            // A mistyped option is named as one, not taken for a second value.
            (["rules", "set", "balance.secondary", "0.3", "-"], "give one value after the rule, not 2: 0.3 -", 64),
            (
                ["rules", "set", "e1rm.formula", "brzycki", "--dryrun"],
                "liftledger: error: Unknown option '--dryrun'; see liftledger rules set --help\n", 64
            ),
            (["why", "squat", "heaviestt"], "unknown record kind \"heaviestt\"; the kinds are: heaviest, e1rm, ", 1),
            (["exercise", "list", "--muscle", "chst"], "unknown muscle \"chst\"; name one of: abdominals, ", 64),
            (["prs", "--as-of", "-1"], "cannot read --as-of \"-1\"", 1),
            // A name of blanks is none, in a query as in `log`.
            (["progress", " "], "no exercise named; give the exercise's name, such as \"bench press\"", 1),
            (["why", "squat", "--as-of", "2020-01-01"], "had no records as of 2020-01-01; give a later --as-of", 1),
            (["prs", "--as-of", "+5"], "cannot read --as-of \"+5\"", 1),
            (
                ["status", "--now", "yesterday"],
                "cannot read --now \"yesterday\"; give 'YYYY-MM-DD HH:MM' in the profile's time zone, or an RFC 3339",
                1
            ),
            // The range of the rule it stands in for (0 and 9223372036854775807 were taken).
            (["status", "--stale-after", "59"], "--stale-after takes 60 to 604800 seconds, as the rule", 64),
            (["status", "--stale-after", "604801"], "--stale-after takes 60 to 604800 seconds", 64),
            // Nothing to change, as for profile set and routine edit: a command line to complete (it exited 1).
            (["correct", "1"], "nothing to correct; give what changes, such as --reps 6", 64),
            (["edit", "1"], "nothing to edit; give --date, --note or --name", 64),
            (["finish", "--at", "yesterday"], "cannot read --at \"yesterday\"; give last, ", 1),
            // A unit that is none, refused by the argument parser wherever --unit is taken.
            (["profile", "set", "--unit", "stone"], "unknown unit \"stone\"; give --unit kg or --unit lb", 64),
            (["import", "none.csv", "--unit", "stone"], "unknown unit \"stone\"; give --unit kg or --unit lb", 64),
            // What a set lacks: the reps after a weight; quotes around a time of two words.
            (["log", "bench", "press", "100"], "no reps after the weight in \"bench press 100\"", 1),
            (["log", "plank", "--time", "1h", "5m"], "quote a value of more than one word: --time \"1h 5m\"", 1),
            (["log", "plank"], "a timed or distance set as liftledger log plank --time 60s", 1),
            (["log", "pull", "up", "bw"], "no reps after the weight in \"pull up bw\"", 1),
            (["log", "plank", "--time", "1", "min"], "quote a value of more than one word: --time \"1 min\"", 1),
            (
                ["log", "running", "treadmill", "--distance", "5", "km"],
                "quote a value of more than one word: --distance \"5 km\"", 1
            ),
            (["log", "bench", "press", "x", "5"], "no weight before x 5 in \"bench press x 5\"", 1),
            (["log", "bench", "press", "100kg", "x"], "no reps after the x in \"bench press 100kg x\"", 1),
            // The fix each gives is a command that works: "100kg 5 x" suggested "100kg 5 x 5", whose exercise is
            // "squat 100 kg"; "3x5 100kg", an exercise "squat 3 x"; a distance and a time, the time alone.
            (["log", "squat", "100kg", "5", "x"], "put the reps after it: liftledger log squat 100kg x 5", 1),
            (
                ["log", "squat", "3x5", "100kg"],
                "\"squat 3x5 100kg\" gives sets as well as reps; log one set at a time: liftledger log squat 100kg x 5,",
                1
            ),
            (
                ["log", "running", "treadmill", "5km", "25m"],
                "25m is a distance or a time, not reps, in \"running treadmill 5km 25m\"; give a set's distance and "
                    + "time with --distance and --time: liftledger log \"running treadmill\" --distance 5km --time 25m",
                1
            ),
            (
                ["log", "running", "treadmill", "5km"],
                "give a set's distance with --distance: liftledger log \"running treadmill\" --distance 5km", 1
            ),
            (["log", "squat", "1e2kg", "x", "5"], "weight \"1e2kg\" is written with an exponent; give it in plain", 1),
            (
                ["log", "squat", "3x5", "100"],
                "log one set at a time: liftledger log squat 100 x 5, once for each set", 1
            ),
            // A number and m is minutes to --time and metres to --distance: both are offered.
            (
                ["log", "rowing", "machine", "2000m"],
                "2000m is a distance or a time, not reps, in \"rowing machine 2000m\"; for metres: liftledger log "
                    + "\"rowing machine\" --distance 2000m; for minutes: liftledger log \"rowing machine\" --time 2000m",
                1
            ),
            (
                ["log", "plank", "1m", "30s"],
                "give a set's time with --time, in quotes: liftledger log plank --time \"1m 30s\"", 1
            ),
            (["log", "run", "30m", "5km"], "liftledger log run --time 30m --distance 5km", 1),
            // A load before a time or a distance is left out of the fix: a bare number read as seconds made it a time.
            (["log", "plank", "20kg", "60s"], "give a set's time with --time: liftledger log plank --time 60s", 1),
            (
                ["log", "squat", "100kg", "5km"],
                "give a set's distance with --distance: liftledger log squat --distance 5km", 1
            ),
            // A bare number is seconds before a distance, and a load before a time.
            (["log", "run", "1800", "5km"], "liftledger log run --time 1800 --distance 5km", 1),
            (["log", "plank", "20", "60s"], "give a set's time with --time: liftledger log plank --time 60s", 1),
            (["log", "rowing", "2000m"], "for metres: liftledger log rowing --distance 2000m; for minutes:", 1),
            (
                ["log", "plank", "--time", "60s", "--note", "felt", "good"],
                "\"good\" follows the exercise in \"plank good\"; quote a note of more than one word: --note \"felt good\"",
                1
            ),
            // A note's second word, unquoted, follows the set among the words.
            (
                ["log", "squat", "100kg", "x", "5", "--note", "felt", "very", "heavy"],
                "\"very heavy\" follows the set in \"squat 100kg x 5 very heavy\"; quote a note of more than one word: "
                    + "--note \"felt very heavy\"", 1
            ),
            // The second word of a name left unquoted was an argument the parser did not expect, said no more.
            (
                ["correct", "1", "--exercise", "bench", "press"],
                "unexpected \"press\" after the value of --exercise (if it is part of the value, give that in quotes: "
                    + "--exercise \"bench press\")", 64
            ),
            (["correct", "1", "--note=felt", "good"], "give that in quotes: --note \"felt good\")", 64),
            (
                ["log", "plank", "--time", "1h", "5m", "30s"],
                "\"5m 30s\" follows the set in \"plank 5m 30s\"; quote a value of more than one word: --time \"1h 5m 30s\"",
                1
            ),
            (["prs", "--bogus"], "Unknown option '--bogus'; see liftledger prs --help", 64),
            // A mistyped command is named as one, with the command it is a slip of; `help` of none is no help.
            (["histroy"], "unknown command 'histroy' (did you mean history?); see liftledger --help", 64),
            (["help", "nosuch"], "unknown command 'nosuch'; see liftledger --help", 64),
            (["hist"], "unknown command 'hist' (did you mean history?)", 64),
            (["--journal", "/nowhere", "histroy"], "unknown command 'histroy' (did you mean history?)", 64),
            // The commands that take any word (for negative numbers) refuse a mistyped option as the others do: it was
            // read as part of the exercise's name (`exercise add "hack squat --warmup"` was the remedy), or the reps.
            (
                ["log", "hack", "squat", "100kg", "x", "5", "--confrim"],
                "Unknown option '--confrim'; see liftledger log", 64
            ),
            (["log", "hack", "squat", "--warmup", "100kg", "x", "5"], "Unknown option '--warmup'", 64),
            (["log", "bench", "press", "80kg", "x", "5", "-r", "8"], "Unknown option '-r'", 64),
            (["rest", "60", "--bogus"], "Unknown option '--bogus'", 64),
            (["rest", "extend", "--bogus"], "Unknown option '--bogus'; see liftledger rest extend --help", 64),
            (["prs", "--as-of", "--json"], "missing value for '--as-of': --json is an option", 64),
            (["history", "--routine", "Nope"], "no routine \"Nope\"; there are no routines yet", 1),
            (["history", "--from", "2026-03-01", "--to", "2026-02-01"], "--from 2026-03-01 is after --to", 1),
            (["history", "--last", "0"], "--last takes 1 or more", 64),
            // A projection that is none, as a value outside an option's choices: read with the command line.
            (["rebuild", "nope"], "no projection named \"nope\"; the projections are: plan, training", 64),
            // An option `rebuild` does not have, with a value: the option is the mistake, not the value.
            (["rebuild", "--as-of", "3"], "Unknown option '--as-of'; see liftledger rebuild --help", 64),
            (["rebuild", "--dry-run", "3"], "no projection named \"3\"", 64),
            (["rebuild", "--durability=relaxed", "3"], "no projection named \"3\"", 64),
            (["schedule", "set", "--weekdays", "A,B,C,D,E,F,G", "--start", "2026-11-01"], "a --weekdays plan", 64),
        ]
        for (arguments, hint, status) in cases {
            let result = try liftledger(arguments, journal: journal)
            #expect(result.status == status, "\(arguments)")
            #expect(result.standardError.hasPrefix("liftledger: error: "), "\(arguments): \(result.standardError)")
            #expect(result.standardError.split(separator: "\n").count == 1, "\(arguments)")
            #expect(result.standardError.contains(hint), "\(arguments): \(result.standardError)")
            #expect(result.standardOutput.isEmpty)
        }
        // A time still to come answers as of now, and says so first: no later point would help.
        let future = try liftledger(["why", "squat", "--as-of", "2999-01-01"], journal: journal)
        #expect(future.status == 1)
        let lines = future.standardError.split(separator: "\n")
        #expect(
            lines.count == 2 && lines[0] == "liftledger: note: --as-of 2999-01-01 is still to come; answering as of now"
        )
        #expect(lines.last?.hasPrefix("liftledger: error: Barbell Squat has no records; log a set of it first") == true)
        // After `--`, as a shell user may write a negative value: the rule's refusal too.
        let dashed = try run(
            BuiltProgram.liftledger, ["rules", "set", "--journal", journal, "balance.secondary", "--", "-0.1"])
        #expect(dashed.status == 1 && dashed.standardError.contains("\"-0.1\" for balance.secondary; give a number"))
        // A rule set to the value it has is not recorded again; nor is a profile's field (a new unit is, alone).
        let unchanged = try ok(["rules", "set", "week.start", "Monday"])
        #expect(unchanged.standardOutput == "week.start is already monday; nothing was written\n")
        #expect(try head() == before, "no refused command wrote anything")
        try ok(["rules", "set", "week.start", "sunday"])
        #expect(try head() == before + 1)
        let unit = try ok(["profile", "set", "--unit", "lb", "--age", "30"]).standardOutput
        let same = try ok(["profile", "set", "--unit", "lb"]).standardOutput
        #expect(unit == "profile updated\n" && same == "the profile holds these values already; nothing was written\n")
        #expect(try head() == before + 2)
        // Only the field that changes is recorded.
        try ok(["profile", "set", "--unit", "kg", "--age", "30"])
        #expect(try head() == before + 3)
        let recorded = try jsonObject(try liftledger(["events", "--json"], journal: journal).lines.last!)
        #expect(recorded["type"] as? String == "ProfileUpdated")
        #expect((recorded["data"] as? [String: Any])?.keys.sorted() == ["unit"])
    }

    /// Only a finished workout can be deleted, as only one can be edited; an edit to what the workout has already writes
    /// nothing, as a rule set to its value does.
    @Test func aDiscardedWorkoutIsNotDeletedAndAnEditToWhatIsThereWritesNothing() throws {
        try ok(["start"])
        try ok(["log", "squat", "100", "x", "5"])
        try ok(["discard"])
        let before = try head()
        let refused = try liftledger(["delete", "1"], journal: journal)
        #expect(refused.status == 1 && refused.standardOutput.isEmpty)
        #expect(
            refused.standardError
                == "liftledger: error: workout-1 is discarded; only finished workouts can be deleted\n")
        #expect(try head() == before)
        try ok(["start"])
        try ok(["log", "squat", "100", "x", "5"])
        try ok(["finish"])
        let finished = try head()
        // A correction to what the set has writes nothing either (it would name itself the set's last change).
        #expect(
            try ok(["correct", "1", "--workout", "2", "--reps", "5"]).standardOutput
                == "set 1 of workout-2 has that already; nothing was written\n")
        #expect(try head() == finished)
        #expect(
            try ok(["edit", "2", "--name", "Workout"]).standardOutput
                == "workout-2 has that already; nothing was written\n")
        #expect(try head() == finished)
        // What changed is said, from what.
        #expect(
            try ok(["edit", "2", "--name", "Legs", "--note", "heavy"]).standardOutput
                == "edited workout-2: name Legs (was Workout); note heavy\n")
        #expect(try head() == finished + 1)
        #expect(try ok(["edit", "workout-2", "--name", "Legs"]).standardOutput.hasSuffix("nothing was written\n"))
        #expect(try ok(["delete", "2"]).standardOutput == "deleted workout-2\n")
        #expect(try head() == finished + 2)
    }

    /// `restore` brings a deleted workout back with its records, and finishes a discarded one. By hand: workout 1,
    /// squat 100 kg × 5; workout 2, squat 110 kg × 5, the heaviest record, whose previous is 100 kg. Deleted, workout
    /// 1's 100 kg is the record again; restored, the records are what they were before the deletion, to the byte of
    /// `prs --json`, and `why` names the restore. Workout 3, squat 120 kg × 3 and then a rest started, discarded, then
    /// restored: finished when its rest started (as `finish --at last` finishes a workout with a rest running), in
    /// the history, and its 120 kg the heaviest record, whose previous is 110 kg; as of the discard's time it is still
    /// discarded (the restore happened after). A restore of a workout in the history, of one in progress, of one
    /// discarded with no sets, and of one that is not there writes nothing.
    @Test func restoreBringsBackADeletedWorkoutAndFinishesADiscardedOne() throws {
        for weight in ["100kg", "110kg"] {
            try ok(["start"])
            try ok(["log", "squat", weight, "x", "5"])
            try ok(["finish"])
        }
        func heaviest() throws -> (value: String?, previous: String?) {
            let answer = try jsonObject(try ok(["prs", "squat", "--json"]).lines[0])
            let records = answer["records"] as? [[String: Any]]
            let record = records?.first { $0["kind"] as? String == "heaviest" }
            return (record?["value"] as? String, (record?["previous"] as? [String: Any])?["value"] as? String)
        }
        func events() throws -> [[String: Any]] { try ok(["events", "--json"]).lines.map(jsonObject) }
        let records = try ok(["prs", "squat", "--json"]).standardOutput
        #expect(try heaviest() == ("110", "100"))
        try ok(["delete", "2"])
        #expect(try heaviest() == ("100", nil))
        let refusedLog = try liftledger(["log", "squat", "100kg", "x", "5", "--workout", "2"], journal: journal)
        #expect(
            refusedLog.standardError
                == "liftledger: error: workout-2 was deleted; bring it back first (liftledger restore workout-2), or "
                + "log into another workout\n")
        let deletedAt = try #require(try events().last?["occurredAt"] as? String)
        // With no workout given, restore lists those it brings back.
        let listed = try ok(["restore"]).lines
        #expect(listed.count == 2 && listed[1].hasSuffix("  workout-2   deleted    1 set    Workout"), "\(listed)")
        #expect(try ok(["restore", "2"]).standardOutput == "restored workout-2: it counts again\n")
        #expect(try ok(["prs", "squat", "--json"]).standardOutput == records)
        #expect(try ok(["history", "--json", "--as-of", deletedAt]).lines.count == 1)
        let restore = try #require(try events().last?["position"] as? Int)
        let why = try jsonObject(try ok(["why", "squat", "heaviest", "--json"]).lines[0])
        let cited = (why["records"] as? [[String: Any]])?.last?["events"] as? [[String: Any]]
        #expect(
            cited?.contains { $0["position"] as? Int == restore && $0["type"] as? String == "WorkoutRestored" } == true)

        try ok(["start"])
        try ok(["log", "squat", "120kg", "x", "3"])
        try ok(["rest", "90"])
        try ok(["discard"])
        #expect(try heaviest() == ("110", "100"))
        let discard = try #require(try events().last)
        let candidates = try ok(["restore", "--json"]).lines.map(jsonObject)
        #expect(candidates.count == 1 && candidates.first?["workoutId"] as? String == "workout-3")
        #expect(candidates.first?["state"] as? String == "discarded" && candidates.first?["sets"] as? Int == 1)
        let restStarted = try #require(try events().last { $0["type"] as? String == "RestTimerStarted" })
        let restored = try ok(["restore", "3"]).standardOutput
        #expect(
            restored.hasPrefix("restored workout-3: finished at ")
                && restored.hasSuffix(", as finish --at last would have\n"), "\(restored)")
        let written = try #require(try events().last)
        #expect(written["type"] as? String == "WorkoutRestored")
        #expect((written["data"] as? [String: Any])?["finishedAt"] as? String == restStarted["occurredAt"] as? String)
        let shown = try jsonObject(try ok(["show", "3", "--json"]).lines[0])
        #expect(
            shown["status"] as? String == "finished"
                && shown["finishedAt"] as? String == restStarted["occurredAt"] as? String)
        #expect(try ok(["history", "--json"]).lines.count == 3)
        #expect(try heaviest() == ("120", "110"))
        let discardedAt = try #require(discard["occurredAt"] as? String)
        let then = try jsonObject(try ok(["show", "3", "--json", "--as-of", discardedAt]).lines[0])
        #expect(then["status"] as? String == "discarded")
        #expect(try ok(["history", "--json", "--as-of", discardedAt]).lines.count == 2)

        try ok(["start"])
        let before = try head()
        // Restored already, it is what restore asks for: said, as any command with nothing to write says, exit 0.
        let restoredAgain = try ok(["restore", "2"])
        #expect(restoredAgain.standardOutput == "workout-2 is in the history already; nothing was written\n")
        #expect(try head() == before)
        for (workout, message) in [
            ("4", "workout-4 is in progress; only a deleted or discarded workout can be restored"),
            ("9", "no workout 9; see the workouts it brings back with liftledger restore (no workout given)"),
        ] {
            let refused = try liftledger(["restore", workout], journal: journal)
            #expect(
                refused.status == 1 && refused.standardError.hasPrefix("liftledger: error: \(message)"), "\(refused)")
        }
        try ok(["discard"])
        let empty = try liftledger(["restore", "4"], journal: journal)
        #expect(
            empty.standardError
                == "liftledger: error: workout-4 was discarded with no sets; there is nothing to restore\n")
        #expect(try head() == before + 1)
        #expect(try ok(["restore"]).lines == ["no workout to restore: none is deleted, nor discarded with sets"])
    }

    /// The calendar's weeks start on the rules' week.start. November 2026 begins on a Sunday (the 25th is a Wednesday):
    /// the 1st alone in Monday weeks, and heading a row in Sunday weeks; workouts on the 1st and the 25th.
    @Test func theCalendarStartsItsWeeksOnTheRulesWeekStart() throws {
        try ok(["profile", "set", "--time-zone", "UTC"])
        // The zone as it was set, as `rules show` gives it (Foundation calls UTC GMT).
        #expect(try jsonObject(try ok(["profile", "show", "--json"]).lines[0])["timeZone"] as? String == "UTC")
        let file = directory.child("two.csv")
        try Data(
            """
            Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,RPE
            2026-11-01 10:00:00,A,60m,Bench Press (Barbell),1,100,5,0,0,
            2026-11-25 10:00:00,B,60m,Bench Press (Barbell),1,100,5,0,0,

            """.utf8
        ).write(to: URL(fileURLWithPath: file))
        try ok(["import", file, "--unit", "kg"])
        #expect(
            try ok(["calendar", "2026-11"]).lines == [
                "2026-11: 2 days trained", " Mo  Tu  We  Th  Fr  Sa  Su", "                          1*",
                "  2   3   4   5   6   7   8", "  9  10  11  12  13  14  15", " 16  17  18  19  20  21  22",
                " 23  24  25* 26  27  28  29", " 30", "* trained",
            ])
        try ok(["rules", "set", "week.start", "sunday"])
        #expect(
            try ok(["calendar", "2026-11"]).lines == [
                "2026-11: 2 days trained", " Su  Mo  Tu  We  Th  Fr  Sa", "  1*  2   3   4   5   6   7",
                "  8   9  10  11  12  13  14", " 15  16  17  18  19  20  21", " 22  23  24  25* 26  27  28",
                " 29  30", "* trained",
            ])
    }

    /// A timed or distance set is logged live with --time and --distance, of the exercise alone or with a load, and
    /// corrected so; it shows and makes its records with its time and distance (90 s is 1m 30s).
    @Test func timedAndDistanceSetsAreLoggedLive() throws {
        try ok(["start"])
        #expect(try ok(["log", "plank", "--time", "60s"]).standardOutput == "set 1: Plank 1m 00s\n")
        #expect(
            try ok(["log", "farmers", "walk", "40kg", "x", "1", "--distance", "50m"]).standardOutput
                == "set 2: Farmer's Walk 40 kg × 1  50 m\n")
        try ok(["correct", "1", "--time", "1:30"])
        // A custom exercise whose name ends as a time does (100m): its name, not a time's second word.
        try ok(["exercise", "add", "Sprint 100m", "--primary", "quadriceps"])
        #expect(try ok(["log", "sprint", "100m", "--time", "14s"]).standardOutput == "set 3: Sprint 100m 14s\n")
        try ok(["remove-set", "3"])
        let refused = try liftledger(["log", "plank", "bw", "x", "60s"], journal: journal)
        #expect(refused.status == 1 && refused.standardError.hasSuffix("liftledger log plank --time 60s\n"))
        let status = try jsonObject(try ok(["status", "--json"]).lines[0])
        let plank = ((status["exercises"] as? [[String: Any]])?.first?["sets"] as? [[String: Any]])?.first
        #expect(plank?["durationSeconds"] as? Int == 90 && plank?["reps"] as? Int == 0)
        try ok(["finish"])
        let prs = try ok(["prs", "plank"]).lines
        #expect(prs.count == 2 && prs[1].hasPrefix("  duration       1m 30s        workout-1 set 1, "), "\(prs)")
        let why = try ok(["why", "plank", "duration"]).lines
        #expect(why[0] == "Plank, duration: 1 record, oldest first" && why[1].hasPrefix("#1 1m 30s: workout-1 set 1, "))
        // The plank's session has a time column and no distance one; the walk's a distance and no time.
        let plankProgress = try ok(["progress", "plank"]).lines
        #expect(plankProgress[1].contains("time") && !plankProgress[1].contains("distance"))
        #expect(plankProgress[2].contains(" 1m 30s "), "\(plankProgress)")
        let walk = try ok(["progress", "farmers", "walk"]).lines
        #expect(walk[1].contains("distance") && !walk[1].contains("time") && walk[2].contains(" 50 m "), "\(walk)")
        // With pounds, a distance below a quarter mile is in yards: 50 m over 0.9144 m a yard is 54.68, 54.7 yd.
        try ok(["profile", "set", "--unit", "lb"])
        let walkRecords = try ok(["prs", "farmers", "walk"]).lines
        #expect(walkRecords.contains { $0.hasPrefix("  distance       54.7 yd ") }, "\(walkRecords)")
        #expect(
            try ok(["why", "farmers", "walk", "distance"]).lines[1].hasPrefix("#1 54.7 yd: 40 kg × 1, workout-1 set 2"))
        // A load on a timed set (a weighted plank) shows with its time and no reps.
        try ok(["correct", "1", "--weight", "20kg", "--workout", "1"])
        #expect(try ok(["show", "1"]).lines.contains("  1. 20 kg  1m 30s"))
        let plankRecords = try ok(["prs", "plank"]).lines
        #expect(plankRecords.contains { $0.hasPrefix("  duration       1m 30s        20 kg, workout-1 set 1, ") })
        let abdominals = try ok(["why", "balance", "abdominals"]).lines
        #expect(abdominals.contains { $0.hasPrefix("      set 1: 20 kg  1m 30s, position ") }, "\(abdominals)")
    }

    /// A set that is not there is refused with the sets that are, runs of them by their ends: of sets 1 to 7 with 2 and
    /// 5 removed, `1, 3, 4, 6, 7`; with 3 removed too and then 8 logged, `1, 4, 6 to 8`.
    @Test func aSetThatIsNotThereNamesTheSetsThatAre() throws {
        try ok(["start"])
        for _ in 1...7 { try ok(["log", "squat", "100kg", "x", "5"]) }
        try ok(["remove-set", "2"])
        try ok(["remove-set", "5"])
        let refused = try liftledger(["correct", "9", "--reps", "4"], journal: journal)
        #expect(refused.status == 1 && refused.standardError.hasSuffix("its sets are 1, 3, 4, 6, 7\n"), "\(refused)")
        try ok(["remove-set", "3"])
        try ok(["log", "squat", "100kg", "x", "5"])
        let again = try liftledger(["correct", "9", "--reps", "4"], journal: journal)
        #expect(again.standardError.hasSuffix("workout-1 has no set 9; its sets are 1, 4, 6 to 8\n"), "\(again)")
    }

    /// `correct --clear` takes a set's RPE, time or distance off; a value both given and cleared, or the last measure of
    /// a set, is refused, writing nothing.
    @Test func correctClearsASetsRPETimeAndDistance() throws {
        try ok(["start"])
        try ok(["log", "rowing", "stationary", "--distance", "500m", "--time", "2m", "--rpe", "8"])
        let before = try ok(["events"]).standardOutput
        let refused = try liftledger(["correct", "1", "--time", "3m", "--clear", "time"], journal: journal)
        // Options that do not go together, refused as the command line is read (status 64, as README.md says).
        #expect(
            refused.status == 64 && refused.standardError.contains("--time and --clear time cannot be used together"))
        #expect(try ok(["events"]).standardOutput == before)
        try ok(["correct", "1", "--clear", "time", "--clear", "rpe"])
        var set = try #require(try statusSets().first)
        #expect(set["durationSeconds"] is NSNull && set["rpe"] is NSNull && set["distanceMeters"] as? String == "500")
        // Its distance now its one measure: taking it off would leave a set of nothing, which is refused.
        let events = try ok(["events"]).standardOutput
        let emptied = try liftledger(["correct", "1", "--clear", "distance"], journal: journal)
        #expect(emptied.status == 1 && emptied.standardError.hasSuffix("remove it instead: liftledger remove-set 1\n"))
        #expect(try ok(["events"]).standardOutput == events)
        set = try #require(try statusSets().first)
        #expect(set["distanceMeters"] as? String == "500")
    }

    /// The sets of the workout in progress, as `status --json` gives them.
    private func statusSets() throws -> [[String: Any]] {
        let status = try jsonObject(try ok(["status", "--json"]).lines[0])
        return (status["exercises"] as? [[String: Any]])?.flatMap { ($0["sets"] as? [[String: Any]]) ?? [] } ?? []
    }

    /// A weekly streak names its weeks by their first days, as weeks: one workout today makes this week's streak,
    /// `the week of` this week's Monday (the default week start, in UTC, the profile's zone), worked out with
    /// Foundation's calendar.
    @Test func aWeeklyStreakNamesItsWeeks() throws {
        try ok(["profile", "set", "--time-zone", "UTC"])
        try ok(["start"])
        try ok(["log", "squat", "100kg", "x", "5"])
        try ok(["finish"])
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        calendar.firstWeekday = 2
        let monday = calendar.dateInterval(of: .weekOfYear, for: Date())!.start
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = calendar.timeZone
        formatter.dateFormat = "yyyy-MM-dd"
        let lines = try ok(["streak"]).lines
        #expect(lines.first == "current: 1 week (the week of \(formatter.string(from: monday)))", "\(lines)")
    }

    /// An estimate says what made it: the formula in force and the set's RPE. By hand, under the RPE chart, 5 reps at
    /// RPE 8 are 7 effective reps, 81.1% of a one-rep max: 100 / 0.811 = 123.30 kg.
    @Test func anEstimateNamesItsFormulaAndRPE() throws {
        try ok(["rules", "set", "e1rm.formula", "rpe"])
        try ok(["start"])
        try ok(["log", "bench", "press", "100kg", "x", "5", "--rpe", "8"])
        try ok(["finish"])
        let why = try ok(["why", "bench", "press", "e1rm"]).lines
        #expect(why[0].hasSuffix(", e1rm (kg, by rpe): 1 record, oldest first"), "\(why)")
        #expect(why[1].hasPrefix("#1 123.3: 100 kg × 5 at RPE 8, workout-1 set 1, "), "\(why)")
        // `prs` names the formula too: 100 kg at RPE 8 for 5 is 81.1% of a one-rep max (the chart's 7 effective
        // reps), 123.30 kg to two decimals; under Epley, 100 × (1 + 5/30) = 116.67.
        let records = try ok(["prs", "bench", "press"]).lines
        #expect(records.contains { $0.hasPrefix("  e1rm (rpe)     123.3 kg ") }, "\(records)")
        try ok(["rules", "set", "e1rm.formula", "epley"])
        let underEpley = try ok(["prs", "bench", "press"]).lines
        #expect(underEpley.contains { $0.hasPrefix("  e1rm (epley)   116.67 kg ") }, "\(underEpley)")
    }

    /// Commands that name an exercise echo it as the catalog names it, as `log` does: `ohp` is an alias.
    @Test func exerciseCommandsEchoTheCatalogName() throws {
        try ok(["start"])
        #expect(try ok(["add", "ohp"]).standardOutput == "added Standing Military Press\n")
        try ok(["log", "squat", "100", "x", "5"])
        // Lifters' shorthands: bp is the bench press, dl the deadlift (Resources/exercise-aliases.json).
        #expect(
            try ok(["log", "bp", "60kg", "x", "5"]).standardOutput
                == "set 2: Barbell Bench Press - Medium Grip 60 kg × 5\n")
        #expect(try ok(["log", "dl", "140kg", "x", "3"]).standardOutput == "set 3: Barbell Deadlift 140 kg × 3\n")
        #expect(
            try ok(["move-exercise", "ohp", "2"]).standardOutput
                == "moved Standing Military Press to place 2 of workout-1\n")
        #expect(
            try ok(["remove-exercise", "ohp"]).standardOutput == "removed Standing Military Press from workout-1\n")
    }

    /// Another app's name for an exercise, as an import maps it, is taken by `log` and the queries: Strong's and Hevy's
    /// `Bench Press (Barbell)` is the catalog's Barbell Bench Press - Medium Grip (Resources/app-exercise-names.json).
    @Test func anotherAppsExerciseNameIsTakenAsAnImportMapsIt() throws {
        try ok(["start"])
        #expect(
            try ok(["log", "Bench Press (Barbell)", "100kg", "x", "5"]).standardOutput
                == "set 1: Barbell Bench Press - Medium Grip 100 kg × 5\n")
        try ok(["finish"])
        #expect(try ok(["prs", "Bench Press (Barbell)"]).lines.first == "Barbell Bench Press - Medium Grip")
        let progress = try ok(["progress", "bench", "press", "(barbell)"]).lines
        #expect(progress.first == "Barbell Bench Press - Medium Grip: 1 session", "\(progress)")
        // A name no app has, with its equipment in front or not, is still unknown.
        let unknown = try liftledger(["prs", "Bench Press (Spoon)"], journal: journal)
        #expect(unknown.status == 1 && unknown.standardError.contains("unknown exercise \"Bench Press (Spoon)\""))
        // The commands that name an exercise take it too (Squat (Barbell) is the catalog's Barbell Squat, by the
        // table): in a workout, in a routine, and shown.
        try ok(["start"])
        try ok(["add", "bench", "press"])
        #expect(try ok(["add", "Squat (Barbell)"]).standardOutput == "added Barbell Squat\n")
        #expect(
            try ok(["move-exercise", "Squat (Barbell)", "1"]).standardOutput
                == "moved Barbell Squat to place 1 of workout-2\n")
        #expect(
            try ok(["remove-exercise", "Squat (Barbell)"]).standardOutput == "removed Barbell Squat from workout-2\n")
        try ok(["routine", "add", "Push", "Bench Press (Barbell)"])
        #expect(
            try ok(["routine", "show", "Push"]).lines.contains { $0.contains("Barbell Bench Press - Medium Grip") })
        try ok(["routine", "remove", "Push", "Bench Press (Barbell)"])
        #expect(
            try ok(["exercise", "show", "Bench Press (Barbell)"]).lines.first?.hasPrefix("Barbell Bench Press") == true)
        // A custom exercise may not take such a name: imports and `log` would take it for the custom one from then on.
        let custom = try liftledger(
            ["exercise", "add", "Bench Press (Barbell)", "--primary", "chest"], journal: journal)
        #expect(custom.status == 1)
        #expect(
            custom.standardError.contains(
                "\"Bench Press (Barbell)\" is another app's name for \"Barbell Bench Press - Medium Grip\""))
    }

    /// A search word matches the start of a word of the name: run finds Running, Treadmill and not Crunches.
    @Test func aSearchMatchesTheStartsOfWords() throws {
        let names = try ok(["exercise", "list", "--search", "run"]).lines.map { $0.components(separatedBy: "  [")[0] }
        #expect(names.contains("Running, Treadmill") && !names.contains("Crunches"), "\(names)")
        #expect(try ok(["exercise", "list", "--search", "crunch"]).lines.contains { $0.hasPrefix("Crunches  [") })
        // Words run together as a name writes them: pull up finds Pullups.
        #expect(try ok(["exercise", "list", "--search", "pull up"]).lines.contains { $0.hasPrefix("Pullups  [") })
        // An alias finds its exercise: the alias table maps ohp to the Standing Military Press, whose name has no ohp.
        #expect(
            try ok(["exercise", "list", "--search", "ohp"]).lines == [
                "Standing Military Press  [Standing_Military_Press]  shoulders"
            ])
    }

    /// A dry run compares estimates to the milligram, not to the two decimals `prs` gives: 0.4 kg × 8 is 0.4 × (1 +
    /// 8/30) = 0.506667 kg under Epley and 0.4 / 0.786 = 0.508906 kg under the RPE chart (78.6% for 8 reps at RPE
    /// 10), both 0.51 to two decimals. By hand.
    @Test func aDryRunShowsAChangeOfAnEstimateThatTwoDecimalsHide() throws {
        try ok(["start"])
        try ok(["log", "dumbbell", "curl", "0.4kg", "x", "8"])
        try ok(["finish"])
        #expect(
            try ok(["rules", "set", "e1rm.formula", "rpe", "--dry-run"]).lines == [
                "recordHistory Dumbbell_Bicep_Curl e1rm workout-1 set 1: 0.506667 kg -> 0.508906 kg",
                "records Dumbbell_Bicep_Curl e1rm: 0.506667 kg -> 0.508906 kg",
                "2 differences in records, streaks and weekly counters if e1rm.formula were rpe; the rule was not recorded",
            ])
    }

    /// `status --now` shows the session as it stands at a later time; a time before its last activity (here the set
    /// logged after the start) is refused, as the session then did not hold that set.
    @Test func statusRefusesATimeBeforeTheSessionsLastActivity() throws {
        try ok(["start"])
        try ok(["log", "squat", "100", "x", "5"])
        let set = try jsonObject(try ok(["status", "--json"]).lines[0])
        let loggedAt = try #require(
            ((set["exercises"] as? [[String: Any]])?.first?["sets"] as? [[String: Any]])?.first?["loggedAt"] as? String)
        let refused = try liftledger(["status", "--now", "2020-01-01T00:00:00Z"], journal: journal)
        #expect(refused.status == 1 && refused.standardOutput.isEmpty)
        #expect(
            refused.standardError
                == "liftledger: error: --now 2020-01-01T00:00:00Z is before the workout's last activity, at \(loggedAt); "
                + "give a time at or after it; status shows the session as it stands, not as it was\n")
        #expect(try ok(["status", "--json", "--now", loggedAt]).lines.count == 1)
        // A local time, as finish --at takes one (it took RFC 3339 alone): in 2100, the session is stale.
        let later = try jsonObject(try ok(["status", "--json", "--now", "2100-01-01 08:00"]).lines[0])
        #expect(later["stale"] as? Bool == true, "\(later)")
    }

    /// A new first day of the week moves a workout's counters to another week: the preview lists the week's workouts,
    /// and each muscle's sets and volume, but no muscle's count of workouts, which the fold keeps for the whole week only.
    @Test func aWeekStartPreviewListsWorkoutsForTheWholeWeekOnly() throws {
        try ok(["start"])
        try ok(["log", "bench press", "100kg", "x", "5"])
        try ok(["finish"])
        let lines = try ok(["rules", "set", "week.start", "sunday", "--dry-run", "--json"]).lines
        let changes = try lines.map { try jsonObject($0) }
        let workouts = changes.filter { $0["figure"] as? String == "workouts" }
        #expect(workouts.count == 2, "the week it leaves and the week it joins")
        #expect(workouts.allSatisfy { ($0["subject"] as? [String])?.last == "" })
        #expect(changes.contains { ($0["subject"] as? [String])?.last == "chest" && $0["figure"] as? String == "sets" })
    }

    /// A local time the clocks skip (the spring change in Berlin, 02:00 to 03:00) is named as such, not as unreadable.
    @Test func aTimeTheClocksSkipIsNamedAsSuch() throws {
        try ok(["profile", "set", "--time-zone", "Europe/Berlin"])
        try ok(["start"])
        try ok(["log", "squat", "100kg", "x", "5"])
        try ok(["finish"])
        let skipped = try liftledger(["edit", "1", "--date", "2026-03-29 02:30"], journal: journal)
        #expect(skipped.status == 1)
        #expect(skipped.standardError.contains("2026-03-29 02:30 does not exist in Europe/Berlin"))
        try ok(["edit", "1", "--date", "2026-03-29 03:30"])
        let unreadable = try liftledger(["edit", "1", "--date", "2026-03-29 25:30"], journal: journal)
        #expect(unreadable.status == 1 && unreadable.standardError.contains("cannot read --date"))
        // A date alone keeps the time of day, and is refused where the clocks skip it too: it was moved on an hour.
        try ok(["edit", "1", "--date", "2026-03-22 02:30"])
        let skippedDay = try liftledger(["edit", "1", "--date", "2026-03-29"], journal: journal)
        #expect(skippedDay.status == 1, "\(skippedDay.standardOutput)")
        #expect(skippedDay.standardError.contains("2026-03-29 02:30:00 does not exist in Europe/Berlin"))
        // The end of a workout likewise.
        try ok(["start"])
        let skippedEnd = try liftledger(["finish", "--at", "2026-03-29 02:30"], journal: journal)
        #expect(skippedEnd.status == 1)
        #expect(skippedEnd.standardError.contains("2026-03-29 02:30 does not exist in Europe/Berlin"))
    }

    /// A local time the clocks pass twice (the autumn change in Berlin, 03:00 back to 02:00) is its first pass, as an
    /// import reads it: 02:30 on 2025-10-26 is 00:30Z (summer time, UTC+2), not 01:30Z. `edit --date` moved a workout
    /// to the time `show` gave for it by an hour. A date alone keeps a start in the second pass there.
    @Test func aTimeTheClocksPassTwiceIsItsFirstPass() throws {
        try ok(["profile", "set", "--time-zone", "Europe/Berlin"])
        try ok(["start"])
        try ok(["log", "squat", "100kg", "x", "5"])
        try ok(["finish"])
        func started() throws -> String? {
            try jsonObject(try ok(["show", "1", "--json"]).lines[0])["startedAt"] as? String
        }
        try ok(["edit", "1", "--date", "2025-10-26 02:30"])
        #expect(try started() == "2025-10-26T00:30:00.000000Z")
        // After the change, the same clock reads an hour later: 03:30 is 02:30Z.
        try ok(["edit", "1", "--date", "2025-10-26 03:30"])
        #expect(try started() == "2025-10-26T02:30:00.000000Z")
        // A date alone keeps the time of day, read as its first pass too: 02:30 a week before is 00:30Z (UTC+2).
        try ok(["edit", "1", "--date", "2025-10-19 02:30"])
        try ok(["edit", "1", "--date", "2025-10-26"])
        #expect(try started() == "2025-10-26T00:30:00.000000Z")
        // A start in the second pass (02:30 CET, 01:30Z, given as an instant) stays in it: its own date alone leaves it
        // where it is, and a day with no second pass has the one 02:30 (2025-10-27: CET, 01:30Z). It moved an hour.
        try ok(["edit", "1", "--date", "2025-10-26T01:30:00Z"])
        #expect(
            try ok(["edit", "1", "--date", "2025-10-26"]).standardOutput
                == "workout-1 has that already; nothing was written\n")
        #expect(try started() == "2025-10-26T01:30:00.000000Z")
        try ok(["edit", "1", "--date", "2025-10-27"])
        #expect(try started() == "2025-10-27T01:30:00.000000Z")
    }

    /// Table columns line up on a terminal whatever script a name is in: `下午锻炼` (four characters of two columns
    /// each, eight in all) is padded as `A` is, to the 18 columns of the name (by hand: 8 + 10 = 1 + 17). A longer
    /// name widens the column, to at most 34, and one longer than that is cut: it moved the columns after it. An emoji
    /// written as a symbol and the emoji variation selector takes two columns, as one of emoji presentation does.
    @Test func tableColumnsLineUpForWideCharacters() throws {
        for name in ["下午锻炼", "A"] {
            try ok(["start", "--name", name])
            try ok(["log", "squat", "100kg", "x", "5"])
            try ok(["finish"])
        }
        var rows = try ok(["history"]).lines
        // The name, its padding, then the workout's time (a digit).
        func isPadded(_ name: String, by spaces: Int) -> Bool {
            rows.contains { row in
                guard let range = row.range(of: " " + name + String(repeating: " ", count: spaces)) else {
                    return false
                }
                return row[range.upperBound...].first?.isNumber == true
            }
        }
        #expect(isPadded("下午锻炼", by: 10) && isPadded("A", by: 17), "\(rows)")
        // By hand: "Evening workout 🏋️" is 16 characters and an emoji of two columns, 18 in all; the 43 characters of
        // the last make the column 34 wide, and are cut to their first 31 and an ellipsis, 32 columns.
        for name in ["Evening workout \u{1F3CB}\u{FE0F}", "Upper body, then a little cardio at the end"] {
            try ok(["start", "--name", name])
            try ok(["log", "squat", "100kg", "x", "5"])
            try ok(["finish"])
        }
        rows = try ok(["history"]).lines
        #expect(
            isPadded("下午锻炼", by: 26) && isPadded("A", by: 33) && isPadded("Evening workout \u{1F3CB}\u{FE0F}", by: 16)
                && isPadded("Upper body, then a little cardi…", by: 2), "\(rows)")
    }

    /// A set logged into a finished workout later is a record of that workout's day, in `prs` as in `history`.
    @Test func aLateSetIsARecordOfItsWorkoutsDay() throws {
        try ok(["start"])
        try ok(["log", "bench press", "100kg", "x", "5"])
        try ok(["finish"])
        try ok(["edit", "1", "--date", "2026-11-10"])
        try ok(["log", "bench press", "105kg", "x", "1", "--workout", "1"])
        let prs = try jsonObject(try ok(["prs", "bench press", "--json"]).lines[0])
        let records = try #require(prs["records"] as? [[String: Any]])
        let heaviest = try #require(records.first { $0["kind"] as? String == "heaviest" })
        #expect(heaviest["value"] as? String == "105" && heaviest["date"] as? String == "2026-11-10")
        let history = try jsonObject(try ok(["history", "--json"]).lines[0])
        #expect(history["date"] as? String == "2026-11-10")
        let line = try #require(try ok(["prs", "bench press"]).lines.first { $0.hasPrefix("  heaviest") })
        #expect(line.contains("workout-1 set 2, 2026-11-10 (was 100 kg)"), "\(line)")
    }

    /// Two processes load the state, meet, then both start: exactly one workout becomes active.
    @Test func racingStartsFromTwoProcesses() throws {
        for round in 0..<3 {
            let raceJournal = directory.child("race-\(round)")
            #expect(try liftledger(["init"], journal: raceJournal).status == 0)
            let barrier = directory.child("barrier-\(round)")
            try FileManager.default.createDirectory(atPath: barrier, withIntermediateDirectories: false)
            let racers = try (0..<2).map { _ in
                try ProgramHandle(BuiltProgram.harness, ["race-start", "--journal", raceJournal, "--barrier", barrier])
            }
            let results = racers.map { $0.wait(timeout: .seconds(60)) }
            #expect(results.map(\.status).sorted() == [0, 3], "\(results.map(\.standardOutput))")
            let status = try jsonObject(try liftledger(["status", "--json"], journal: raceJournal).lines[0])
            #expect(status["active"] as? Bool == true && status["workoutId"] as? String == "workout-1")
            let events = try liftledger(["events", "--json"], journal: raceJournal).lines
            #expect(events.count == 1, "one WorkoutStarted and nothing else")
        }
    }

    @Test func routinesSchedulesAndToday() throws {
        // Made by its first exercise, which says so: a name mistyped is seen at once.
        #expect(
            try ok(["routine", "add", "Legs", "squat", "--sets", "3", "--reps", "5-8", "--rest", "3m"]).standardOutput
                == "created routine Legs with Barbell Squat\n")
        try ok(["routine", "add", "Legs", "romanian deadlift"])
        try ok(["routine", "move", "Legs", "romanian deadlift", "1"])
        let routine = try jsonObject(try ok(["routine", "show", "legs", "--json"]).lines[0])
        let exercises = try #require(routine["exercises"] as? [[String: Any]])
        #expect(
            exercises.map { $0["exerciseId"] as! String } == [
                try exerciseID("romanian deadlift"), try exerciseID("squat"),
            ])
        #expect(exercises[1]["minimumReps"] as? Int == 5 && exercises[1]["restSeconds"] as? Int == 180)
        // A range of one number is written as that number: `2 × 10-10` read oddly.
        try ok(["routine", "add", "Arms", "curl", "--sets", "2", "--reps", "10"])
        #expect(try ok(["routine", "show", "arms"]).lines.last?.hasSuffix(": 2 × 10, rest 120 s") == true)

        // The default plan: 2026-11-23 is a Monday, Legs.
        let monday = try jsonObject(try ok(["today", "--date", "2026-11-23", "--json"]).lines[0])
        #expect(monday["routine"] as? String == "Legs" && monday["weekday"] as? String == "Monday")
        let sunday = try jsonObject(try ok(["today", "--date", "2026-11-22", "--json"]).lines[0])
        #expect(sunday["rest"] as? Bool == true)
        // Days far ahead, so that the schedule is in force on them whenever the test runs. Push and Pull are no
        // routines yet: said once each (Legs is, by another case).
        #expect(
            try ok(["schedule", "set", "--split", "Push,Pull,legs,rest,Push", "--start", "2099-11-20"]).lines == [
                "schedule set", #"note: no routine "Push" yet; create it with liftledger routine add Push EXERCISE"#,
                #"note: no routine "Pull" yet; create it with liftledger routine add Pull EXERCISE"#,
            ])
        try ok(["schedule", "set", "--split", "Push,Pull,Legs,rest", "--start", "2099-11-20"])
        // Given again, with its day 1 or without (which keeps the day 1 it has), the split in force writes nothing.
        for again in [["--start", "2099-11-20"], []] {
            #expect(
                try ok(["schedule", "set", "--split", "Push,Pull,Legs,rest"] + again).standardOutput
                    == "this schedule is in force already; nothing was written\n")
        }
        // 2099-11-22 is day 3 of the split.
        #expect(
            try jsonObject(try ok(["today", "--date", "2099-11-22", "--json"]).lines[0])["routine"] as? String == "Legs"
        )
        // A day before the split was set keeps the plan then in force, as the streak counts it: Monday 2026-11-23 is
        // Legs by the default plan; the split would make it Push (26,660 days before its day 1, a multiple of 4).
        #expect(try ok(["today", "--date", "2026-11-23"]).standardOutput.hasPrefix("Monday 2026-11-23: Legs;"))

        try ok(["start", "legs"])
        let status = try jsonObject(try ok(["status", "--json"]).lines[0])
        #expect((status["exercises"] as? [[String: Any]])?.count == 2)
        #expect(status["routineId"] as? String == "legs")
        // Each exercise with the routine's targets for it.
        let squatTarget = (status["exercises"] as? [[String: Any]])?.last?["target"] as? [String: Any]
        #expect(squatTarget?["sets"] as? Int == 3 && squatTarget?["maximumReps"] as? Int == 8)
        #expect(squatTarget?["restSeconds"] as? Int == 180)
        // Before any set, the rest is the first exercise's (romanian deadlift, which has none: 120 s), not the last
        // one's (squat's 180 s); after a set of squats, squat's.
        #expect(try ok(["rest"]).standardOutput == "resting 2m 00s\n")
        try ok(["log", "squat", "100kg", "x", "5"])
        #expect(try ok(["rest"]).standardOutput == "resting 3m 00s\n")
        #expect(try ok(["status"]).lines.contains("2. Barbell Squat: 1 of 3 sets of 5-8 reps, rest 3m 00s"))
        // A removed set is no longer the last: with it gone, the rest is the first exercise's again, after no set.
        try ok(["remove-set", "1"])
        #expect(try ok(["rest"]).standardOutput == "resting 2m 00s\n")
        let started = try ok(["events", "--json"]).lines.compactMap { try? jsonObject($0) }.last
        #expect(started?["type"] as? String == "RestTimerStarted")
        #expect((started?["data"] as? [String: Any]).map { $0["afterSet"] == nil } == true)

        // A routine whose name has a space is named as the shell needs it.
        try ok(["routine", "add", "Upper A", "bench press"])
        try ok(["schedule", "set", "--split", "Upper A", "--start", "2099-11-20"])
        // A day still to come: no workout to start now.
        #expect(try ok(["today", "--date", "2099-11-22"]).standardOutput == "Sunday 2099-11-22: Upper A\n")
        try ok(["schedule", "set", "--split", "Upper A"])
        // Today, beside the Legs workout in progress (a second start would be refused).
        #expect(
            try ok(["today"]).standardOutput.hasSuffix(
                ": Upper A; workout-1 (Legs) is in progress: finish it, then liftledger start \"Upper A\"\n"))
        // A routine due that is none yet, and a rest day: the workout in progress is named there too.
        try ok(["schedule", "set", "--split", "Cardio"])
        #expect(
            try ok(["today"]).standardOutput.hasSuffix(
                ": Cardio (no such routine yet; create it with liftledger routine add Cardio EXERCISE); workout-1 (Legs) "
                    + "is in progress\n"))
        try ok(["schedule", "set", "--split", "rest,Upper A"])
        #expect(try ok(["today"]).standardOutput.hasSuffix(": rest day; workout-1 (Legs) is in progress\n"))
        // Messages name the routine as it was first named, however it is typed.
        #expect(try ok(["routine", "add", "UPPER a", "squat"]).standardOutput == "added Barbell Squat to Upper A\n")
        #expect(
            try ok(["routine", "move", "upper-a", "squat", "1"]).standardOutput
                == "moved Barbell Squat to place 1 of Upper A\n")
        // An exercise of several words, unquoted, as move-exercise takes it; to the place it has, nothing is written.
        let head = try jsonObject(try ok(["stats", "--json"]).lines[0])["headHash"] as? String
        #expect(
            try ok(["routine", "move", "Upper A", "bench", "press", "2"]).standardOutput
                == "Barbell Bench Press - Medium Grip is in place 2 of Upper A already; nothing was written\n")
        #expect(try jsonObject(try ok(["stats", "--json"]).lines[0])["headHash"] as? String == head)
        #expect(
            try ok(["routine", "move", "Upper A", "bench", "press", "1"]).standardOutput
                == "moved Barbell Bench Press - Medium Grip to place 1 of Upper A\n")
        #expect(
            try ok(["routine", "remove", "UPPER A", "squat"]).standardOutput == "removed Barbell Squat from Upper A\n")

        // Targets written as a lifter writes them are pointed to the options; a subcommand mistyped is pointed to.
        let refusals: [([String], String)] = [
            (
                ["routine", "add", "Upper A", "deadlift", "5x3"],
                #"give them as options: liftledger routine add "Upper A" deadlift --sets 5 --reps 3"#
            ),
            (["routine", "add", "Upper A", "deadlift", "--reps", "5x3"], "give them apart: --sets 5 --reps 3"),
            (["routine", "remvoe", "Upper A", "squat"], #"did you mean liftledger routine remove "Upper A" squat?"#),
            (["routine", "shwo"], "did you mean liftledger routine show?"),
            // With `show` typed, a name is a routine's, however near a subcommand's (`Home`, two letters from `move`).
            (["routine", "show", "Home"], "change one with liftledger routine add, edit, remove, move or delete"),
        ]
        for (arguments, remedy) in refusals {
            let refused = try liftledger(arguments, journal: journal)
            #expect(refused.status == 1 && refused.standardError.hasSuffix(remedy + "\n"), "\(refused.standardError)")
        }
        // Targets changed in place: bench press keeps its place (first, before squat) and the targets not given (its 3
        // sets); the same again writes nothing, and nothing to change is a usage error.
        try ok(["routine", "add", "Upper A", "squat"])
        #expect(
            try ok(["routine", "edit", "upper a", "bench press", "--reps", "3-5", "--rest", "4m"]).standardOutput
                == "changed Barbell Bench Press - Medium Grip in Upper A\n")
        let edited = try jsonObject(try ok(["routine", "show", "Upper", "A", "--json"]).lines[0])
        let editedExercises = try #require(edited["exercises"] as? [[String: Any]])
        #expect(
            editedExercises.map { $0["exerciseId"] as? String } == [
                try exerciseID("bench press"), try exerciseID("squat"),
            ])
        #expect(editedExercises[0]["sets"] as? Int == 3 && editedExercises[0]["minimumReps"] as? Int == 3)
        #expect(editedExercises[0]["maximumReps"] as? Int == 5 && editedExercises[0]["restSeconds"] as? Int == 240)
        let unchanged = try jsonObject(try ok(["stats", "--json"]).lines[0])["headHash"] as? String
        #expect(
            try ok(["routine", "edit", "Upper A", "bench", "press", "--reps", "3-5"]).standardOutput.hasSuffix(
                "nothing was written\n"))
        #expect(try jsonObject(try ok(["stats", "--json"]).lines[0])["headHash"] as? String == unchanged)
        #expect(try liftledger(["routine", "edit", "Upper A", "squat"], journal: journal).status == 64)

        // Deleted, a routine is listed no more, and a schedule that names it is pointed out; the workout done from it
        // keeps it, and the history finds the workout by it.
        try ok(["log", "squat", "100kg", "x", "5"])
        try ok(["finish"])
        try ok(["schedule", "set", "--split", "Legs,rest", "--start", "2099-11-20"])
        #expect(
            try ok(["routine", "delete", "legs"]).lines == [
                "deleted Legs (2 exercises taken out)",
                "note: the schedule still names Legs; change it with liftledger schedule set, or add the routine "
                    + "again with liftledger routine add",
            ])
        #expect(try ok(["routine", "show"]).lines.filter { !$0.hasPrefix(" ") } == ["Arms", "Upper A"])
        #expect(try ok(["history", "--routine", "Legs", "--json"]).lines.count == 1)
        // None matches: the answer names what was asked, so that it is not read as an empty history.
        #expect(
            try ok(["history", "--routine", "Arms", "--from", "2099-01-01"]).standardOutput
                == "no finished workouts of routine Arms from 2099-01-01\n")
        let again = try liftledger(["routine", "delete", "Legs"], journal: journal)
        #expect(again.status == 1 && again.standardError.contains(#"no routine "Legs""#), "\(again.standardError)")
        // Its last exercise removed, a routine is gone as one deleted is, and that is said (it was not).
        try ok(["routine", "add", "Solo", "squat"])
        try ok(["schedule", "set", "--split", "Solo,rest", "--start", "2099-11-20"])
        #expect(
            try ok(["routine", "remove", "solo", "squat"]).lines == [
                "removed Barbell Squat from Solo",
                "Solo has no exercises left, so it is gone; routine add makes it again",
                "note: the schedule still names Solo; change it with liftledger schedule set, or add the routine "
                    + "again with liftledger routine add",
            ])
        #expect(try liftledger(["routine", "show", "Solo"], journal: journal).status == 1)
    }

    /// A custom exercise whose name holds what reads as a weight or as sets × reps is logged by its name quoted: the
    /// words were split first, and `24kg` cut off the name as a weight (the hint then made a second exercise). A
    /// catalog name quoted is read as before.
    @Test func aCustomExerciseNamedWithAWeightIsLoggedByItsNameQuoted() throws {
        try ok(["exercise", "add", "Kettlebell Swing 24kg", "--primary", "glutes"])
        try ok(["exercise", "add", "Squat 5x5", "--primary", "quadriceps"])
        try ok(["start"])
        #expect(
            try ok(["log", "Kettlebell Swing 24kg", "24kg", "x", "15"]).standardOutput
                == "set 1: Kettlebell Swing 24kg 24 kg × 15\n")
        #expect(try ok(["log", "Squat 5x5", "100", "x", "5"]).standardOutput == "set 2: Squat 5x5 100 kg × 5\n")
        #expect(
            try ok(["log", "bench press", "100kg", "x", "5"]).standardOutput
                == "set 3: Barbell Bench Press - Medium Grip 100 kg × 5\n")
        // Its name is no targets in a routine either.
        #expect(
            try ok(["routine", "add", "Upper", "Squat", "5x5"]).standardOutput
                == "created routine Upper with Squat 5x5\n")
        let status = try jsonObject(try ok(["status", "--json"]).lines[0])
        #expect(
            (status["exercises"] as? [[String: Any]])?.map { $0["exerciseId"] as? String } == [
                "custom-kettlebell-swing-24kg", "custom-squat-5x5", try exerciseID("bench press"),
            ])
        // The commands suggested for a name are quoted for a shell: pasted, `date` in backquotes ran.
        let unknown = try liftledger(["log", "Curl `date`", "10kg", "x", "5"], journal: journal)
        #expect(
            unknown.standardError.contains(#"exercise add "Curl \`date\`" --primary MUSCLE"#),
            "\(unknown.standardError)")
        try ok(["log", "butt lift bridge", "20kg", "x", "10"])
        try ok(["finish"])
        let noDistance = try liftledger(["why", "butt lift bridge", "distance"], journal: journal)
        #expect(
            noDistance.standardError.hasSuffix(#"liftledger prs "Butt Lift (Bridge)""# + "\n"),
            "\(noDistance.standardError)")
    }

    /// A custom exercise named all but as a catalog one (its plural) is refused, writing nothing, unless `--new` says it
    /// is meant: the sets of one exercise would be split between two.
    @Test func aCustomExerciseNamedAllButAsACatalogOneNeedsNew() throws {
        let before = try ok(["events", "--json"]).standardOutput
        let refused = try liftledger(
            ["exercise", "add", "Romanian Deadlifts", "--primary", "hamstrings"], journal: journal)
        #expect(
            refused.status == 1 && refused.standardError.contains(#"all but the name of "Romanian Deadlift""#)
                && refused.standardError.hasSuffix("add it anyway with --new\n"), "\(refused.standardError)")
        #expect(try ok(["events", "--json"]).standardOutput == before)
        #expect(
            try ok(["exercise", "add", "Romanian Deadlifts", "--primary", "hamstrings", "--new"]).standardOutput
                == "added Romanian Deadlifts [custom-romanian-deadlifts]\n")
    }

    /// `show` of a finished workout lists the exercises done, as `history` does: one whose only set was corrected onto
    /// another exercise is left out (its JSON keeps it, with no sets). In progress, it is listed, as the plan stands.
    @Test func showOfAFinishedWorkoutLeavesOutExercisesWithoutSets() throws {
        try ok(["start"])
        try ok(["log", "hack", "squat", "100", "x", "8"])
        try ok(["log", "squat", "100", "x", "5"])
        try ok(["correct", "1", "--exercise", "leg press"])
        let hack = try catalogName("hack squat")
        #expect(try ok(["show", "1"]).lines.contains(hack))
        try ok(["finish"])
        let shown = try ok(["show", "1"]).lines
        let legPress = try catalogName("leg press")
        #expect(!shown.contains(hack) && shown.contains(legPress), "\(shown)")
        let json = try jsonObject(try ok(["show", "1", "--json"]).lines[0])
        let exercises = try #require(json["exercises"] as? [[String: Any]])
        #expect(exercises.contains { $0["name"] as? String == hack && ($0["sets"] as? [Any])?.isEmpty == true })
    }

    /// A local time the clocks pass twice is taken as its first pass, and a note says so, with both passes: it was taken
    /// without a word. In Europe/Berlin, 2026-10-25 02:30 comes at +02:00 and again at +01:00 (the clocks go back at
    /// 03:00 summer time).
    @Test func aLocalTimeTheClocksPassTwiceIsNoted() throws {
        try ok(["profile", "set", "--time-zone", "Europe/Berlin"])
        try ok(["start"])
        try ok(["log", "squat", "100kg", "x", "5"])
        try ok(["finish"])
        let edited = try ok(["edit", "1", "--date", "2026-10-25 02:30"])
        #expect(
            edited.standardError
                == "liftledger: note: 2026-10-25 02:30 comes twice in Europe/Berlin, as the clocks go back; this is "
                + "the first, 2026-10-25T02:30:00+02:00; for the second, give 2026-10-25T02:30:00+01:00\n")
        let json = try jsonObject(try ok(["show", "1", "--json"]).lines[0])
        #expect(json["startedAt"] as? String == "2026-10-25T00:30:00.000000Z")
        #expect(try ok(["edit", "1", "--date", "2026-10-24 02:30"]).standardError.isEmpty)
        // A date alone keeps the time of day, here one the clocks pass twice that day: noted too (it was not).
        let dateAlone = try ok(["edit", "1", "--date", "2026-10-25"])
        #expect(
            dateAlone.standardError
                == "liftledger: note: 2026-10-25 02:30:00 comes twice in Europe/Berlin, as the clocks go back; this is "
                + "the first, 2026-10-25T02:30:00+02:00; for the second, give 2026-10-25T02:30:00+01:00\n")
        // The confirmation tells the two passes apart by their offsets: both read 02:30 without them.
        #expect(
            try ok(["edit", "1", "--date", "2026-10-25T02:30:00+01:00"]).standardOutput
                == "edited workout-1: starts 2026-10-25T02:30:00+01:00 (was 2026-10-25T02:30:00+02:00)\n")
    }

    /// `why` names the edit that moved a record's workout beside the set's events: the record is dated by the
    /// workout, where the set's event occurred on the day it was logged. One workout, squat 100 kg × 5, moved to
    /// 2025-01-06: its events are the set, the finish and the edit, in that order.
    @Test func whyNamesTheEditThatMovedARecordsWorkout() throws {
        try ok(["start"])
        try ok(["log", "squat", "100kg", "x", "5"])
        try ok(["finish"])
        try ok(["edit", "1", "--date", "2025-01-06"])
        let why = try jsonObject(try ok(["why", "squat", "heaviest", "--json"]).lines[0])
        let record = try #require((why["records"] as? [[String: Any]])?.first)
        let events = try #require(record["events"] as? [[String: Any]])
        #expect(events.map { $0["type"] as? String } == ["SetLogged", "WorkoutFinished", "WorkoutEdited"])
        #expect((record["record"] as? [String: Any])?["date"] as? String == "2025-01-06")
        #expect(try ok(["why", "squat", "heaviest"]).lines.contains { $0.contains(": WorkoutEdited in workout-1,") })
    }

    /// `today` says a routine due is done once a finished workout of it started that day, where it said to start it
    /// again, and names the day's other workouts; its JSON lists them all. A split of Push alone makes Push due every
    /// day from today.
    @Test func todaySaysARoutineDoneIsDone() throws {
        try ok(["profile", "set", "--time-zone", "UTC"])
        try ok(["routine", "add", "Push", "bench press"])
        try ok(["schedule", "set", "--split", "Push"])
        #expect(try ok(["today"]).standardOutput.hasSuffix(": Push; start it with liftledger start Push\n"))
        // A day still to come is not to be started now.
        let tomorrow = ISO8601DateFormatter.string(
            from: Date(timeIntervalSinceNow: 86_400), timeZone: TimeZone(identifier: "UTC")!,
            formatOptions: [.withFullDate])
        #expect(try ok(["today", "--date", tomorrow]).standardOutput.hasSuffix(": Push\n"))
        try ok(["start", "push"])
        // In progress, where it said to start it again, which `start` then refused.
        #expect(try ok(["today"]).standardOutput.hasSuffix(": Push; in progress (workout-1)\n"))
        try ok(["log", "bench press", "80kg", "x", "5"])
        try ok(["finish"])
        #expect(try ok(["today"]).standardOutput.hasSuffix(": Push; done (workout-1)\n"))
        let json = try jsonObject(try ok(["today", "--json"]).lines[0])
        #expect(json["workouts"] as? [String] == ["workout-1"] && json["routine"] as? String == "Push")
        // Another workout that day is named beside it; a past day's due routine not done is not to be started now,
        // and a rest day says what was trained on it. Before the split was set, the default plan was in force: Pull
        // on Wednesdays, rest on Sundays.
        try ok(["start", "--name", "Extra"])
        try ok(["log", "squat", "100kg", "x", "5"])
        try ok(["finish"])
        #expect(try ok(["today"]).standardOutput.hasSuffix(": Push; done (workout-1); trained workout-2 (Extra)\n"))
        try ok(["edit", "2", "--date", "2025-11-19"])
        #expect(
            try ok(["today", "--date", "2025-11-19"]).standardOutput
                == "Wednesday 2025-11-19: Pull; not done; trained workout-2 (Extra)\n")
        try ok(["edit", "2", "--date", "2025-11-23"])
        #expect(
            try ok(["today", "--date", "2025-11-23"]).standardOutput
                == "Sunday 2025-11-23: rest day; trained workout-2 (Extra)\n")
    }

    /// A dry run lists, for people, the first 50 differences of each read model and counts the rest; `--json` lists
    /// every one. A new start of the week moves nearly every weekly counter of a year of imported training.
    @Test func aDryRunListsTheFirstDifferencesOfEachReadModelForPeople() throws {
        try ok(["import", repositoryRoot + "/Fixtures/exports/strong-2026.csv", "--unit", "kg"])
        let every = try ok(["rules", "set", "week.start", "sunday", "--dry-run", "--json"]).lines.map(jsonObject)
        var byReadModel: [String: Int] = [:]
        for change in every { byReadModel[change["readModel"] as! String, default: 0] += 1 }
        let weeks = try #require(byReadModel["weeks"])
        #expect(weeks > 50)
        let text = try ok(["rules", "set", "week.start", "sunday", "--dry-run"]).lines
        #expect(text.filter { $0.hasPrefix("weeks ") }.count == 50)
        #expect(text.contains("weeks: \(weeks - 50) more (--json lists every difference)"))
        #expect(
            text.last
                == "\(every.count) differences in records, streaks and weekly counters if week.start were sunday; the "
                + "rule was not recorded")
    }

    /// `progress --last N` lists the last N sessions; the estimate's change is still the first session's to the last's.
    /// By hand (Epley, 1RM = w × (1 + r / 30)): 100 × 5 is 116.67 kg, 110 × 5 is 128.33, 120 × 5 is 140: a change of
    /// 23.33 kg.
    @Test func progressListsTheLastSessionsAndKeepsTheWholeChange() throws {
        for weight in ["100kg", "110kg", "120kg"] {
            try ok(["start"])
            try ok(["log", "squat", weight, "x", "5"])
            try ok(["finish"])
        }
        let json = try jsonObject(try ok(["progress", "squat", "--last", "2", "--json"]).lines[0])
        let sessions = try #require(json["sessions"] as? [[String: Any]])
        #expect(sessions.map { $0["e1rmKilograms"] as? String } == ["128.33", "140"])
        #expect(json["e1rmChangeKilograms"] as? String == "23.33")
        let text = try ok(["progress", "squat", "--last", "2"]).lines
        #expect(text.first == "Barbell Squat: 3 sessions, the last 2 shown")
        #expect(text.count == 1 + 1 + 2 + 1, "\(text)")  // the title, the header, two sessions, the change
        #expect(try liftledger(["progress", "squat", "--last", "0"], journal: journal).status == 64)
    }

    /// A routine of several words is started by its name unquoted, as `routine show` takes it: `start push day` was
    /// refused as an unexpected argument.
    @Test func aRoutineOfSeveralWordsStartsUnquoted() throws {
        try ok(["routine", "add", "Push Day", "bench press"])
        #expect(try ok(["start", "push", "day"]).standardOutput == "started workout-1\n")
        let status = try jsonObject(try ok(["status", "--json"]).lines[0])
        #expect(status["name"] as? String == "Push Day")
        #expect((status["exercises"] as? [[String: Any]])?.count == 1)
    }

    /// A weight typed in the other unit is logged as given, with a note and the correction: 185 after 82.5 kg is 2.2
    /// times (see CommandTests' hand-worked figures).
    @Test func aWeightTypedInTheOtherUnitGetsANote() throws {
        try ok(["profile", "set", "--unit", "kg"])
        try ok(["start"])
        #expect(try ok(["log", "bench press", "82.5", "x", "8"]).lines.count == 1)
        let logged = try ok(["log", "bench press", "185", "x", "5"]).lines
        #expect(
            logged.count == 2
                && logged[1] == "note: 185 kg is 2.2 times the 82.5 kg before it, as pounds read as kilograms are; if "
                    + "you meant 185 lb, correct it: liftledger correct 2 --weight 185lb",
            "\(logged)")
        try ok(["correct", "2", "--weight", "185lb"])
    }

    /// A command takes an exercise's plural for it (`deadlifts`), where it refused it; `prs` too.
    @Test func aPluralNamesItsExercise() throws {
        try ok(["start"])
        let deadlift = try catalogName("deadlift")
        #expect(
            try ok(["log", "deadlifts", "100", "x", "5"]).standardOutput.hasPrefix("set 1: \(deadlift) 100 kg × 5"))
        try ok(["finish"])
        #expect(try ok(["prs", "deadlifts"]).lines.first == deadlift)
    }

    /// A date of the form that is no day of the calendar is named so, with the days its month has (by hand: February
    /// 2026 has 28, February 2024, a leap year, 29, April 30), or the months a year has; nothing is written. A
    /// `profile set` with nothing to set is refused as the command line is read (64), as `schedule set` is. Year 0
    /// is no year.
    @Test func aDateThatIsNoDayIsNamedSo() throws {
        let cases: [([String], String)] = [
            (["today", "--date", "2026-02-30"], "2026-02 has 28 days; give a day from 01 to 28"),
            (
                ["schedule", "set", "--split", "Legs", "--start", "2024-02-30"],
                "2024-02 has 29 days; give a day from 01 to 29"
            ),
            (["history", "--to", "2026-04-31"], "2026-04 has 30 days; give a day from 01 to 30"),
            (["history", "--from", "2026-13-01"], "has no month 13; give a month from 01 to 12"),
            (["today", "--date", "26-02-01"], #"cannot read --date "26-02-01"; give YYYY-MM-DD"#),
            // Digits of another script are no date's, not a day past the month's end.
            (["today", "--date", "2026-02-１５"], #"cannot read --date "2026-02-１５"; give YYYY-MM-DD"#),
            // Year 0, which no calendar shown has: a schedule from it was written, and weeks printed as `00-1-12-06`.
            (
                ["schedule", "set", "--split", "Legs", "--start", "0000-01-01"],
                "--start 0000-01-01 has no year 0; give a year from 0001 to 9999"
            ),
            (["calendar", "0000-01"], #"cannot read the month "0000-01"; give YYYY-MM"#),
            (["balance", "--as-of", "0000-01-01"], "a date such as 2026-06-30, or an RFC 3339 instant"),
        ]
        let before = try ok(["events", "--json"]).standardOutput
        for (arguments, message) in cases {
            let refused = try liftledger(arguments, journal: journal)
            #expect(refused.status == 1 && refused.standardError.hasSuffix(message + "\n"), "\(refused.standardError)")
        }
        let nothing = try liftledger(["profile", "set"], journal: journal)
        #expect(nothing.status == 64 && nothing.standardError.contains("nothing to change"), "\(nothing.standardError)")
        #expect(try ok(["events", "--json"]).standardOutput == before)
    }

    @Test func balanceShowsItsFiguresAsTheRulesWeighThem() throws {
        // Three sets of bench press (chest primary; shoulders and triceps secondary), 100 lb × 5 each:
        // 500 lb = 226.796185 kg a set. Secondary muscles at 0.25: triceps 0.75 sets and 170.09713875 kg, which is
        // 170.097139 to the milligram; chest 3 sets and 680.388555 kg.
        try ok(["start"])
        for _ in 1...3 { try ok(["log", "bench press", "100lb", "x", "5"]) }
        try ok(["finish"])
        try ok(["rules", "set", "balance.secondary", "0.25"])
        let text = try ok(["balance", "--weeks", "1"]).lines
        let triceps = try #require(text.first { $0.hasPrefix("triceps") })
        #expect(triceps.split(separator: " ").dropFirst().first == "0.75", "\(triceps)")
        let balance = try jsonObject(try ok(["balance", "--weeks", "1", "--json"]).lines[0])
        let muscles = try #require(balance["muscles"] as? [[String: Any]])
        func figures(_ name: String) -> (sets: Double?, volume: Double?) {
            let muscle = muscles.first { $0["muscle"] as? String == name }
            return (muscle?["sets"] as? Double, muscle?["volumeKilograms"] as? Double)
        }
        #expect(figures("triceps").sets == 0.75 && figures("triceps").volume == 170.097139)
        #expect(figures("chest").sets == 3 && figures("chest").volume == 680.388555)
    }

    @Test func balanceVolumesRoundHalfToEven() throws {
        // 100 lb × 1 = 45.359237 kg; a secondary muscle's half is 22.6796185 kg, 22.679618 to the milligram, half to
        // even (half away from zero would make it 22.679619).
        try ok(["start"])
        try ok(["log", "bench press", "100lb", "x", "1"])
        try ok(["finish"])
        let balance = try jsonObject(try ok(["balance", "--weeks", "1", "--json"]).lines[0])
        let triceps = (balance["muscles"] as? [[String: Any]])?.first { $0["muscle"] as? String == "triceps" }
        #expect(triceps?["volumeKilograms"] as? Double == 22.679618)
        let csv = try ok(["balance", "--weeks", "1", "--csv"]).lines
        #expect(csv.contains("triceps,0.5,22.679618,false"), "\(csv)")
    }

    @Test func textGivesMassesInTheProfilesUnitAndJSONInKilograms() throws {
        // By hand: bench press 225 lb × 5, 235 lb × 3, 240 lb × 3. Session volume 1125 + 705 + 720 = 2550 lb; Epley
        // e1RM 240 × (1 + 3/30) = 264 lb, the one before 225 × (1 + 5/30) = 262.5 lb; heaviest 240 lb (was 235). In
        // kilograms each set's volume is rounded to the milligram (510.291416, 319.782621, 326.586506: Python's
        // fractions and decimal), 1156.660543 kg in all, which the text rounds back to 2550 lb.
        try ok(["profile", "set", "--unit", "lb", "--time-zone", "UTC"])
        try ok(["start"])
        for (weight, reps) in [("225", "5"), ("235", "3"), ("240", "3")] {
            try ok(["log", "bench press", weight, "x", reps])
        }
        try ok(["finish"])
        var outputs: [String] = []
        func text(_ arguments: [String]) throws -> [String] {
            let lines = try ok(arguments).lines
            outputs += lines
            return lines
        }
        let date = try #require(try text(["history"]).last?.split(separator: " ").first).description
        let records = try text(["prs", "bench press"])
        #expect(records.contains { $0.contains("heaviest") && $0.contains("240 lb") && $0.hasSuffix("(was 235 lb)") })
        #expect(records.contains { $0.contains("e1rm") && $0.contains("264 lb") && $0.hasSuffix("(was 262.5 lb)") })
        #expect(records.contains { $0.contains("session-volume") && $0.contains("2550 lb") }, "\(records)")
        let history = try text(["history"])
        #expect(history[0].contains("volume lb") && history[1].contains(" 2550 "), "\(history)")
        let progress = try text(["progress", "bench press"])
        #expect(progress[1].contains("e1RM lb") && progress[1].contains("top lb"), "\(progress)")
        // 3 sets, 5 + 3 + 3 = 11 reps.
        #expect(progress[2] == "\(date)  workout-1   264       240       2550       3     11", "\(progress)")
        #expect(progress[3] == "estimated 1RM change: 0 lb")
        // Chest is the primary muscle (1 per set), triceps a secondary one (0.5 by default): 2550 and 1275 lb.
        let balance = try text(["balance", "--weeks", "1"])
        #expect(balance[1].contains("volume lb"))
        #expect(balance.contains { $0.hasPrefix("chest") && $0.split(separator: " ").last == "2550" }, "\(balance)")
        #expect(balance.contains { $0.hasPrefix("triceps") && $0.split(separator: " ").last == "1275" })
        #expect(try text(["show", "1"])[1].hasSuffix("3 sets, 2550 lb volume"))
        #expect(try text(["why", "bench press", "e1rm"])[0].hasSuffix("e1rm (lb, by epley): 2 records, oldest first"))
        // Every text output so far gives masses in pounds: no kilograms anywhere (every set was logged in pounds).
        #expect(!outputs.contains { $0.contains(" kg") }, "\(outputs)")
        // A rule's dry run compares exact figures, in kilograms, estimates to the milligram, and gives them in pounds
        // first: Brzycki's × 36/34 on 108,862,169 mg (240 lb to the milligram) is 115,265,826 mg, 254.1176 lb;
        // Epley's × 33/30, 119,748,385.9 mg, 264.0000007 lb (Python's fractions, 0.45359237 kg a pound).
        let bench = try exerciseID("bench press")
        let dryRun = try ok(["rules", "set", "e1rm.formula", "brzycki", "--dry-run"]).lines
        #expect(
            dryRun.contains("records \(bench) e1rm: 264 lb (119.748386 kg) -> 254.12 lb (115.265826 kg)"),
            "\(dryRun)")
        // JSON keeps kilograms whatever the unit.
        let json = try jsonObject(try ok(["prs", "bench press", "--json"]).lines[0])
        let session = try #require(
            (json["records"] as? [[String: Any]])?.first { $0["kind"] as? String == "session-volume" })
        #expect(session["value"] as? String == "1156.660543" && session["unit"] as? String == "kg")
        // Back in kilograms, the text says so: 1156.660543 kg to two decimals.
        try ok(["profile", "set", "--unit", "kg"])
        #expect(try ok(["prs", "bench press"]).lines.contains { $0.contains("1156.66 kg") })
    }

    @Test func insightsGiveVolumesInTheProfilesUnitAndJSONInKilograms() throws {
        // One workout of 100 lb × 10 (1000 lb, 453.59237 kg) dated two weeks back: the week it falls in is one of the
        // last four, whose volumes the weekly-volume insight lists, rounded, with the exact figures behind it.
        try ok(["profile", "set", "--unit", "lb", "--time-zone", "UTC"])
        try ok(["start"])
        try ok(["log", "bench press", "100", "x", "10"])
        try ok(["finish"])
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let twoWeeksBack = calendar.date(byAdding: .day, value: -14, to: Date())!
        let day = calendar.dateComponents([.year, .month, .day], from: twoWeeksBack)
        try ok([
            "edit", "1", "--date", String(format: "%04d-%02d-%02dT12:00:00Z", day.year!, day.month!, day.day!),
        ])
        let text = try ok(["insights"]).lines
        let volume = try #require(text.firstIndex { $0.hasPrefix("weekly-volume: ") }, "\(text)")
        #expect(text[volume].contains(" 1000 lb") && !text[volume].contains("kg"), "\(text[volume])")
        #expect(text[volume + 1].contains("volume 1000 lb"), "\(text[volume + 1])")
        let json = try ok(["insights", "--json"]).lines.map(jsonObject).first {
            $0["kind"] as? String == "weekly-volume"
        }
        #expect((json?["message"] as? String)?.contains(" 453.59237 kg") == false)
        #expect((json?["message"] as? String)?.contains(" 454 kg") == true, "\(String(describing: json))")
        let evidence = json?["evidence"] as? [[String: Any]]
        #expect(
            evidence?.contains { $0["value"] as? String == "453.59237" && $0["label"] as? String == "volume" } == true)
    }

    @Test func aSessionRecordNamesTheLastEventThatChangedTheSession() throws {
        // By hand: two sets of 100 kg × 5 make a session of 1000 kg as of the finish (position F). A set logged
        // into the workout later (L) makes it 1500 kg: the record stands as of L, not F, and as of L - 1 it was 1000.
        // Removing that set (R) brings the session back to 1000 kg, as of R: the removal is no set's values, but it
        // changed the session.
        try ok(["profile", "set", "--time-zone", "UTC"])
        try ok(["start"])
        for _ in 1...2 { try ok(["log", "bench press", "100kg", "x", "5"]) }
        try ok(["finish"])
        let finish = try head()
        try ok(["log", "bench press", "100kg", "x", "5", "--workout", "1"])
        let late = try head()
        func sessionRecord(_ asOf: Int? = nil) throws -> [String: Any]? {
            let json = try jsonObject(
                try ok(["prs", "bench press", "--json"] + (asOf.map { ["--as-of", String($0)] } ?? [])).lines[0])
            return (json["records"] as? [[String: Any]])?.first { $0["kind"] as? String == "session-volume" }
        }
        #expect(try sessionRecord()?["value"] as? String == "1500" && sessionRecord()?["position"] as? Int == late)
        #expect(try sessionRecord(late)?["value"] as? String == "1500")
        #expect(try sessionRecord(late - 1)?["value"] as? String == "1000")
        let why = try ok(["why", "bench press", "session-volume", "--json"]).lines[0]
        let events = (try jsonObject(why)["records"] as? [[String: Any]])?.last?["events"] as? [[String: Any]]
        #expect(events?.compactMap { $0["position"] as? Int } == [late, finish], "\(why)")
        try ok(["remove-set", "3", "--workout", "1"])
        let removal = try head()
        #expect(try sessionRecord()?["value"] as? String == "1000" && sessionRecord()?["position"] as? Int == removal)
        #expect(try sessionRecord(removal - 1)?["value"] as? String == "1500")
        // Set 2 corrected into a squat (M): the bench press session is set 1 alone, 500 kg, as of M.
        try ok(["correct", "2", "--workout", "1", "--exercise", "squat"])
        let moved = try head()
        #expect(try sessionRecord()?["value"] as? String == "500" && sessionRecord()?["position"] as? Int == moved)
        #expect(try sessionRecord(moved - 1)?["value"] as? String == "1000")
    }

    @Test func aStaleSessionWithNoSetsOffersOnlyToDiscardIt() throws {
        try ok(["start"])
        func choices() throws -> [String]? {
            let status = try jsonObject(try ok(["status", "--json", "--now", "2100-01-01T00:00:00Z"]).lines[0])
            #expect(status["stale"] as? Bool == true)
            return status["choices"] as? [String]
        }
        #expect(try choices() == ["discard"])
        let finish = try liftledger(["finish"], journal: journal)
        #expect(finish.status == 1 && finish.standardError.contains("has no sets; log a set first, or discard it"))
        try ok(["log", "squat", "100kg", "x", "5"])
        #expect(try choices() == ["finish", "discard"])
    }

    @Test func lastTimeKeepsKindsRecordsNameTheirPreviousAndAnEmptyNoteIsNone() throws {
        try ok(["start"])
        try ok(["log", "squat", "60kg", "x", "5", "--type", "warmup"])
        try ok(["log", "squat", "100kg", "x", "5", "--note", ""])
        try ok(["finish"])
        try ok(["start"])
        try ok(["log", "squat", "110kg", "x", "5"])
        #expect(try ok(["status"]).standardOutput.contains("last time (") == true)
        let lastTime = try #require(try ok(["status"]).lines.first { $0.contains("last time (") })
        #expect(lastTime.hasSuffix("): 60 kg × 5  warmup, 100 kg × 5"), "\(lastTime)")
        try ok(["finish"])
        // An empty note is no note.
        let exercises = try jsonObject(try ok(["show", "1", "--json"]).lines[0])["exercises"] as? [[String: Any]]
        let sets = try #require(exercises?.first?["sets"] as? [[String: Any]])
        #expect(sets.count == 2 && sets[1]["note"] is NSNull)
        // The heaviest record, 110 kg, names the 100 kg before it, which names none itself.
        let answer = try jsonObject(try ok(["prs", "squat", "--json"]).lines[0])
        let records = try #require(answer["records"] as? [[String: Any]])
        let heaviest = try #require(records.first { $0["kind"] as? String == "heaviest" })
        let previous = try #require(heaviest["previous"] as? [String: Any])
        #expect(heaviest["value"] as? String == "110" && previous["value"] as? String == "100")
        #expect(previous.keys.contains("previous") == false)
        // progress --csv gives each session's working sets, reps, time and distance, as --json does: workout 1's one
        // working set of 5, of no time or distance.
        let csv = try ok(["progress", "squat", "--csv"]).lines
        #expect(csv.first?.hasSuffix(",working_sets,reps,seconds,distance_m") == true)
        #expect(csv.dropFirst().first?.hasSuffix(",1,5,0,0") == true)
    }

    @Test func customExercisesProfileAndEdits() throws {
        try ok(["exercise", "add", "Zercher", "Carry", "--primary", "quadriceps,abdominals", "--equipment", "barbell"])
        let custom = try jsonObject(try ok(["exercise", "show", "zercher carry", "--json"]).lines[0])
        #expect(custom["custom"] as? Bool == true && custom["id"] as? String == "custom-zercher-carry")
        let bad = try liftledger(["exercise", "add", "Thing", "--primary", "elbows"], journal: journal)
        #expect(bad.status != 0 && bad.standardError.contains("unknown muscle \"elbows\"; use --primary with"))
        // A wrong secondary muscle names its own option.
        let badSecondary = try liftledger(
            ["exercise", "add", "Thing", "--primary", "chest", "--secondary", "elbows"], journal: journal)
        #expect(badSecondary.standardError.contains("unknown muscle \"elbows\"; use --secondary with"))

        try ok(["profile", "set", "--unit", "lb", "--time-zone", "America/New_York", "--body-weight", "180"])
        let profile = try jsonObject(try ok(["profile", "show", "--json"]).lines[0])
        #expect(profile["unit"] as? String == "lb" && profile["timeZone"] as? String == "America/New_York")
        // The body weight's number alone is read in the unit the same command sets (it was read in the unit before,
        // kilograms: 180 kg): 180 lb is 180 × 0.45359237 = 81.6466266 kg.
        let body = (profile["bodyWeight"] as? [String: Any])?["weight"] as? [String: Any]
        #expect(body?["unit"] as? String == "lb" && body?["kilograms"] as? String == "81.6466266")
        // Out of range, in both units: 20 kg / 0.45359237 = 44.09 lb, 400 kg = 881.85 lb, each to one decimal (by hand).
        let heavy = try liftledger(["profile", "set", "--body-weight", "1001kg"], journal: journal)
        #expect(heavy.standardError.contains("is not a weight from 20 to 400 kg (44.1 to 881.8 lb)"))

        try ok(["start"])
        try ok(["log", "zercher carry", "135", "x", "20"])
        try ok(["log", "zercher carry", "155", "x", "20"])
        // Each change names the workout it went to, and the set as it is and was, in the profile's unit.
        let carry = try catalogName("zercher carry")
        #expect(
            try ok(["correct", "2", "--reps", "15"]).standardOutput
                == "corrected set 2 of workout-1: \(carry) 155 lb × 15 (was \(carry) 155 lb × 20)\n")
        // A note given, then cleared.
        try ok(["correct", "2", "--note", "chalk"])
        try ok(["correct", "2", "--note", ""])
        let corrected = try liftledger(["events", "--json", "--stream", "workout-1"], journal: journal).lines.suffix(2)
        let notes = try corrected.map { line -> Any? in
            let data = try #require(try jsonObject(line)["data"] as? [String: Any])
            return data["note"]
        }
        #expect(notes.first as? String == "chalk" && notes.last.map { $0 == nil } == true)
        #expect(try ok(["remove-set", "1"]).standardOutput == "removed set 1 of workout-1\n")
        try ok(["finish"])
        func startedAt() throws -> String {
            try jsonObject(try ok(["show", "1", "--json"]).lines[0])["startedAt"] as! String
        }
        let before = try startedAt()
        let edited = try ok(["edit", "1", "--date", "2026-11-10", "--note", "moved"]).standardOutput
        #expect(
            edited.hasPrefix("edited workout-1: starts 2026-11-10 ") && edited.contains(" (was ")
                && edited.hasSuffix("; note moved\n"), "\(edited)")
        // The same local time of day in New York, to the microsecond, on the 10th: each instant shifted by the zone's
        // offset from UTC at that instant, then split into days since 1970 and the time into the day.
        func local(_ text: String) throws -> (day: Int64, time: Int64) {
            let instant = try #require(Self.microseconds(text))
            let zone = try #require(TimeZone(identifier: "America/New_York"))
            let offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant) / 1_000_000))
            let shifted = instant + Int64(offset) * 1_000_000
            return (shifted / 86_400_000_000, shifted % 86_400_000_000)
        }
        let (moved, original) = (try local(try startedAt()), try local(before))
        #expect(moved.time == original.time)
        #expect(moved.day == (try #require(Self.microseconds("2026-11-10T00:00:00Z"))) / 86_400_000_000)
        try ok(["delete", "1"])
        let types = try liftledger(["events", "--json", "--stream", "workout-1"], journal: journal).lines.map {
            try jsonObject($0)["type"] as! String
        }
        #expect(
            types.suffix(5) == ["SetCorrected", "SetRemoved", "WorkoutFinished", "WorkoutEdited", "WorkoutDeleted"])
        // Deleted again, it is as asked: said on standard output, exit 0, nothing written, as for pause when paused,
        // resume when running and add of an exercise there already (each exited 1 as an error).
        let count = try liftledger(["events", "--json"], journal: journal).lines.count
        let again = try liftledger(["delete", "1"], journal: journal)
        #expect(
            again.status == 0 && again.standardOutput == "workout-1 is already deleted; nothing was written\n",
            "\(again)")
        try ok(["start"])
        try ok(["log", "squat", "100kg", "x", "5"])
        let started = try liftledger(["events", "--json"], journal: journal).lines.count
        #expect(started > count)
        for (command, said) in [
            (["resume"], "the workout is not paused: its clock runs"),
            (["add", "squat"], "Barbell Squat is already in the workout"),
        ] {
            let result = try liftledger(command, journal: journal)
            #expect(result.status == 0 && result.standardOutput == said + "; nothing was written\n", "\(result)")
        }
        try ok(["pause"])
        let paused = try liftledger(["pause"], journal: journal)
        #expect(paused.status == 0 && paused.standardOutput == "the workout is already paused; nothing was written\n")
        #expect(try liftledger(["events", "--json"], journal: journal).lines.count == started + 1)
    }

    /// JSON text with sorted keys: a comparison that does not depend on how Foundation boxes numbers.
    private func canonical(_ object: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    /// On a terminal, a name's or a note's control characters and reordering marks are shown escaped, as JSON escapes
    /// them, not acted on: an imported note's `ESC [ 2 J` cleared the screen. Through a pipe the text is as stored, and
    /// on a terminal the JSON is the same JSON. An error's message is escaped wherever it goes. `script` runs the
    /// command on a pseudo-terminal (which writes each line feed as CR LF), its errors and progress bars elsewhere.
    @Test func controlCharactersInNamesAndNotesAreShownNotActedOnByATerminal() throws {
        let (name, note) = ("Leg \u{202E}day", "red \u{1B}[31mX\u{1B}[0m\rok\tTab")
        try ok(["start", "--name", name])
        try ok(["log", "squat", "100kg", "x", "5"])
        try ok(["finish", "--note", note])
        func onATerminal(_ arguments: [String]) throws -> String {
            let command = ([BuiltProgram.liftledger] + arguments + ["--journal", journal]).map { "'\($0)'" }
            let result = try run(
                "/usr/bin/script", ["-q", "-e", "-c", command.joined(separator: " ") + " 2>/dev/null", "/dev/null"])
            #expect(result.status == 0, "\(result.standardError)")
            return result.standardOutput.replacingOccurrences(of: "\r\n", with: "\n")
        }
        let shown = try onATerminal(["show", "1"])
        #expect(shown.hasPrefix("Leg \\u202eday (workout-1)"), "\(shown)")
        #expect(shown.contains("note: red \\u001b[31mX\\u001b[0m\\u000dok\tTab\n"), "\(shown)")
        #expect(!shown.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E || $0 == "\r" })
        let piped = try ok(["show", "1"]).standardOutput
        #expect(piped.hasPrefix("\(name) (workout-1)") && piped.contains("note: \(note)\n"), "\(piped)")
        // A table's columns are padded as the name is shown: its time stayed six columns right of the heading's.
        try ok(["start", "--name", "Push"])
        try ok(["log", "squat", "100kg", "x", "5"])
        try ok(["finish"])
        let history = try onATerminal(["history"]).split(separator: "\n").map(String.init)
        let timeColumn = try #require(history.first?.range(of: "time")).lowerBound.utf16Offset(in: history[0])
        #expect(
            history.count == 3
                && history.dropFirst().allSatisfy { row in
                    let start = row.index(row.startIndex, offsetBy: timeColumn)
                    return row[row.index(before: start)] == " " && row[start].isNumber
                }, "\(history)")
        // An export to a terminal, to standard output or named as a file, the same.
        for arguments in [
            ["export", "--format", "strong-csv"], ["export", "--format", "jsonl", "--output", "/dev/tty"],
        ] {
            let exported = try onATerminal(arguments)
            #expect(exported.contains("Leg \\u202eday") && exported.contains("\\u001b[31mX"), "\(exported)")
            #expect(!exported.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E }, "\(exported)")
        }
        let json = try jsonObject(try onATerminal(["show", "1", "--json"]).trimmingCharacters(in: .newlines))
        #expect(json["name"] as? String == name && json["note"] as? String == note)
        let refused = try liftledger(["prs", "sq\u{1B}[2J"], journal: journal)
        #expect(refused.status == 1)
        #expect(
            refused.standardError
                == "liftledger: error: unknown exercise \"sq\\u001b[2J\"; see liftledger exercise list\n")
    }

    /// With no zone in the profile, a workout's day is the one `date` gives under the same `TZ`: the C library's
    /// reading is the oracle. Foundation alone read `JST` as Tokyo (`date`: UTC), `UTC-5:30` five and a half hours
    /// west (`date`: east), and `:Asia/Tokyo` and `IST-5:30` not at all; an empty `TZ`, one naming no zone, and POSIX
    /// summer-time rules were read as /etc/localtime's zone (the C library: UTC, and the rules). 20:00Z falls on the
    /// next day east of UTC+4, and 03:00Z on the day before west of UTC−3; in November, standard time in both
    /// hemispheres' northern rules.
    @Test(arguments: [
        "Asia/Tokyo", ":Asia/Tokyo", "right/Asia/Tokyo", "JST-9", "JST", "CEST", "UTC-5:30", "IST-5:30", "UTC+13",
        "UTC-3", "EST5EDT", "Pacific/Kiritimati", "<+14>-14", "", "Foo/Bar", "EST5EDT,M3.2.0,M11.1.0",
        "CET-1CEST,M3.5.0,M10.5.0/3",
    ])
    func aWorkoutsDayIsTheOneDateGivesUnderTheSameTZ(zone: String) throws {
        let instants = ["2026-11-20T20:00:00Z", "2026-11-20T03:00:00Z"]
        for (index, instant) in instants.enumerated() {
            for arguments in [["start"], ["log", "bench", "press", "100kg", "x", "5"], ["finish"]] { try ok(arguments) }
            try ok(["edit", String(index + 1), "--date", instant])
        }
        let history = try run(
            BuiltProgram.liftledger, ["history", "--json", "--journal", journal], environment: ["TZ": zone])
        #expect(history.status == 0, "\(history.standardError)")
        let days = Dictionary(
            try history.lines.map(jsonObject).map { ($0["workoutId"] as? String ?? "", $0["date"] as? String ?? "") },
            uniquingKeysWith: { first, _ in first })
        for (index, instant) in instants.enumerated() {
            let date = try run("/bin/date", ["-d", instant, "+%F"], environment: ["TZ": zone])
            #expect(days["workout-\(index + 1)"] == date.lines.first, "TZ=\(zone.debugDescription) at \(instant)")
        }
    }

    /// `profile show` says how it read a `TZ` that names no zone as it stands, and what is in force: UTC for one the C
    /// library reads as UTC, and for an offset no zone has (the C library's -2000), the standard time of summer-time
    /// rules.
    @Test(arguments: [
        (
            "JST",
            #"time zone    Etc/UTC (the system's: TZ="JST" names no zone: UTC, as the C library reads it; none set)"#
        ),
        ("XXX20", #"time zone    Etc/UTC (the system's: TZ="XXX20" is an offset no zone has: read as UTC; none set)"#),
        (
            "EST5EDT,M3.2.0,M11.1.0",
            #"time zone    Etc/GMT+5 (the system's: TZ="EST5EDT,M3.2.0,M11.1.0" read as its standard time, "#
                + #"without its summer time; none set)"#
        ),
        ("Asia/Tokyo", "time zone    Asia/Tokyo (the system's; none set)"),
    ])
    func profileShowSaysHowItReadATZThatNamesNoZone(zone: String, line: String) throws {
        let shown = try run(
            BuiltProgram.liftledger, ["profile", "show", "--journal", journal], environment: ["TZ": zone])
        #expect(shown.status == 0, "\(shown.standardError)")
        #expect(shown.lines.contains(line), "\(shown.lines)")
    }

    private static func microseconds(_ text: String) -> Int64? {
        Timestamp(rfc3339: text)?.microsecondsSinceEpoch
    }
}
