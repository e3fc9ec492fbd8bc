import Foundation
import LMDB
import TestSupport
import Testing

/// The real exports in Fixtures/exports, imported through the CLI, against tools/import-expectations.py: an
/// independent reader written from docs/IMPORT.md alone, in Python.
struct ImportCLITests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    static let python = "/usr/bin/python3"
    static let checker = repositoryRoot + "/tools/import-expectations.py"

    @Test(
        arguments: [
            ("strong-2026.csv", "kg"), ("strong-zh-2020-2023.csv", "lb"), ("hevy-kg-2022-2026.csv", nil),
            ("fitnotes-2022-2025.csv", nil),
        ] as [(String, String?)])
    func realExportsImportAsTheIndependentReaderExpects(_ file: String, _ unit: String?) throws {
        let journal = directory.child("journal")
        let path = repositoryRoot + "/Fixtures/exports/" + file
        #expect(try liftledger(["init"], journal: journal).status == 0)
        #expect(try liftledger(["profile", "set", "--time-zone", "Europe/Berlin"], journal: journal).status == 0)
        let unitArguments = unit.map { ["--unit", $0] } ?? []
        let imported = try liftledger(["import", path, "--json"] + unitArguments, journal: journal)
        #expect(imported.status == 0, "\(imported.standardError)")
        let report = try object(imported.lines[0])
        let checked = try run(Self.python, [Self.checker, path] + unitArguments)
        #expect(checked.status == 0, "\(checked.standardError)")
        let expected = try object(checked.standardOutput)

        #expect(report["workouts"] as? Int == expected["workouts"] as? Int)
        #expect(report["workoutsAdded"] as? Int == expected["workouts"] as? Int)
        #expect(report["sets"] as? Int == expected["sets"] as? Int)
        #expect(report["warmupSets"] as? Int == expected["warmupSets"] as? Int)
        #expect((report["skipped"] as? [Any])?.isEmpty == true, "no row left out")
        let volume = try #require(Double(report["volumeKilograms"] as? String ?? ""))
        #expect(abs(volume - (expected["volumeKilograms"] as? Double ?? -1)) <= 0.01)
        // The same figures from the read models: every workout in the history, every set counted.
        let history = try liftledger(["history", "--json"], journal: journal).lines.map(object)
        #expect(history.count == expected["workouts"] as? Int)
        #expect(history.reduce(0) { $0 + ($1["sets"] as? Int ?? 0) } == expected["sets"] as? Int)

        // Records: for each catalog exercise, the best of the app names mapped to it, by the independent reader.
        let mapping = try #require(report["exercises"] as? [[String: Any]])
        let perName = try #require(expected["exercises"] as? [String: [String: Any]])
        var heaviest: [String: Double] = [:]
        var epley: [String: Double] = [:]
        for entry in mapping {
            let name = try #require(entry["appName"] as? String)
            let id = try #require(entry["exerciseId"] as? String)
            let assisted = (entry["name"] as? String ?? "").lowercased().contains("assisted")
            if let value = perName[name]?["heaviestKilograms"] as? Double {
                heaviest[id] = heaviest[id].map { assisted ? min($0, value) : max($0, value) } ?? value
            }
            if let value = perName[name]?["bestEpleyKilograms"] as? Double { epley[id] = max(epley[id] ?? 0, value) }
        }
        let records = try liftledger(["prs", "--json"], journal: journal).lines.map(object)
        var withRecords: Set<String> = []
        for exercise in records {
            let id = try #require(exercise["exerciseId"] as? String)
            let kinds = Dictionary(
                uniqueKeysWithValues: (exercise["records"] as? [[String: Any]] ?? []).map {
                    ($0["kind"] as? String ?? "", Double($0["value"] as? String ?? "") ?? .nan)
                })
            #expect(abs((kinds["heaviest"] ?? 0) - (heaviest[id] ?? 0)) <= 0.01, "\(file) \(id) heaviest")
            #expect(abs((kinds["e1rm"] ?? 0) - (epley[id] ?? 0)) <= 0.01, "\(file) \(id) e1rm")
            if kinds["heaviest"] != nil || kinds["e1rm"] != nil { withRecords.insert(id) }
        }
        #expect(withRecords == Set(heaviest.keys).union(epley.keys), "the same exercises have records")
        #expect(withRecords.count > 10)
    }

    /// A copy of an export cut short at a line's end removes, on import, the sets its last workout lacks, as an
    /// export edited in the app does: the report said "1 corrected" and no more, in a dry run too. It now names each
    /// workout corrected and what goes. Expected from the CSV itself (Strong's file has one row per set, and the
    /// workout's date and time in its first column): the workouts whose rows the cut copy has fewer of, the rows
    /// missing, and the exercises none of its rows names any more.
    @Test func aCutCopyNamesTheSetsItsImportRemoves() throws {
        let journal = directory.child("journal")
        let path = repositoryRoot + "/Fixtures/exports/strong-2026.csv"
        #expect(try liftledger(["init"], journal: journal).status == 0)
        #expect(try liftledger(["import", path, "--unit", "kg"], journal: journal).status == 0)
        let rows = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").dropFirst().map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        let cut = Array(rows.prefix(99))
        let cutFile = directory.child("cut.csv")
        let header = "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,RPE"
        try ([header] + cut.map { $0.joined(separator: ",") }).joined(separator: "\n").appending("\n")
            .write(toFile: cutFile, atomically: true, encoding: .utf8)
        let lastDate = try #require(cut.last?.first)
        let removed = rows.count { $0[0] == lastDate } - cut.count { $0[0] == lastDate }
        let exercisesGone = Set(rows.filter { $0[0] == lastDate }.map { $0[3] })
            .subtracting(cut.filter { $0[0] == lastDate }.map { $0[3] }).count
        #expect(removed > 0 && exercisesGone > 0, "the cut falls inside a workout, after an exercise's first set")
        let dryRun = try liftledger(["import", cutFile, "--unit", "kg", "--dry-run", "--json"], journal: journal)
        let corrections = try #require(try object(dryRun.lines[0])["corrections"] as? [[String: Any]])
        #expect(corrections.count == 1)
        #expect(corrections.first?["setsRemoved"] as? Int == removed)
        #expect(corrections.first?["exercisesRemoved"] as? Int == exercisesGone)
        #expect(corrections.first?["setsAdded"] as? Int == 0 && corrections.first?["setsCorrected"] as? Int == 0)
        let text = try liftledger(["import", cutFile, "--unit", "kg"], journal: journal).standardOutput
        let workoutId = try #require(corrections.first?["workoutId"] as? String)
        let name = cut.last![1].trimmingCharacters(in: ["\""])
        #expect(
            text.contains(
                "\(workoutId) (\(lastDate.prefix(10)) \(name)): \(removed) sets removed, \(exercisesGone) exercise"),
            "\(text)")
    }

    /// Workouts deleted in LiftLedger stay deleted whatever a file says, and the report counts them: the Hevy export
    /// imported, workouts 2 and 3 deleted, then LiftLedger's own Strong export of it (taken before, so it holds them)
    /// imported back adds nothing (it added them again as new workouts when it looked among counted workouts alone),
    /// and the Hevy file again neither. Once workout 2 is restored, one is left deleted.
    @Test func workoutsDeletedInLiftLedgerStaySoAndTheReportCountsThem() throws {
        let journal = directory.child("deleted")
        #expect(try liftledger(["init"], journal: journal).status == 0)
        let hevy = repositoryRoot + "/Fixtures/exports/hevy-kg-2022-2026.csv"
        #expect(try liftledger(["import", hevy], journal: journal).status == 0)
        let export = directory.child("ours.csv")
        #expect(try liftledger(["export", "--format", "strong-csv", "--output", export], journal: journal).status == 0)
        for workout in ["2", "3"] { #expect(try liftledger(["delete", workout], journal: journal).status == 0) }
        func head() throws -> Int { try liftledger(["events", "--json"], journal: journal).lines.count }
        let before = try head()
        for arguments in [["import", export, "--unit", "kg", "--json"], ["import", hevy, "--json"]] {
            let report = try object(try liftledger(arguments, journal: journal).lines[0])
            #expect(report["workoutsAdded"] as? Int == 0 && report["workoutsLeftDeleted"] as? Int == 2, "\(report)")
        }
        #expect(try head() == before)
        let text = try liftledger(["import", hevy], journal: journal).lines
        #expect(text.contains { $0.hasPrefix("  of those already imported, 2 deleted in LiftLedger: left so") })
        #expect(try liftledger(["restore", "2"], journal: journal).status == 0)
        let report = try object(
            try liftledger(["import", export, "--unit", "kg", "--json"], journal: journal).lines[0])
        #expect(report["workoutsAdded"] as? Int == 0 && report["workoutsLeftDeleted"] as? Int == 1, "\(report)")
    }

    /// An export read from a pipe imports as the file does: the importer reads it once (it read the header and then
    /// the file again, and found a pipe empty the second time).
    @Test func anExportImportsFromAPipe() throws {
        let journal = directory.child("piped")
        #expect(try liftledger(["init"], journal: journal).status == 0)
        let file = repositoryRoot + "/Fixtures/exports/strong-2026.csv"
        let piped = try run(
            "/bin/sh",
            [
                "-c", "cat \"$0\" | \"$1\" import /dev/stdin --unit kg --journal \"$2\"", file,
                BuiltProgram.liftledger, journal,
            ])
        #expect(piped.status == 0 && piped.lines.contains("  workouts: 37 (37 added, 0 already imported, 0 corrected)"))
        let again = try liftledger(["import", file, "--unit", "kg"], journal: journal)
        #expect(again.lines.contains("  workouts: 37 (0 added, 37 already imported, 0 corrected)"), "\(again.lines)")
    }

    /// A workout from Strong, then the same one from Hevy, which gives minutes where Strong gives seconds (10:54:24 and
    /// 10:54): the two identities differ and the starts are not in the same second, so the Hevy one is added, but the
    /// report names it beside the workout it may be, as it does one renamed; one a day later is not named. The report
    /// names the zone the times were read in.
    @Test func aWorkoutAddedWithinAMinuteOfOneHeldIsNamed() throws {
        let journal = directory.child("near")
        #expect(try liftledger(["init"], journal: journal).status == 0)
        #expect(try liftledger(["profile", "set", "--time-zone", "Europe/Berlin"], journal: journal).status == 0)
        let strong = directory.child("strong.csv")
        try Data(
            """
            Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,RPE
            2026-04-25 10:54:24,Lower Body,44m,Squat (Barbell),1,100,5,0,0,

            """.utf8
        ).write(to: URL(fileURLWithPath: strong))
        #expect(try liftledger(["import", strong, "--unit", "kg"], journal: journal).status == 0)
        let hevy = directory.child("hevy.csv")
        try Data(
            """
            "title","start_time","end_time","description","exercise_title","superset_id","exercise_notes","set_index","set_type","weight_kg","reps","distance_km","duration_seconds","rpe"
            "Lower Body","25 Apr 2026, 10:54","25 Apr 2026, 11:38","","Squat (Barbell)",,"",0,"normal",100,5,,,
            "Lower Body","26 Apr 2026, 10:54","26 Apr 2026, 11:38","","Squat (Barbell)",,"",0,"normal",100,5,,,

            """.utf8
        ).write(to: URL(fileURLWithPath: hevy))
        let dryRun = try liftledger(["import", hevy, "--dry-run"], journal: journal)
        #expect(dryRun.lines.contains("  workouts: 2 (2 added, 0 already imported, 0 corrected)"), "\(dryRun.lines)")
        #expect(
            dryRun.lines.contains(
                "  note: 1 workout to add starts within a minute of one the journal holds (line 2 beside workout-1): "
                    + "the same workout from another app or an earlier export? compare them with liftledger show, and "
                    + "delete a copy with liftledger delete"), "\(dryRun.lines)")
        #expect(dryRun.lines.contains("  local times read in Europe/Berlin (--time-zone reads them in another)"))
        let json = try jsonObject(try liftledger(["import", hevy, "--json"], journal: journal).lines[0])
        let near = try #require(json["nearlyHeld"] as? [[String: Any]])
        #expect(near.count == 1 && near[0]["line"] as? Int == 2 && near[0]["workoutId"] as? String == "workout-1")
        #expect(json["timeZone"] as? String == "Europe/Berlin")
    }

    /// `show` marks a set kept out as implausible (2000 kg, over 1,000 kg): its workout's volume, 500 kg by hand (100 kg
    /// × 5 alone), left it out without a word beside it. With the rule off, it counts, and is marked implausible alone.
    @Test func showMarksASetKeptOutAsImplausible() throws {
        let journal = directory.child("implausible")
        #expect(try liftledger(["init"], journal: journal).status == 0)
        let file = directory.child("heavy.csv")
        try Data(
            """
            Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE
            2026-11-01 18:00:00,Push,1h,Bench Press (Barbell),1,100,5,0,0,,,
            2026-11-01 18:00:00,Push,1h,Bench Press (Barbell),2,2000,5,0,0,,,

            """.utf8
        ).write(to: URL(fileURLWithPath: file))
        #expect(try liftledger(["import", file, "--unit", "kg"], journal: journal).status == 0)
        let shown = try liftledger(["show", "1"], journal: journal).lines
        #expect(shown.contains("1h 00m 00s, 2 sets, 500 kg volume"), "\(shown)")
        #expect(
            shown.suffix(2) == ["  1. 100 kg × 5", "  2. 2000 kg × 5  (implausible: kept out of records and volume)"])
        #expect(try liftledger(["rules", "set", "records.exclude-implausible", "off"], journal: journal).status == 0)
        #expect(try liftledger(["show", "1"], journal: journal).lines.last == "  2. 2000 kg × 5  (implausible)")
    }

    /// A FitNotes export gives dates and no times: its workouts start and finish at the same instant, and show no time
    /// trained (`—` in the history's column, nothing in `show`), not `0s`, which would read as a time measured. Their
    /// JSON still gives 0 seconds. (A workout finished live within half a second of its start shows `0s`: see
    /// WorkoutCLITests' table tests, whose workouts do.)
    @Test func aWorkoutOfAnExportWithoutTimesShowsNoTimeTrained() throws {
        let journal = directory.child("dates")
        #expect(try liftledger(["init"], journal: journal).status == 0)
        let imported = try liftledger(
            ["import", repositoryRoot + "/Fixtures/synthetic/fitnotes-old.csv"], journal: journal)
        #expect(imported.status == 0, "\(imported.standardError)")
        let history = try liftledger(["history"], journal: journal).lines
        // The header, then one line per workout: 2021-02-01 and 2021-02-03.
        #expect(history.count == 3 && history.dropFirst().allSatisfy { $0.contains(" — ") && !$0.contains(" 0s ") })
        let shown = try liftledger(["show", "1"], journal: journal).lines
        #expect(shown.count > 1 && shown[1].hasPrefix("3 sets, "), "\(shown)")
        let json = try jsonObject(try liftledger(["history", "--json"], journal: journal).lines[0])
        #expect(json["durationSeconds"] as? Int == 0, "\(json)")
    }

    /// An imported set's time and distance show in `show` and its JSON: a run of 5 km (Strong's comma layout in
    /// kilograms gives kilometres) in 1800 s, in kilometres with kilograms and in miles with pounds (5000 m over
    /// 1609.344 m a mile is 3.107, 3.11 mi to two decimals; 5200 m, 3.231, 3.23). The report counts one warm-up as one.
    @Test func anImportedSetsTimeAndDistanceShow() throws {
        let journal = directory.child("run")
        #expect(try liftledger(["init"], journal: journal).status == 0)
        let file = directory.child("run.csv")
        let rows = [
            "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE",
            "2026-03-01 10:00:00,Run,30m,Running,1,,0,5,1800,,,",
            // Strong writes a weight of 0 for a run: no weight to show either.
            "2026-03-01 10:00:00,Run,30m,Running,2,0,0,5.2,1500,,,",
        ]
        try Data((rows.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: file))
        let report = try liftledger(["import", file, "--unit", "kg"], journal: journal)
        #expect(report.status == 0 && report.lines.contains { $0.hasPrefix("  sets: 2 (0 warm-ups), rest rows: 0") })
        let text = try liftledger(["show", "1"], journal: journal).lines
        #expect(text.contains("  1. 30m 00s  5 km") && text.contains("  2. 25m 00s  5.2 km"), "\(text)")
        #expect(try liftledger(["profile", "set", "--unit", "lb"], journal: journal).status == 0)
        let inPounds = try liftledger(["show", "1"], journal: journal).lines
        #expect(inPounds.contains("  1. 30m 00s  3.11 mi") && inPounds.contains("  2. 25m 00s  3.23 mi"), "\(inPounds)")
        let json = try jsonObject(try liftledger(["show", "1", "--json"], journal: journal).lines[0])
        let set = ((json["exercises"] as? [[String: Any]])?.first?["sets"] as? [[String: Any]])?.first
        #expect(set?["durationSeconds"] as? Int == 1800 && set?["distanceMeters"] as? String == "5000", "\(json)")
        // The Hevy fixture has one warm-up (set_type "warmup") among its five sets.
        #expect(try liftledger(["init"], journal: directory.child("hevy")).status == 0)
        let hevy = try liftledger(
            ["import", repositoryRoot + "/Fixtures/synthetic/hevy-imperial.csv"], journal: directory.child("hevy"))
        #expect(hevy.lines.contains { $0.hasPrefix("  sets: 5 (1 warm-up), rest rows: ") }, "\(hevy.lines)")
    }

    /// An import makes a custom exercise of a name it does not know, with no muscles; `exercise edit` gives it some,
    /// and every workout of it, the imported one too, counts for them, as a replay of the journal counts them. By
    /// hand: 20 × 10 and 20 × 8 are 2 sets and 360 kg; for the biceps, the primary muscle, 2 sets and 360 kg; for the
    /// forearms, the secondary one, half of each: 1 set and 180 kg.
    @Test func anImportedCustomExerciseGetsMusclesWithExerciseEdit() throws {
        let journal = directory.child("custom")
        #expect(try liftledger(["init"], journal: journal).status == 0)
        #expect(try liftledger(["profile", "set", "--time-zone", "UTC"], journal: journal).status == 0)
        let file = directory.child("custom.csv")
        let rows = [
            "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE",
            "2026-11-02 10:00:00,Arms,30m,Zottman Curl Variant X,1,20,10,0,0,,,",
            "2026-11-02 10:00:00,Arms,30m,Zottman Curl Variant X,2,20,8,0,0,,,",
        ]
        try Data((rows.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: file))
        #expect(try liftledger(["import", file, "--unit", "kg"], journal: journal).status == 0)
        func balance() throws -> [String] {
            let result = try liftledger(
                ["balance", "--weeks", "1", "--as-of", "2026-11-04", "--csv"], journal: journal)
            #expect(result.status == 0, "\(result.standardError)")
            return result.lines.filter { $0.hasPrefix("biceps,") || $0.hasPrefix("forearms,") }
        }
        #expect(try balance() == ["biceps,0.0,0,false", "forearms,0.0,0,false"])
        // The text names the sets left out, and both ways to count them.
        let text = try liftledger(["balance", "--weeks", "1", "--as-of", "2026-11-04"], journal: journal).lines
        #expect(
            text.last
                == "not counted, as their exercise has no muscles: Zottman Curl Variant X (2 sets); give them some "
                + "(liftledger exercise edit \"Zottman Curl Variant X\" --primary MUSCLES), or import again with --map "
                + "to map them to catalog exercises (docs/IMPORT.md)")
        let edit = try liftledger(
            ["exercise", "edit", "zottman", "curl", "variant", "x", "--primary", "biceps", "--secondary", "forearms"],
            journal: journal)
        #expect(
            edit.standardOutput
                == "changed Zottman Curl Variant X [custom-zottman-curl-variant-x]: primary biceps; secondary forearms; "
                + "equipment none; force none; mechanic none\n",
            "\(edit.standardError)")
        #expect(try balance() == ["biceps,2.0,360,false", "forearms,1.0,180,false"])
        let replay = try liftledger(["rebuild", "--dry-run"], journal: journal)
        #expect(replay.standardOutput.isEmpty && replay.standardError.hasPrefix("0 differences"), "\(replay)")
        // The same facts again write nothing; the catalog's exercises keep theirs; nothing to change is a usage error.
        let head = try liftledger(["stats", "--json"], journal: journal).standardOutput
        let again = try liftledger(
            ["exercise", "edit", "Zottman Curl Variant X", "--primary", "biceps"], journal: journal)
        #expect(again.standardOutput == "Zottman Curl Variant X has these facts already; nothing was written\n")
        #expect(try liftledger(["stats", "--json"], journal: journal).standardOutput == head)
        // Found as every command finds an exercise: another app's name for a catalog one, and the closest names.
        let catalog = try liftledger(
            ["exercise", "edit", "Bench Press (Barbell)", "--primary", "biceps"], journal: journal)
        #expect(catalog.status == 1 && catalog.standardError.contains("is the catalog's, and keeps its facts"))
        let unknown = try liftledger(
            ["exercise", "edit", "Zottman Curl Variant", "--primary", "biceps"], journal: journal)
        #expect(unknown.status == 1 && unknown.standardError.contains(#"did you mean "Zottman Curl Variant X""#))
        // Added again, it is pointed to here.
        let added = try liftledger(
            ["exercise", "add", "Zottman Curl Variant X", "--primary", "biceps"], journal: journal)
        #expect(
            added.status == 1
                && added.standardError.contains(
                    #"change its facts with liftledger exercise edit "Zottman Curl Variant X" --primary MUSCLES"#),
            "\(added.standardError)")
        #expect(try liftledger(["exercise", "edit", "Zottman Curl Variant X"], journal: journal).status == 64)
        #expect(try liftledger(["stats", "--json"], journal: journal).standardOutput == head)
    }

    /// Two processes importing one file at once: one adds its workouts, and the other, whose append finds them stored
    /// already and writes nothing, reports them as already imported. (Without that check, both reported them added in
    /// every run here: both read and plan the file before either writes.)
    @Test func twoImportsOfOneFileAtOnceAddItsWorkoutsOnceAndSaySo() throws {
        let file = repositoryRoot + "/Fixtures/exports/strong-2026.csv"
        for round in 0..<3 {
            let journal = directory.child("both-\(round)")
            #expect(try liftledger(["init"], journal: journal).status == 0)
            let imports = try (0..<2).map { _ in
                try ProgramHandle(
                    BuiltProgram.liftledger, ["import", file, "--unit", "kg", "--json", "--journal", journal])
            }
            let reports = try imports.map { handle in
                let result = handle.wait(timeout: .seconds(120))
                #expect(result.status == 0, "\(result.standardError)")
                return try jsonObject(result.lines[0])
            }
            // The file's 37 workouts (as the README of the shared data counts them) are in the journal once: one
            // import added them all, and the other found them all already imported.
            let workouts = try liftledger(["history", "--json"], journal: journal).lines.count
            #expect(workouts == 37)
            let added = reports.compactMap { $0["workoutsAdded"] as? Int }
            let already = reports.compactMap { $0["workoutsAlreadyImported"] as? Int }
            #expect(added.sorted() == [0, workouts] && already.sorted() == [0, workouts], "\(reports)")
        }
    }

    /// LiftLedger's own Strong export imports back as nothing new: also a workout that started in the second pass of
    /// the hour the clocks go back over (Berlin, 26 October 2025: 01:30Z is 02:30 CET, the second 02:30, which the
    /// file's local time reads back as its first pass, 00:30Z), and a distance logged in feet whose metres have eight
    /// decimals (1.0001 ft is 0.30483048 m, read back to the micrometre, 0.30483 m). Each was added again.
    @Test func ourOwnExportOfAnHourThatComesTwiceOrOfFeetImportsBackAsNothingNew() throws {
        let journal = directory.child("twice")
        #expect(try liftledger(["init"], journal: journal).status == 0)
        for arguments in [
            ["profile", "set", "--time-zone", "Europe/Berlin"], ["start", "--name", "Second pass"],
            ["log", "bench press", "100kg", "x", "5"], ["finish"], ["edit", "1", "--date", "2025-10-26T01:30:00Z"],
            ["start", "--name", "Feet"], ["log", "running treadmill", "--distance", "1.0001ft", "--time", "1"],
            ["finish"],
        ] {
            #expect(try liftledger(arguments, journal: journal).status == 0, "\(arguments)")
        }
        for unit in ["kg", "lb"] {
            let file = directory.child("twice-\(unit).csv")
            let exported = try liftledger(
                ["export", "--format", "strong-csv", "--unit", unit, "--output", file], journal: journal)
            #expect(exported.status == 0, "\(exported.standardError)")
            #expect(try String(contentsOfFile: file, encoding: .utf8).contains("2025-10-26 02:30:00"))
            let report = try jsonObject(
                try liftledger(["import", file, "--unit", unit, "--dry-run", "--json"], journal: journal).lines[0])
            #expect(report["workoutsAdded"] as? Int == 0, "\(unit): \(report)")
            #expect(report["workoutsAlreadyImported"] as? Int == 2, "\(unit): \(report)")
        }
    }

    /// Strong's layout tells workouts apart by start and name alone: two workouts of one name starting in the same
    /// second come back from an import into a new journal as one. The export says so on standard error, naming them,
    /// and the file is as before; into the journal it came from, the import adds nothing.
    @Test func theStrongExportNamesWorkoutsThatAnImportWillReadAsOne() throws {
        let journal = directory.child("same-start")
        #expect(try liftledger(["init"], journal: journal).status == 0)
        for arguments in [
            ["start", "--name", "Push"], ["log", "bench press", "100kg", "x", "5"], ["finish"],
            ["start", "--name", "Push"], ["log", "bench press", "90kg", "x", "8"], ["finish"],
            ["start", "--name", "Pull"], ["log", "deadlift", "140kg", "x", "3"], ["finish"],
            ["edit", "1", "--date", "2026-01-05T10:00:00Z"], ["edit", "3", "--date", "2026-01-06T10:00:00Z"],
        ] {
            #expect(try liftledger(arguments, journal: journal).status == 0, "\(arguments)")
        }
        let clean = try liftledger(["export", "--format", "strong-csv"], journal: journal)
        #expect(clean.status == 0 && clean.standardError.isEmpty, "\(clean.standardError)")
        for arguments in [
            ["edit", "2", "--date", "2026-01-05T10:00:00Z"], ["edit", "3", "--date", "2026-01-05T10:00:00Z"],
        ] {
            #expect(try liftledger(arguments, journal: journal).status == 0, "\(arguments)")
        }
        let exported = try liftledger(["export", "--format", "strong-csv"], journal: journal)
        #expect(exported.status == 0)
        #expect(exported.lines.count == 4, "a header and three sets")
        #expect(
            exported.standardError.hasPrefix(
                "liftledger: note: workout-2 starts in the second workout-1 starts in ("), "\(exported.standardError)")
        #expect(exported.standardError.contains(#"and has its name ("Push"): Strong's layout"#))
        #expect(exported.standardError.split(separator: "\n").count == 1)
        // Workout 3 starts then too, under another name: a workout of its own.
        let file = directory.child("same-start.csv")
        try Data(exported.standardOutput.utf8).write(to: URL(fileURLWithPath: file))
        let fresh = directory.child("same-start-imported")
        #expect(try liftledger(["init"], journal: fresh).status == 0)
        #expect(try liftledger(["import", file, "--unit", "kg"], journal: fresh).status == 0)
        #expect(try liftledger(["history", "--json"], journal: fresh).lines.count == 2)
        // Imported back into the journal it came from, the pair read as one is found as the two workouts it is: it
        // was added as a third, with both sets, and counted twice.
        let back = try liftledger(["import", file, "--unit", "kg", "--json"], journal: journal)
        let report = try jsonObject(back.lines[0])
        #expect(
            report["workoutsAdded"] as? Int == 0 && report["workoutsAlreadyImported"] as? Int == 2, "\(report)")
        #expect(try liftledger(["history", "--json"], journal: journal).lines.count == 3)
    }

    /// The pair read as one, when one of the two came from a Strong file under that start and name: the import found
    /// that workout by the file's identity and corrected it with the other's sets, which then counted twice (by hand,
    /// workout-1 grew from 500 to 900 kg beside workout-2's 400). Found as the two together, nothing is written.
    @Test func ourOwnExportOfAPairOneOfThemImportedFromStrongImportsBackAsNothingNew() throws {
        let journal = directory.child("pair")
        #expect(try liftledger(["init"], journal: journal).status == 0)
        #expect(try liftledger(["profile", "set", "--time-zone", "Europe/Berlin"], journal: journal).status == 0)
        let strong = directory.child("pair-strong.csv")
        try Data(
            ("Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,RPE\n"
                + "2026-11-17 10:00:00,A,50m,Squat (Barbell),1,100,5,0,0,\n").utf8
        ).write(to: URL(fileURLWithPath: strong))
        let hevy = directory.child("pair-hevy.csv")
        try Data(
            (#""title","start_time","end_time","description","exercise_title","superset_id","exercise_notes","#
                + #""set_index","set_type","weight_kg","reps","distance_km","duration_seconds","rpe""# + "\n"
                + #""A","17 Nov 2026, 10:00","17 Nov 2026, 10:40","","Bench Press (Barbell)",,"",0,"normal",80,5,,,"#
                + "\n").utf8
        ).write(to: URL(fileURLWithPath: hevy))
        #expect(try liftledger(["import", strong, "--unit", "kg"], journal: journal).status == 0)
        #expect(try liftledger(["import", hevy], journal: journal).status == 0)
        let file = directory.child("pair-export.csv")
        #expect(try liftledger(["export", "--format", "strong-csv", "--output", file], journal: journal).status == 0)
        let head = try liftledger(["stats", "--json"], journal: journal).standardOutput
        let report = try jsonObject(
            try liftledger(["import", file, "--unit", "kg", "--json"], journal: journal).lines[0])
        #expect(
            report["workoutsAlreadyImported"] as? Int == 1 && report["workoutsCorrected"] as? Int == 0, "\(report)")
        #expect(try liftledger(["stats", "--json"], journal: journal).standardOutput == head)
    }

    @Test func theStrongExportGivesWeightsInTheProfilesUnitOrInUnits() throws {
        // 225 lb is 102.05828325 kg exactly; 100 kg is 100 / 0.45359237 lb, written as the nearest binary64 (Python's
        // repr: 220.46226218487757), as Strong writes a weight it converted.
        let journal = directory.child("units")
        #expect(try liftledger(["init"], journal: journal).status == 0)
        for arguments in [
            ["profile", "set", "--unit", "lb"], ["start"], ["log", "bench press", "225", "x", "5"],
            ["log", "bench press", "100kg", "x", "1"], ["finish"],
        ] {
            #expect(try liftledger(arguments, journal: journal).status == 0, "\(arguments)")
        }
        func weights(_ arguments: [String]) throws -> [String] {
            try liftledger(["export", "--format", "strong-csv"] + arguments, journal: journal).lines.dropFirst().map {
                String($0.split(separator: ",", omittingEmptySubsequences: false)[5])
            }
        }
        #expect(try weights([]) == ["225", "220.46226218487757"])
        #expect(try weights(["--unit", "kg"]) == ["102.05828325", "100"])
        for (arguments, hint) in [
            (["--format", "jsonl", "--unit", "lb"], "--unit is for --format strong-csv"),
            (["--format", "strong-csv", "--unit", "stone"], "unknown unit \"stone\""),
        ] {
            let refused = try liftledger(["export"] + arguments, journal: journal)
            #expect(refused.status == 64 && refused.standardError.contains(hint), "\(refused.standardError)")
            #expect(refused.standardError.split(separator: "\n").count == 1 && refused.standardOutput.isEmpty)
        }
    }

    /// A row cut short is refused with its file and line; an export to a file lands whole (no partial file beside it), with
    /// mode 0600, and restores into an empty journal with the same head.
    @Test func aFileCutShortIsRefusedAndAnExportFileLandsWhole() throws {
        let journal = directory.child("journal")
        #expect(try liftledger(["init"], journal: journal).status == 0)
        let source = repositoryRoot + "/Fixtures/synthetic/strong-2019.csv"
        let text = try String(contentsOfFile: source, encoding: .utf8)
        // Line 3 keeps its first four fields only, as a download that stopped there would.
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines[2] = lines[2].split(separator: ",", omittingEmptySubsequences: false).prefix(4).joined(separator: ",")
        let cut = directory.child("cut.csv")
        try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: cut))
        let refused = try liftledger(["import", cut, "--unit", "lb"], journal: journal)
        #expect(
            refused.status != 0 && refused.standardError.hasPrefix("liftledger: error: \(cut): line 3 has 4 fields"))
        // A row with a field past the header's (a note's comma left unquoted) would read its values in the wrong
        // columns: refused too. An empty one (a delimiter ending the row) is passed over.
        let headerFields = lines[0].split(separator: ",", omittingEmptySubsequences: false).count
        for (ending, refuses) in [(",tired", true), (",", false)] {
            var longer = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            longer[2] += ending
            let file = directory.child("longer.csv")
            try Data(longer.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: file))
            let result = try liftledger(["import", file, "--unit", "lb", "--dry-run"], journal: journal)
            if refuses {
                #expect(
                    result.status == 1
                        && result.standardError.hasPrefix(
                            "liftledger: error: \(file): line 3 has \(headerFields + 1) fields where the header has "
                                + "\(headerFields); quote a field that holds the delimiter"),
                    "\(result.standardError)")
            } else {
                #expect(result.status == 0, "\(result.standardError)")
            }
        }
        #expect(try liftledger(["import", source, "--unit", "lb"], journal: journal).status == 0)
        let dryRun = try liftledger(["import", source, "--unit", "lb", "--dry-run"], journal: journal)
        #expect(dryRun.status == 0 && dryRun.standardOutput.hasPrefix("would import "))
        #expect(dryRun.standardOutput.contains("(0 added, ") && dryRun.standardOutput.contains("nothing was written"))

        let exported = directory.child("all.jsonl")
        #expect(try liftledger(["export", "--format", "jsonl", "--output", exported], journal: journal).status == 0)
        let attributes = try FileManager.default.attributesOfItem(atPath: exported)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains("partial") } == [])
        let restored = directory.child("restored")
        #expect(try liftledger(["init"], journal: restored).status == 0)
        #expect(try liftledger(["import-journal", exported], journal: restored).status == 0)
        let heads = try [journal, restored].map { try liftledger(["verify", "--json"], journal: $0).standardOutput }
        #expect(heads[0] == heads[1] && !heads[0].isEmpty)

        // A partial file of an export killed before it ended (its process gone) is removed by the next export there.
        let gone = try ProgramHandle("/bin/true", [])
        let stale = exported + ".partial-\(gone.processIdentifier)"
        _ = gone.wait()
        #expect(FileManager.default.createFile(atPath: stale, contents: Data("cut".utf8)))
        #expect(try liftledger(["export", "--format", "jsonl", "--output", exported], journal: journal).status == 0)
        #expect(!FileManager.default.fileExists(atPath: stale))
        // Through a link, the file it names gets the export and the link stays; a link to nothing yet makes the file it
        // names; /dev/stdout (no regular file here, the test reads a pipe) is written through, not replaced.
        let expected = try Data(contentsOf: URL(fileURLWithPath: exported))
        let target = directory.child("target.jsonl")
        let link = directory.child("link.jsonl")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "target.jsonl")
        #expect(try liftledger(["export", "--format", "jsonl", "--output", link], journal: journal).status == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "target.jsonl")
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == expected)
        #expect(FileManager.default.createFile(atPath: target, contents: Data("old".utf8)))
        #expect(try liftledger(["export", "--format", "jsonl", "--output", link], journal: journal).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == expected)
        let piped = try liftledger(["export", "--format", "jsonl", "--output", "/dev/stdout"], journal: journal)
        #expect(piped.status == 0 && Data(piped.standardOutput.utf8) == expected)
        // /dev/stdout appended to a file by the shell: the file keeps what it had, the export after it.
        let appended = directory.child("appended.jsonl")
        #expect(FileManager.default.createFile(atPath: appended, contents: Data("kept\n".utf8)))
        let shell = try run(
            "/bin/sh",
            [
                "-c", "\"$0\" export --format jsonl --journal \"$1\" --output /dev/stdout >> \"$2\"",
                BuiltProgram.liftledger, journal, appended,
            ])
        #expect(shell.status == 0, "\(shell.standardError)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: appended)) == Data("kept\n".utf8) + expected)

        // Refused exports and restores leave nothing behind: no partial file, no journal made for a failed restore.
        for (output, hint) in [
            (directory.path, "is a directory"), (directory.child("none/all.jsonl"), "no directory"),
            (journal + "/data.mdb", "is the journal's own file"),
        ] {
            let refused = try liftledger(["export", "--format", "jsonl", "--output", output], journal: journal)
            #expect(refused.status == 1 && refused.standardError.contains(hint), "\(refused.standardError)")
        }
        let empty = directory.child("empty.jsonl")
        #expect(FileManager.default.createFile(atPath: empty, contents: Data("{}\n".utf8)))
        // The export without its last record and end line, as a copy cut short at a line's end leaves it.
        let cutExport = directory.child("cut.jsonl")
        let exportedLines = try String(contentsOfFile: exported, encoding: .utf8).split(separator: "\n")
        try Data(exportedLines.dropLast(2).map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: cutExport))
        // An app's export given instead is pointed to `import`.
        let appExport = repositoryRoot + "/Fixtures/exports/strong-2026.csv"
        for file in [directory.child("missing.jsonl"), empty, cutExport, appExport] {
            let failed = directory.child("failed")
            let refused = try liftledger(["import-journal", file], journal: failed)
            #expect(refused.status == 1 && refused.standardError.split(separator: "\n").count == 1)
            #expect(file != appExport || refused.standardError.hasSuffix("export with liftledger import FILE\n"))
            #expect(!FileManager.default.fileExists(atPath: failed), "\(file)")
        }
        let salvaged = try liftledger(
            ["import-journal", cutExport, "--allow-cut"], journal: directory.child("salvaged"))
        #expect(
            salvaged.status == 0 && salvaged.standardOutput.hasPrefix("restored \(exportedLines.count - 2) records"))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains("partial") } == [])
    }

    /// A journal whose hash chain is broken (a record's payload changed, its checksum made to match) is refused by an
    /// export, which would otherwise write hashes that its restore refuses. The export of an empty journal restores.
    @Test func anExportRefusesABrokenChainAndAnEmptyOneRestores() throws {
        let broken = directory.child("broken")
        #expect(try liftledger(["init"], journal: broken).status == 0)
        for value in 1...3 {
            let appended = try liftledger(
                ["append", "--stream", "s", "--type", "T", "--data", #"{"a":\#(value)}"#], journal: broken)
            #expect(appended.status == 0)
        }
        do {
            // Record 2's payload `{"a":2}` made `{"a":7}`: the payload ends just before the 4-byte checksum.
            let environment = try Environment.open(path: broken)
            let events = try environment.openDatabases(["events"], create: false)[0]
            try environment.write { transaction in
                var bytes = try #require(try transaction.value(forKey: BigEndianKey.encode(2), in: events))
                #expect(bytes[bytes.count - 6] == UInt8(ascii: "2"))
                bytes[bytes.count - 6] = UInt8(ascii: "7")
                try transaction.put(withChecksumRecomputed(bytes), forKey: BigEndianKey.encode(2), in: events)
            }
        }
        #expect(try liftledger(["verify"], journal: broken).standardError.contains("position 3"))
        let output = directory.child("broken.jsonl")
        let refused = try liftledger(["export", "--format", "jsonl", "--output", output], journal: broken)
        #expect(refused.status == 1 && refused.standardError.contains("hash chain is broken at position 3"))
        #expect(!FileManager.default.fileExists(atPath: output))

        let empty = directory.child("empty")
        #expect(try liftledger(["init"], journal: empty).status == 0)
        let emptyExport = directory.child("empty.jsonl")
        #expect(try liftledger(["export", "--format", "jsonl", "--output", emptyExport], journal: empty).status == 0)
        let restored = try liftledger(["import-journal", emptyExport], journal: directory.child("restored-empty"))
        #expect(restored.status == 0 && restored.standardOutput.hasPrefix("restored 0 records; head 0"))
    }

    func object(_ line: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
}
