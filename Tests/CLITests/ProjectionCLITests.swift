import EventJournal
import Foundation
import LMDB
import TestSupport
import Testing

@testable import Projections
@testable import Training

#if canImport(Glibc)
    import Glibc
#endif

/// The read models as processes see them: the same bytes however they were folded, a rebuild that survives a kill,
/// and a rule change previewed exactly.
struct ProjectionCLITests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    func ok(_ arguments: [String], journal: String) throws -> ProgramResult {
        let result = try liftledger(arguments, journal: journal)
        #expect(result.status == 0, "\(arguments): \(result.standardError)")
        return result
    }

    func harness(_ arguments: [String]) throws -> ProgramResult {
        let result = try run(BuiltProgram.harness, arguments, timeout: .seconds(600))
        #expect(result.status == 0, "\(arguments): \(result.standardError)")
        return result
    }

    /// A seeded journal of 100,000 generated events (every training event type, corrections and deletions among
    /// them), copied three times: folded event by event, rebuilt in one pass, and rebuilt with a kill -9 in the
    /// middle and a restart. The three read models must be byte for byte the same, and so must the read models folded
    /// with each chunk's fold prepared first, wholly or in part.
    @Test func readModelsAreTheSameEventByEventInOnePassAndAfterAKilledRebuild() throws {
        let original = directory.child("generated")
        let generated = try harness(["generate", "--journal", original, "--events", "100000", "--seed", "7"])
        #expect(generated.standardOutput.contains(#""events":100"#))
        var copies: [String] = []
        for name in ["by-event", "rebuilt", "killed"] {
            let copy = directory.child(name)
            try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: false)
            try FileManager.default.copyItem(atPath: original + "/data.mdb", toPath: copy + "/data.mdb")
            copies.append(copy)
        }
        // Every type of training event is in the journal.
        let types = Set(
            try ok(["events", "--json"], journal: original).lines.compactMap { line -> String? in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["type"] as? String
            })
        #expect(
            types.isSuperset(of: [
                "SetCorrected", "SetRemoved", "WorkoutDeleted", "WorkoutRestored", "WorkoutEdited", "RulesChanged",
            ]))
        #expect(types.count >= 27, "\(types.sorted())")

        _ = try harness(["project", "--journal", copies[0], "--chunk", "1"])
        _ = try ok(["rebuild"], journal: copies[1])

        // Kill the third rebuild once it has committed a chunk, then let a query resume it. Its chunks are 4,096
        // events and then twice the one before, up to 65,536: by hand, they end at positions 4,096, 12,288, 28,672
        // and 61,440; the next would end past the head, at 126,976, and the rebuild then swaps and leaves no marker.
        let chunkEnds = [4_096, 12_288, 28_672, 61_440]
        let rebuild = try ProgramHandle(BuiltProgram.liftledger, ["rebuild", "--journal", copies[2]])
        var cutAt: UInt64?
        let deadline = ContinuousClock.now + .seconds(300)
        while cutAt == nil, ContinuousClock.now < deadline {
            let status = try liftledger(["projections", "--json"], journal: copies[2]).lines
            let training = status.compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            .first { $0["name"] as? String == "training" }
            if let position = training?["rebuildPosition"] as? Int, position > 0 {
                kill(rebuild.processIdentifier, SIGKILL)
                cutAt = UInt64(position)
            }
            usleep(20_000)
        }
        let killed = rebuild.wait()
        #expect(killed.status != 0, "the rebuild was killed before it finished")
        let afterKill = try ok(["projections", "--json"], journal: copies[2])
        let after = afterKill.standardOutput
        let stopped = afterKill.lines.compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        .first { $0["name"] as? String == "training" }
        let stoppedAt = stopped?["rebuildPosition"] as? Int
        // The builder is dead, and its marker holds the end of the last chunk it committed: the one seen, or a later
        // one committed before the kill landed.
        #expect(stopped?["rebuilding"] as? Bool == false, "\(after)")
        #expect(stopped?["rebuildCurrent"] as? Bool == true, "this code's rebuild, resumed: \(after)")
        #expect(stoppedAt.map { chunkEnds.contains($0) && $0 >= Int(cutAt ?? 0) } == true, "\(after)")
        _ = try ok(["prs", "squat"], journal: copies[2])

        let digests = try copies.map { try harness(["read-model-digest", "--journal", $0]).standardOutput }
        #expect(digests[0] == digests[1])
        #expect(digests[2] == digests[1])
        #expect(digests[0].contains(#""training.records":{"entries":"#))
        #expect(cutAt.map { chunkEnds.contains(Int($0)) } == true)

        // The same read models when each chunk's fold is prepared first, as a rebuild's reading thread prepares it:
        // wholly, and cut short after 40 checks of chunks of 4,096 events (4 while finding the workouts, then one per
        // workout, of about 75) or after 300 of chunks of 16,384 (16, then about 300 workouts).
        for arguments in [[], ["--checks", "40"], ["--chunk", "16384", "--checks", "300"]] {
            let prepared = try harness(["prepared-fold-digest", "--journal", original] + arguments)
            #expect(prepared.standardOutput == digests[1], "\(arguments)")
        }
    }

    /// `history`'s and `progress`'s columns stay under their headings past `workout-999`: an id of twelve characters
    /// took the column's last space, and each row from there on stood a column right of the heading.
    @Test func historysAndProgresssColumnsStayAlignedPastAThousandWorkouts() throws {
        let journal = directory.child("thousand")
        _ = try harness(["generate", "--journal", journal, "--events", "60000", "--seed", "3"])
        /// Each row's text under `column` (the heading's word after the id's column) begins where the heading's does.
        func expectAligned(_ lines: [String], under column: String) throws {
            #expect(lines.contains { $0.contains(/\sworkout-[0-9]{4}\s/) }, "more than a thousand workouts")
            let heading = try #require(lines.first)
            let offset = try #require(heading.range(of: column)).lowerBound.utf16Offset(in: heading)
            for line in lines.dropFirst() {
                let start = line.index(line.startIndex, offsetBy: offset)
                #expect(line[line.index(before: start)] == " " && line[start] != " ", "\(line)")
            }
        }
        // The workout's name (Push, Pull, Legs or a routine's).
        try expectAligned(try ok(["history"], journal: journal).lines, under: "name")
        // The estimate, in the rows of sessions (each beginning with its date) after the title and the heading.
        let progress = try ok(["progress", "bench", "press"], journal: journal).lines.dropFirst()
        let rows = progress.dropFirst().prefix { $0.first?.isNumber == true }
        try expectAligned([try #require(progress.first)] + rows, under: "e1RM")
    }

    /// A set logged while another process rebuilds the read models after a rule change waits for the rebuild, and
    /// is logged: it was refused as contention (`other writers kept changing the same data`), its read models not at
    /// the head while the rebuild ran.
    @Test func aSetLoggedDuringAnotherProcesssRebuildWaitsForIt() throws {
        let journal = directory.child("busy")
        _ = try harness(["generate", "--journal", journal, "--events", "60000", "--seed", "3"])
        _ = try ok(["rebuild"], journal: journal)
        if try jsonObject(try ok(["status", "--json"], journal: journal).lines[0])["active"] as? Bool != true {
            _ = try ok(["start"], journal: journal)
        }
        // A formula other than the one the generated journal's rule changes left.
        let rules = try ok(["rules", "show", "--json"], journal: journal).lines.map(jsonObject)
        let formula = rules.first { $0["key"] as? String == "e1rm.formula" }?["value"] as? String
        let change = try ProgramHandle(
            BuiltProgram.liftledger,
            ["rules", "set", "e1rm.formula", formula == "epley" ? "brzycki" : "epley", "--journal", journal])
        // Logged once the other process is seen rebuilding.
        var rebuilding = false
        let deadline = ContinuousClock.now + .seconds(120)
        while !rebuilding, ContinuousClock.now < deadline {
            let status = try ok(["projections", "--json"], journal: journal).lines.map(jsonObject)
            rebuilding = status.contains { $0["name"] as? String == "training" && $0["rebuilding"] as? Bool == true }
            if !rebuilding { usleep(5_000) }
        }
        #expect(rebuilding, "the rule change's rebuild was seen under way")
        let logged = try liftledger(["log", "squat", "100kg", "x", "5"], journal: journal)
        #expect(logged.status == 0, "\(logged.standardError)")
        #expect(change.wait().status == 0)
    }

    /// While another process rebuilds the training read model after a rule change, `rules show` gives the rules in
    /// force, and `why` the read model's figures under the rules that made them: it named the new formula beside the old
    /// one's estimates. The other process is a sleeping child, named as the builder in the rebuild's marker.
    @Test func queriesDuringAnotherProcesssRebuildNameTheRulesOfTheirFigures() throws {
        let journal = directory.child("marked")
        let sleeper = try markedRebuilding(journal)
        defer { end(sleeper) }
        let rules = try ok(["rules", "show", "--json"], journal: journal).lines.map(jsonObject)
        #expect(rules.first { $0["key"] as? String == "e1rm.formula" }?["value"] as? String == "brzycki")
        // Epley: 100 × (1 + 5/30) = 116.67.
        let why = try ok(["why", "bench", "press", "e1rm"], journal: journal).lines
        #expect(why.first?.contains("e1rm (kg, by epley)") == true, "\(why)")
        // The kind in the case tables print it in.
        #expect(try ok(["why", "bench", "press", "e1RM"], journal: journal).lines == why)
        #expect(why.dropFirst().first?.hasPrefix("#1 116.67") == true, "\(why)")
    }

    /// A command that records waits for another process's rebuild under the rules in force, and after two seconds
    /// says which process it waits for: it waited up to half a minute with nothing said. Here the builder is a sleeping
    /// child that ends after six seconds, its rebuild cut short, which the waiting command then resumes.
    @Test func aCommandWaitingForAnotherProcesssRebuildSaysWhichProcess() throws {
        let journal = directory.child("waited")
        let sleeper = try markedRebuilding(journal, seconds: 6)
        defer { end(sleeper) }
        let started = try liftledger(["start"], journal: journal)
        #expect(started.status == 0, "\(started.standardError)")
        #expect(
            started.standardError.hasPrefix(
                "liftledger: waiting for process \(sleeper.processIdentifier) (sleep 6) to rebuild the read models"),
            "\(started.standardError)")
        let status = try ok(["projections", "--json"], journal: journal).lines.map(jsonObject)
        #expect(status.allSatisfy { $0["current"] as? Bool == true }, "the cut-short rebuild resumed: \(status)")
    }

    /// A new journal of one workout (bench press, 100 kg × 5) whose training read model another process is rebuilding
    /// after `rules set e1rm.formula brzycki`: a sleeping child, named as the builder in the rebuild's marker, which
    /// never finishes (it ends after `seconds`, 60 unless said). Returns the child, for ``end(_:)``.
    func markedRebuilding(_ journal: String, seconds: Int = 60) throws -> ProgramHandle {
        for arguments in [["init"], ["start"], ["log", "bench", "press", "100kg", "x", "5"], ["finish"]] {
            _ = try ok(arguments, journal: journal)
        }
        let builder = try ProgramHandle("/bin/sleep", ["\(seconds)"])
        let models = try TrainingReadModels(journal: try Journal.open(at: journal, create: false))
        var rules = try models.query { $0.rules }
        rules.estimateFormula = .brzycki
        let projection = TrainingProjection(rules: rules, workoutEvents: nil)
        let marker = RebuildMarker(
            checkpoint: Checkpoint(
                position: 0, version: projection.version, rulesDigest: projection.rulesDigest, slot: 1),
            builder: BuilderProcess(
                processID: builder.processIdentifier, start: BuilderProcess.startOfProcess(builder.processIdentifier)))
        let store = models.projector.store
        try store.environment.write { try store.putRebuildMarker(marker, for: TrainingProjection.name, $0) }
        _ = try ok(["rules", "set", "e1rm.formula", "brzycki"], journal: journal)
        return builder
    }

    /// A read model built by another version of liftledger is not read while another process rebuilds it for its
    /// own (catching up leaves it to that process): a query answers from a replay, and says so. Here the live training
    /// read model is labelled with code version 12, one `history` row taken out of it, and a sleeping child is named as
    /// the builder: `history` listed one workout fewer, as of the other code's rows.
    @Test func aReadModelByOtherCodeIsNotReadWhileAnotherProcessRebuildsIt() throws {
        let journal = directory.child("other-code")
        _ = try ok(["init"], journal: journal)
        for weight in ["100kg", "105kg"] {
            for arguments in [["start"], ["log", "squat", weight, "x", "5"], ["finish"]] {
                _ = try ok(arguments, journal: journal)
            }
        }
        let history = try ok(["history", "--json"], journal: journal).standardOutput
        let builder = try ProgramHandle("/bin/sleep", ["infinity"])
        defer { end(builder) }
        let models = try TrainingReadModels(journal: try Journal.open(at: journal, create: false))
        let store = models.projector.store
        let projection = TrainingProjection(rules: try models.query { $0.rules }, workoutEvents: nil)
        try store.environment.write { transaction in
            var live = try #require(try store.checkpoint(TrainingProjection.name, transaction))
            let marker = RebuildMarker(
                checkpoint: Checkpoint(
                    position: 0, version: projection.version, rulesDigest: projection.rulesDigest, slot: 1 - live.slot),
                builder: BuilderProcess(
                    processID: builder.processIdentifier,
                    start: BuilderProcess.startOfProcess(builder.processIdentifier)))
            try store.putRebuildMarker(marker, for: TrainingProjection.name, transaction)
            live.version = projection.version - 1
            try store.putCheckpoint(live, for: TrainingProjection.name, transaction)
            let model = store.model(TrainingProjection.name, slot: live.slot, checkpoint: live, transaction)
            var first: [UInt8]?
            try model.table(TrainingTable.history.rawValue).scan { key, _ in
                first = Array(key)
                return false
            }
            #expect(try model.table(TrainingTable.history.rawValue).delete(try #require(first)))
        }
        let answer = try ok(["history", "--json"], journal: journal)
        #expect(answer.standardOutput == history)
        #expect(
            answer.standardError
                == "liftledger: note: another process is rebuilding the read models, which another version of "
                + "liftledger built; this answer is replayed from the journal\n")
    }

    /// A query that rebuilds a read model another version of liftledger built says why it takes longer, once: after
    /// an upgrade, and each time two versions take turns on one journal; `projections` says that version's rebuild,
    /// cut short, starts anew. Here the live training read model, and a rebuild's marker, are labelled with code
    /// version 12.
    @Test func aQueryThatRebuildsAReadModelByOtherCodeSaysWhy() throws {
        let journal = directory.child("upgraded")
        for arguments in [["init"], ["start"], ["log", "squat", "100kg", "x", "5"], ["finish"]] {
            _ = try ok(arguments, journal: journal)
        }
        let history = try ok(["history", "--json"], journal: journal).standardOutput
        let models = try TrainingReadModels(journal: try Journal.open(at: journal, create: false))
        let store = models.projector.store
        try store.environment.write { transaction in
            var live = try #require(try store.checkpoint(TrainingProjection.name, transaction))
            live.version -= 1
            try store.putCheckpoint(live, for: TrainingProjection.name, transaction)
        }
        // A rebuild by that code cut short (its process gone) is not resumed by this code, but started anew.
        try store.environment.write { transaction in
            let live = try #require(try store.checkpoint(TrainingProjection.name, transaction))
            var other = live
            other.position = 2
            other.slot = 1 - live.slot
            let gone = BuilderProcess(processID: 2_000_000_000, start: nil)
            try store.putRebuildMarker(
                RebuildMarker(checkpoint: other, builder: gone), for: TrainingProjection.name, transaction)
        }
        #expect(
            try ok(["projections"], journal: journal).standardOutput.contains(
                ", a rebuild by other code or rules cut short at 2 (liftledger rebuild starts anew)\n"))
        let marked = try ok(["projections", "--json"], journal: journal).lines.map(jsonObject)
        #expect(marked.first { $0["name"] as? String == "training" }?["rebuildCurrent"] as? Bool == false)
        #expect(marked.first { $0["name"] as? String == "plan" }?["rebuildCurrent"] is NSNull)
        let rebuilt = try ok(["history", "--json"], journal: journal)
        #expect(rebuilt.standardOutput == history)
        #expect(
            rebuilt.standardError
                == "liftledger: note: rebuilt the read models, which another version of liftledger built, for "
                + "this one: once after an upgrade, and each time two versions take turns on one journal\n")
        #expect(try ok(["history", "--json"], journal: journal).standardError.isEmpty)
    }

    /// Ends the builder ``markedRebuilding(_:)`` started.
    func end(_ builder: ProgramHandle) {
        kill(builder.processIdentifier, SIGKILL)
        _ = builder.wait()
    }

    /// While another process rebuilds the training read model after a rule change, a workout finished meanwhile is in
    /// the answers, its figures under the rules that built the read model: the live read model folds it under them.
    /// It was left at the rule change, and `history` lacked every workout since until the rebuild swapped its own in.
    @Test func aWorkoutFinishedDuringAnotherProcesssRebuildIsInTheAnswers() async throws {
        let journal = directory.child("during")
        let sleeper = try markedRebuilding(journal)
        defer { end(sleeper) }
        // A second workout, appended as `finish` appends one (the session commands wait for the rebuild to end; an
        // import does not).
        let set = SetDetails(
            exerciseId: "Barbell_Bench_Press_-_Medium_Grip", weight: Weight(ExactDecimal(110), .kilograms), reps: 5)
        let events: [any TrainingEventPayload] = [
            WorkoutStarted(name: "Later"),
            ExerciseAdded(exerciseId: set.exerciseId, exerciseName: "Barbell Bench Press - Medium Grip"),
            SetLogged(setNumber: 1, set: set), WorkoutFinished(),
        ]
        _ = try await Journal.open(at: journal, create: false).append(
            events.map { $0.proposed(occurredAt: .now()) }, to: "workout-2")
        let history = try ok(["history", "--json"], journal: journal).lines.map(jsonObject)
        #expect(history.map { $0["name"] as? String } == ["Workout", "Later"])
        // Epley's, the rules that built the read model: 100 × (1 + 5/30) = 116.67, then 110 × (1 + 5/30) = 128.33.
        let why = try ok(["why", "bench", "press", "e1rm"], journal: journal).lines
        #expect(why.first?.contains("by epley") == true, "\(why)")
        #expect(why.contains { $0.hasPrefix("#1 116.67") } && why.contains { $0.hasPrefix("#2 128.33") }, "\(why)")
        // The session commands still wait for the rebuild under the rules in force.
        let status = try ok(["projections", "--json"], journal: journal).lines.map(jsonObject)
            .first { $0["name"] as? String == "training" }
        #expect(status?["current"] as? Bool == false && status?["lag"] as? Int == 0, "\(String(describing: status))")
    }

    /// A query at the head while another process rebuilds the training read model takes no write transaction: it
    /// waited for the writer lock, which the rebuild holds for each chunk, and said so after two seconds. Here this
    /// process holds the lock for three.
    @Test func aQueryAtTheHeadDuringAnotherProcesssRebuildWaitsForNoWriter() throws {
        let journal = directory.child("no-wait")
        let sleeper = try markedRebuilding(journal)
        defer { end(sleeper) }
        _ = try ok(["history"], journal: journal)  // the live read model folds up to the head
        let environment = try Journal.open(at: journal, create: false).environment
        let holding = DispatchSemaphore(value: 0)
        let released = DispatchGroup()
        DispatchQueue.global().async(group: released) {
            try? environment.write { _ in
                holding.signal()
                sleep(3)
            }
        }
        holding.wait()
        let started = ContinuousClock.now
        let history = try liftledger(["history"], journal: journal)
        let waited = ContinuousClock.now - started
        released.wait()
        #expect(history.status == 0 && history.standardError.isEmpty, "\(history.standardError)")
        #expect(waited < .seconds(2), "\(waited)")
    }

    /// A journal on a read-only file system (a read-only mount, a snapshot) could not even be verified: LMDB could not
    /// open it without writing its lock file. Now it opens for reading. Its read models, behind it there, answer from
    /// a replay of the whole journal, and a command that records says the journal is read-only.
    @Test(.enabled(if: Tmpfs.canMount, "needs root to mount a tmpfs; skipped"))
    func aJournalOnAReadOnlyFileSystemCanBeReadAndQueried() async throws {
        try await Tmpfs.mounted(size: "16m") { volume in
            let journal = volume.child("journal")
            _ = try ok(["init"], journal: journal)
            let export = repositoryRoot + "/Fixtures/exports/strong-2026.csv"
            _ = try ok(["import", export, "--unit", "kg"], journal: journal)
            // Answers in pounds, the profile's unit, as of the head and of a point before it.
            _ = try ok(["profile", "set", "--unit", "lb"], journal: journal)
            let history = try ok(["history", "--json"], journal: journal).standardOutput
            let records = try ok(["prs", "--json"], journal: journal).standardOutput
            let recordsThen = try ok(["prs", "--json", "--as-of", "200"], journal: journal).standardOutput
            let historyThen = try ok(["history", "--as-of", "2026-05-01"], journal: journal).standardOutput
            #expect(recordsThen != records && historyThen.contains(" volume lb "), "\(historyThen)")
            // An event the read models have not folded: they are behind the journal when it turns read-only.
            _ = try ok(["append", "--stream", "notes", "--type", "Note", "--data", "{}"], journal: journal)
            let head = try ok(["stats", "--json"], journal: journal).standardOutput
            // A journal no query ever asked: no tables for its read models, which cannot be made there.
            let unqueried = volume.child("unqueried")
            _ = try ok(["init"], journal: unqueried)
            _ = try ok(["append", "--stream", "notes", "--type", "Note", "--data", "{}"], journal: unqueried)
            try Tmpfs.remountReadOnly(volume)
            #expect(try ok(["status"], journal: unqueried).standardOutput.hasPrefix("no workout in progress"))
            #expect(try ok(["history"], journal: unqueried).standardOutput == "no finished workouts\n")
            let never = try ok(["projections", "--json"], journal: unqueried).lines.map(jsonObject)
            #expect(never.count == 2 && never.allSatisfy { $0["position"] is NSNull && $0["lag"] as? Int == 1 })
            #expect(try ok(["verify"], journal: journal).standardOutput.hasPrefix("ok: "))
            #expect(try ok(["stats", "--json"], journal: journal).standardOutput == head)
            let status = try ok(["projections", "--json"], journal: journal).lines.map(jsonObject)
            #expect(status.allSatisfy { $0["lag"] as? Int == 1 }, "\(status)")
            // The answers the kept read models gave before the note, from the replay.
            #expect(try ok(["history", "--json"], journal: journal).standardOutput == history)
            #expect(try ok(["prs", "--json"], journal: journal).standardOutput == records)
            #expect(try ok(["prs", "--json", "--as-of", "200"], journal: journal).standardOutput == recordsThen)
            #expect(try ok(["history", "--as-of", "2026-05-01"], journal: journal).standardOutput == historyThen)
            // A command that writes, or that brings the read models up to date first, says the journal is read-only.
            for (arguments, path) in [
                (["start"], journal), (["rebuild"], journal), (["rebuild"], unqueried),
                (["rules", "set", "e1rm.formula", "brzycki", "--dry-run"], unqueried),
            ] {
                let refused = try liftledger(arguments, journal: path)
                #expect(refused.status == 1, "\(arguments)")
                #expect(
                    refused.standardError.hasPrefix(
                        "liftledger: error: the journal at \(path) is on a read-only file system: nothing can be "
                            + "written to it"), "\(arguments): \(refused.standardError)")
                #expect(refused.standardError.split(separator: "\n").count == 1)
            }
        }
    }

    /// A rebuild that fills the disk says so without "nothing was written": the chunks it folded are kept, and
    /// `projections` says which command resumes it. Once there is room, `rebuild` finishes it.
    @Test(.enabled(if: Tmpfs.canMount, "needs root to mount a tmpfs; skipped"))
    func aRebuildThatFillsTheDiskSaysHowItResumes() async throws {
        try await Tmpfs.mounted(size: "4m") { volume in
            let journal = volume.child("journal")
            _ = try ok(["init"], journal: journal)
            let export = repositoryRoot + "/Fixtures/exports/strong-zh-2020-2023.csv"
            // Recorded, with the read models behind: the disk filled as they followed.
            let imported = try liftledger(["import", export, "--unit", "lb"], journal: journal)
            #expect(imported.status == 0 && imported.standardError.contains("the read models could not follow it"))
            let failed = try liftledger(["rebuild"], journal: journal)
            #expect(failed.status == 1)
            #expect(
                failed.standardError.hasPrefix(
                    "liftledger: error: the disk filled during the rebuild; free space on the volume that holds the "
                        + "journal, then run liftledger rebuild again: it resumes from what this one folded"),
                "\(failed.standardError)")
            #expect(!failed.standardError.contains("nothing was written"))
            let cutShort = try ok(["projections"], journal: journal).standardOutput
            #expect(cutShort.contains("a rebuild cut short at"), "\(cutShort)")
            #expect(cutShort.contains("(liftledger rebuild resumes it)"), "\(cutShort)")
            #expect(try run("/bin/mount", ["-o", "remount,size=64m", volume.path]).status == 0)
            _ = try ok(["rebuild"], journal: journal)
            let status = try ok(["projections", "--json"], journal: journal).lines.map(jsonObject)
            #expect(status.allSatisfy { $0["lag"] as? Int == 0 && $0["rebuildPosition"] is NSNull }, "\(status)")
            #expect(status.allSatisfy { $0["rebuildCurrent"] is NSNull }, "\(status)")
        }
    }

    /// `rules set --dry-run` reports exactly the differences a real change then shows, writes nothing, and a query
    /// `--as-of` a position before the change answers under the old rules.
    @Test func aDryRunShowsExactlyWhatTheChangeDoes() throws {
        let journal = directory.child("journal")
        _ = try ok(["init"], journal: journal)
        _ = try ok(["profile", "set", "--time-zone", "Europe/Berlin"], journal: journal)
        _ = try ok(["import", repositoryRoot + "/Fixtures/exports/strong-2026.csv", "--unit", "kg"], journal: journal)
        let head = try ok(["stats", "--json"], journal: journal).standardOutput
        let before = try figures(journal)
        let dryRun = try ok(["rules", "set", "e1rm.formula", "brzycki", "--dry-run", "--json"], journal: journal).lines
        #expect(try ok(["stats", "--json"], journal: journal).standardOutput == head, "a dry run writes nothing")
        let position = try #require(try headPosition(head))
        _ = try ok(["rules", "set", "e1rm.formula", "brzycki"], journal: journal)
        let after = try figures(journal)
        // Every estimate record each exercise has had, from `why`, before and after; the formula moves no other kind.
        let exercises = Set((before.keys.map { $0 } + after.keys).map { $0.split(separator: "/")[1] })
        var historyBefore: [String: String] = [:]
        var historyAfter: [String: String] = [:]
        for exercise in exercises {
            historyBefore.merge(try estimates(String(exercise), journal, asOf: String(position))) { first, _ in first }
            historyAfter.merge(try estimates(String(exercise), journal)) { first, _ in first }
        }
        // The differences, worked out here from the queries' own output, against the dry run's list.
        var changed: Set<String> = []
        for key in Set(before.keys).union(after.keys) where before[key] != after[key] {
            changed.insert("\(key)=\(before[key] ?? "none")->\(after[key] ?? "none")")
        }
        var changedHistory: Set<String> = []
        for key in Set(historyBefore.keys).union(historyAfter.keys) where historyBefore[key] != historyAfter[key] {
            changedHistory.insert("\(key)=\(historyBefore[key] ?? "none")->\(historyAfter[key] ?? "none")")
        }
        // The dry run gives estimates to the milligram, the queries to two decimals (half away from zero): a change
        // within those is one the queries cannot show.
        func twoDecimals(_ text: String?) -> String {
            guard let text, var value = Decimal(string: text) else { return "none" }
            var rounded = Decimal()
            NSDecimalRound(&rounded, &value, 2, .plain)
            return rounded.description
        }
        var hidden = 0
        let reported = Set(
            try dryRun.compactMap { line -> String? in
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                let subject = (object["subject"] as? [String] ?? []).joined(separator: "/")
                let (before, after) = (
                    twoDecimals(object["before"] as? String), twoDecimals(object["after"] as? String)
                )
                if before == after { hidden += 1 }
                return before == after
                    ? nil : "\(object["readModel"] ?? "")/\(subject)/\(object["figure"] ?? "")=\(before)->\(after)"
            })
        #expect(!changed.isEmpty && changed.allSatisfy { $0.hasPrefix("records/") })
        #expect(changedHistory.count > changed.count, "the history holds records that are no longer current")
        #expect(reported == changed.union(changedHistory))
        #expect(reported.count + hidden == dryRun.count)
        // As of the position before the change, the old formula: the records read as they did.
        let asOf = try figures(journal, asOf: String(position))
        #expect(asOf == before)
    }

    /// `profile set --time-zone` rebuilds the read models before it returns, as `rules set` does (the time zone counts
    /// as a rule that rebuilds, docs/RULES.md): the next query waited on the rebuild. `projections` reads without
    /// catching up: a read model folded under the time zone the profile had is not current once another is recorded
    /// without the command line's rebuild (by the library, as a killed `profile set` leaves it), however many profile
    /// records come after, until a query catches it up; a dry run of a rule's present value, with `--json`, prints no
    /// line, as no figure would change.
    @Test func aNewTimeZoneMakesTheReadModelsStaleUntilTheyCatchUp() async throws {
        let journal = directory.child("zone")
        _ = try ok(["init"], journal: journal)
        _ = try ok(["profile", "set", "--time-zone", "UTC"], journal: journal)
        _ = try ok(["start"], journal: journal)
        _ = try ok(["log", "squat", "100kg", "x", "5"], journal: journal)
        _ = try ok(["finish"], journal: journal)
        func training() throws -> [String: Any] {
            let lines = try ok(["projections", "--json"], journal: journal).lines.map(jsonObject)
            return try #require(lines.first { $0["name"] as? String == "training" })
        }
        _ = try ok(["history"], journal: journal)
        #expect(try training()["current"] as? Bool == true)
        let utc = try training()["builtRulesDigest"] as? String
        _ = try ok(["profile", "set", "--time-zone", "Asia/Tokyo"], journal: journal)
        #expect(try training()["current"] as? Bool == true && (try training()["lag"] as? Int) == 0)
        let built = try training()["builtRulesDigest"] as? String
        let digestInForce = try training()["rulesDigest"] as? String
        #expect(built != nil && built == digestInForce && built != utc)
        do {
            let log = try TrainingLog(journal: try Journal.open(at: journal))
            #expect(try await log.updateProfile(ProfileUpdated(timeZone: "America/New_York")))
        }
        #expect(try training()["current"] as? Bool == false)
        // Stale: built under the old zone's rules, which differ from those in force; the text gives both.
        #expect(try training()["builtRulesDigest"] as? String == built)
        let inForce = try #require(try training()["rulesDigest"] as? String)
        #expect(inForce != built)
        let text = try #require(try ok(["projections"], journal: journal).lines.first { $0.hasPrefix("training") })
        #expect(
            text.contains("rules \(built!.prefix(12)) (in force \(inForce.prefix(12))), built under other rules"),
            "\(text)")
        // The profile's records are read from the newest back, 64 at a time: 70 more after the time zone (appended as
        // they are, which no command catches up for), of a type no build knows.
        for _ in 1...70 {
            _ = try ok(["append", "--stream", "profile", "--type", "Remark", "--data", #"{"n": 1}"#], journal: journal)
        }
        let plan = try ok(["projections", "--json"], journal: journal).lines.map(jsonObject).first {
            $0["name"] as? String == "plan"
        }
        #expect(plan?["lag"] as? Int ?? 0 >= 71, "the plan read model has not folded them")
        #expect(try training()["current"] as? Bool == false)
        _ = try ok(["history"], journal: journal)
        #expect(try training()["current"] as? Bool == true)
        let same = try ok(["rules", "set", "e1rm.formula", "epley", "--dry-run", "--json"], journal: journal)
        #expect(same.standardOutput.isEmpty && same.standardError.contains("already epley"))
    }

    /// Under `balance.primary 0`, the chest of three sets of bench press counts 0 sets: `balance` called it "not
    /// trained", and `why balance chest` listed nothing, as if no set had been done. Now `balance` says no sets are
    /// counted for it, and `why` lists the workout's line at weight 0 (3 sets × 0 = 0), beside its shoulders' at 0.5
    /// (3 × 0.5 = 1.5 sets; Barbell Bench Press - Medium Grip: primary chest, secondary shoulders and triceps).
    @Test func aRoleWeighedAtZeroListsItsSetsAsCountingNothing() throws {
        let journal = directory.child("journal")
        _ = try ok(["init"], journal: journal)
        _ = try ok(["start"], journal: journal)
        for _ in 1...3 { _ = try ok(["log", "bench", "press", "100kg", "x", "5"], journal: journal) }
        _ = try ok(["finish"], journal: journal)
        _ = try ok(["rules", "set", "balance.primary", "0"], journal: journal)
        func why(_ muscle: String) throws -> [String: Any] {
            let output = try ok(["why", "balance", muscle, "--json"], journal: journal).standardOutput
            return try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        }
        let chest = try why("chest")
        let lines = try #require(chest["lines"] as? [[String: Any]])
        #expect(lines.count == 1)
        #expect(lines.first?["role"] as? String == "primary" && lines.first?["weight"] as? Double == 0)
        #expect((lines.first?["sets"] as? [Any])?.count == 3 && lines.first?["weighedSets"] as? Double == 0)
        #expect(chest["sets"] as? Double == 0)
        #expect(try why("shoulders")["sets"] as? Double == 1.5)
        let balance = try ok(["balance"], journal: journal).standardOutput
        let uncounted = try #require(balance.split(separator: "\n").first { $0.hasPrefix("no sets counted: ") })
        #expect(uncounted.contains("chest") && !uncounted.contains("shoulders"), "\(balance)")
        #expect(!balance.contains("not trained"))
    }

    /// On a real export, `why balance MUSCLE` (read from the workouts' rows at query time) adds up, for every muscle,
    /// to what `balance` shows (read from the weekly counters the fold keeps); each line is its sets times its
    /// role's weight. `why streak` counts the weeks `streak` counts.
    @Test func whyAddsUpToTheFiguresItExplainsOnARealExport() throws {
        let journal = directory.child("journal")
        _ = try ok(["init"], journal: journal)
        _ = try ok(["profile", "set", "--time-zone", "Europe/Berlin"], journal: journal)
        _ = try ok(["import", repositoryRoot + "/Fixtures/exports/hevy-kg-2022-2026.csv"], journal: journal)
        // The export's last workout is in 2026-04; 520 weeks reach back past its first.
        for weeks in ["4", "520"] {
            let arguments = ["--weeks", weeks, "--as-of", "2026-04-30", "--json"]
            let balance = try #require(
                try JSONSerialization.jsonObject(
                    with: Data(try ok(["balance"] + arguments, journal: journal).standardOutput.utf8))
                    as? [String: Any])
            let muscles = try #require(balance["muscles"] as? [[String: Any]])
            #expect(muscles.count == 17)
            var listed = 0
            for muscle in muscles {
                let name = try #require(muscle["muscle"] as? String)
                let output = try ok(
                    ["why", "balance"] + name.split(separator: " ").map(String.init) + arguments,
                    journal: journal
                ).standardOutput
                let why = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
                let lines = try #require(why["lines"] as? [[String: Any]])
                var total = 0.0
                for line in lines {
                    let weight = try #require(line["weight"] as? Double)
                    let sets = try #require(line["sets"] as? [[String: Any]])
                    #expect(weight == (line["role"] as? String == "primary" ? 1 : 0.5))
                    #expect(line["weighedSets"] as? Double == weight * Double(sets.count))
                    total += weight * Double(sets.count)
                }
                listed += lines.count
                #expect(why["sets"] as? Double == total, "\(name)")
                #expect(muscle["sets"] as? Double == total, "\(name), \(weeks) weeks: balance against why")
            }
            #expect(listed > 0)
        }
        // `why streak` (from the workouts' rows) counts as many weeks as `streak` (from the days' counters), at dates
        // inside and past the streaks of the export.
        var streaks: Set<Int64> = []
        for date in ["2022-06-30", "2023-03-15", "2024-01-10", "2025-08-20", "2026-04-09", "2026-05-30"] {
            func object(_ arguments: [String]) throws -> [String: Any] {
                let output = try ok(arguments + ["--as-of", date, "--json"], journal: journal).standardOutput
                return try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
            }
            let streak = try object(["streak"])
            let why = try object(["why", "streak"])
            let entries = try #require(why["entries"] as? [[String: Any]])
            let current = try #require(streak["current"] as? Int64)
            #expect(why["current"] as? Int64 == current)
            #expect(Int64(entries.filter { $0["counts"] as? Bool == true }.count) == current, "\(date)")
            #expect(entries.first?["date"] as? String == streak["currentFrom"] as? String, "\(date)")
            // What ended the run before: a week that did not count, before the current streak (or, with none, after
            // the last week that counted, before this one).
            if let breaker = why["breaker"] as? [String: Any] {
                let week = try #require(breaker["date"] as? String)
                #expect(breaker["counts"] as? Bool == false, "\(date)")
                if let from = streak["currentFrom"] as? String { #expect(week < from, "\(date)") }
            }
            streaks.insert(current)
        }
        #expect(streaks.count > 2, "the dates reach streaks of several lengths")
    }

    /// `week.start` moves a weekly streak's weeks and not their count: the dry run reported no streak change, while
    /// `streak` then gave other dates. Two workouts on Mondays a week apart, 2026-03-02 and 2026-03-09: weeks from
    /// Monday, the streak runs from the week of 2026-03-02 to that of 2026-03-09; from Sunday, from 2026-03-01 to
    /// 2026-03-08 (the Sundays before). Two weeks either way, and none current since.
    @Test func aWeekStartChangeReportsTheStreaksNewDates() throws {
        let journal = directory.child("journal")
        _ = try ok(["init"], journal: journal)
        _ = try ok(["profile", "set", "--time-zone", "UTC"], journal: journal)
        try importTwoMondays(into: journal)
        let dryRun = try ok(
            ["rules", "set", "week.start", "sunday", "--dry-run", "--json"], journal: journal
        ).lines.map(jsonObject).filter { $0["readModel"] as? String == "streak" }
        let changes = Dictionary(
            uniqueKeysWithValues: dryRun.map { ($0["figure"] as? String ?? "", [$0["before"], $0["after"]]) })
        #expect(changes.keys.sorted() == ["longestFrom", "longestTo"], "\(dryRun)")
        #expect(changes["longestFrom"]?.map { $0 as? String } == ["2026-03-02", "2026-03-01"])
        #expect(changes["longestTo"]?.map { $0 as? String } == ["2026-03-09", "2026-03-08"])
        _ = try ok(["rules", "set", "week.start", "sunday"], journal: journal)
        let streak = try jsonObject(try ok(["streak", "--json"], journal: journal).standardOutput)
        #expect(streak["longestFrom"] as? String == "2026-03-01" && streak["longestTo"] as? String == "2026-03-08")
    }

    /// Imports two workouts of bench press, on Mondays a week apart: 2026-03-02 (workout-1) and 2026-03-09 (workout-2),
    /// at 10:00.
    func importTwoMondays(into journal: String) throws {
        let file = directory.child("mondays.csv")
        try Data(
            """
            Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,RPE
            2026-03-02 10:00:00,A,60m,Bench Press (Barbell),1,100,5,0,0,
            2026-03-09 10:00:00,B,60m,Bench Press (Barbell),1,100,5,0,0,

            """.utf8
        ).write(to: URL(fileURLWithPath: file))
        _ = try ok(["import", file, "--unit", "kg"], journal: journal)
    }

    /// `show` as of a day before a workout began said it did not exist, and to look in `history`, which lists it.
    @Test func showAsOfBeforeAWorkoutSaysItHadNotBegun() throws {
        let journal = directory.child("journal")
        _ = try ok(["init"], journal: journal)
        _ = try ok(["profile", "set", "--time-zone", "UTC"], journal: journal)
        try importTwoMondays(into: journal)
        let before = try liftledger(["show", "2", "--as-of", "2026-03-05"], journal: journal)
        #expect(before.status == 1)
        #expect(
            before.standardError
                == "liftledger: error: there was no workout 2 as of 2026-03-05; give a later --as-of, or leave it out "
                + "to see it as it is now\n")
        #expect(try ok(["show", "2", "--as-of", "2026-03-09"], journal: journal).standardOutput.contains("B"))
        // A workout there is not now either: no later --as-of would show it.
        for arguments in [["show", "3"], ["show", "3", "--as-of", "2026-03-05"]] {
            let never = try liftledger(arguments, journal: journal)
            #expect(
                never.standardError == "liftledger: error: no workout 3; see the workouts with liftledger history\n",
                "\(arguments)")
        }
    }

    /// `--as-of` a date answers for that local day, whatever time zone the rules had then; a day or an instant still
    /// to come answers as of the head, today, as a position past the head does (docs/RULES.md).
    @Test func asOfADateIsForThatDayAndOneStillToComeIsForToday() throws {
        let journal = directory.child("journal")
        _ = try ok(["init"], journal: journal)
        let file = directory.child("two.csv")
        try Data(
            """
            Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,RPE
            2026-11-15 21:00:00,Late,60m,Bench Press (Barbell),1,100,5,0,0,
            2026-11-16 03:00:00,Early,60m,Bench Press (Barbell),1,60,5,0,0,
            2026-11-16 20:00:00,Next,60m,Bench Press (Barbell),1,50,5,0,0,

            """.utf8
        ).write(to: URL(fileURLWithPath: file))
        _ = try ok(["import", file, "--unit", "kg"], journal: journal)
        // The zone set west of UTC after the workouts, as after an import: the date is read in it, and the rules in
        // force on that day are UTC's.
        _ = try ok(["profile", "set", "--time-zone", "America/Los_Angeles"], journal: journal)
        func streak(_ arguments: [String]) throws -> String {
            try ok(["streak", "--json"] + arguments, journal: journal).standardOutput
        }
        let asOfDate = try #require(
            try JSONSerialization.jsonObject(with: Data(try streak(["--as-of", "2026-11-15"]).utf8)) as? [String: Any])
        #expect(asOfDate["today"] as? String == "2026-11-15")
        // The workouts by the end of November 15 in UTC, the zone then: Late alone. Early, at 03:00 UTC on the 16th,
        // is 19:00 on the 15th in Los Angeles: a day read in the zone set later would take it in.
        func names(asOf date: String) throws -> [String] {
            try ok(["history", "--json", "--as-of", date], journal: journal).standardOutput.split(separator: "\n").map {
                let workout = try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
                return try #require(workout?["name"] as? String)
            }
        }
        #expect(try names(asOf: "2026-11-15") == ["Late"])
        #expect(try names(asOf: "2026-11-16") == ["Late", "Early", "Next"])
        let now = try streak([])
        for future in ["2999-01-01", "2999-01-01T00:00:00Z", "999999", "18446744073709551616"] {
            #expect(try streak(["--as-of", future]) == now, "\(future)")
        }
        // Each says so on standard error, so that a mistyped point is not taken for one of the past: a date without
        // its dashes reads as a position, and is pointed to the date.
        let head = try #require(try headPosition(try ok(["stats", "--json"], journal: journal).standardOutput))
        for (future, note) in [
            ("2999-01-01", "--as-of 2999-01-01 is still to come; answering as of now"),
            ("999999", "--as-of 999999 is past the journal's head (position \(head)); answering as of the head"),
            (
                "20261115",
                "--as-of 20261115 is past the journal's head (position \(head)); answering as of the head; for the "
                    + "date, write 2026-11-15"
            ),
        ] {
            let answer = try ok(["streak", "--as-of", future], journal: journal)
            #expect(answer.standardError == "liftledger: note: \(note)\n")
        }
        #expect(try ok(["streak", "--as-of", "3"], journal: journal).standardError.isEmpty)
        // Today, in the profile's zone, is no point still to come, though its end is.
        let today = try #require(try jsonObject(try streak([]))["today"] as? String)
        #expect(try ok(["streak", "--as-of", today], journal: journal).standardError.isEmpty)
        // The zone set before the import, which reads the file's times in it: a day before it was set is read in it
        // too, as without --as-of. In Los Angeles the times stand as written: Late on the 15th, Early and Next on the
        // 16th (Next, at 04:00Z on the 17th, is past the end of the 16th in UTC, the zone without the fallback).
        let first = directory.child("zone-first")
        _ = try ok(["init"], journal: first)
        _ = try ok(["profile", "set", "--time-zone", "America/Los_Angeles"], journal: first)
        _ = try ok(["import", file, "--unit", "kg"], journal: first)
        let dates = try ok(["history", "--json", "--as-of", "2026-11-16"], journal: first).lines.map {
            try #require(try jsonObject($0)["date"] as? String)
        }
        #expect(dates == ["2026-11-15", "2026-11-16", "2026-11-16"])
        #expect(
            try ok(["history", "--json"], journal: first).lines.map { try jsonObject($0)["date"] as? String } == dates)
    }

    /// On the day of a move east, an answer `--as-of` that day holds what was logged before the move, on that day, and
    /// nothing after it. Honolulu (UTC−10) then Kiritimati (UTC+14), a day ahead: Kiritimati's today ended when
    /// Honolulu's began, while Honolulu was in force; Honolulu's today ends after the move, when Kiritimati is.
    /// Neither zone is in force at its own end of the day, which ends at the move: the workout logged before it is
    /// Honolulu's today, the one logged after it Kiritimati's tomorrow.
    @Test func asOfTheDayOfAMoveEastEndsAtTheMove() throws {
        let journal = directory.child("journal")
        _ = try ok(["init"], journal: journal)
        _ = try ok(["profile", "set", "--time-zone", "Pacific/Honolulu"], journal: journal)
        for (name, zone) in [("Before", "Pacific/Kiritimati"), ("After", nil)] {
            _ = try ok(["start", "--name", name], journal: journal)
            _ = try ok(["log", "squat", "100kg", "x", "5"], journal: journal)
            _ = try ok(["finish"], journal: journal)
            if let zone { _ = try ok(["profile", "set", "--time-zone", zone], journal: journal) }
        }
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd"
        formatter.timeZone = TimeZone(identifier: "Pacific/Honolulu")
        let today = formatter.string(from: Date())
        let workouts = try ok(["history", "--json", "--as-of", today], journal: journal).lines.map {
            let workout = try jsonObject($0)
            return "\(workout["name"] as? String ?? "?") \(workout["date"] as? String ?? "?")"
        }
        #expect(workouts == ["Before \(today)"])
        let streak = try jsonObject(try ok(["streak", "--json", "--as-of", today], journal: journal).standardOutput)
        #expect(streak["today"] as? String == today)
    }

    /// A custom exercise an import adds today counts as of a date of its workouts, years before: by name and muscles.
    @Test func anImportedCustomExerciseCountsAsOfItsWorkoutsDates() throws {
        let journal = directory.child("journal")
        _ = try ok(["init"], journal: journal)
        let file = directory.child("fitnotes.csv")
        try Data(
            """
            Date,Exercise,Category,Weight,Weight Unit,Reps,Distance,Distance Unit,Time,Comment
            2025-01-06,Sissy Squats,Legs,20.0,kgs,10,,,,
            2025-01-06,Barbell Squat,Legs,60.0,kgs,5,,,,

            """.utf8
        ).write(to: URL(fileURLWithPath: file))
        _ = try ok(["import", file], journal: journal)
        let asOf = ["--as-of", "2025-01-12", "--json"]
        // By hand: the week of Monday 2025-01-06 holds one set of each; FitNotes' Legs makes the quadriceps the
        // custom exercise's primary muscle, as they are Barbell Squat's: 2 sets, 20 × 10 + 60 × 5 = 500 kg.
        let balance = try jsonObject(try ok(["balance", "--weeks", "1"] + asOf, journal: journal).standardOutput)
        let quadriceps = try #require(
            (balance["muscles"] as? [[String: Any]])?.first { $0["muscle"] as? String == "quadriceps" })
        #expect(quadriceps["sets"] as? Double == 2 && quadriceps["volumeKilograms"] as? Double == 500)
        let names = try ok(["prs"] + asOf, journal: journal).lines.map { try jsonObject($0)["name"] as? String }
        #expect(names.contains("Sissy Squats"), "\(names)")
        _ = try ok(["progress", "Sissy Squats"] + asOf, journal: journal)
    }

    /// `rebuild --dry-run` on read models that agree with a full replay: no JSON line on standard output, and the count,
    /// for people, on standard error.
    @Test func aDryRunRebuildKeepsItsCountOffTheJSONLines() throws {
        let journal = directory.child("journal")
        _ = try ok(["init"], journal: journal)
        _ = try ok(["start"], journal: journal)
        _ = try ok(["log", "squat", "100kg", "x", "5"], journal: journal)
        _ = try ok(["finish"], journal: journal)
        let replay = try ok(["rebuild", "--dry-run"], journal: journal)
        #expect(replay.standardOutput.isEmpty)
        #expect(
            replay.standardError.hasSuffix("0 differences from a full replay, and every table's rows the same\n"),
            "\(replay.standardError)")
    }

    /// With no time zone in the profile, each process counts days in its system's: a query under another `TZ`
    /// rebuilds the read models, and says why, with the fix, as the dry runs of `rebuild` and `rules set` do. Under the
    /// same `TZ` again, or with the profile's zone set, it says nothing.
    @Test func aQueryInAnotherSystemTimeZoneSaysWhyItRebuilds() throws {
        let journal = directory.child("journal")
        _ = try ok(["init"], journal: journal)
        _ = try ok(["start"], journal: journal)
        _ = try ok(["log", "squat", "100kg", "x", "5"], journal: journal)
        _ = try ok(["finish"], journal: journal)
        func history(_ zone: String) throws -> String {
            let result = try run(
                BuiltProgram.liftledger, ["history", "--journal", journal], environment: ["TZ": zone])
            #expect(result.status == 0, "\(result.standardError)")
            return result.standardError
        }
        #expect(try history("UTC").isEmpty)
        #expect(
            try history("Asia/Tokyo")
                == "liftledger: note: rebuilt the read models, which another process built in its time zone, in "
                + "this one's (Asia/Tokyo); set one for every process with liftledger profile set --time-zone\n")
        #expect(try history("Asia/Tokyo").isEmpty)
        // The dry runs say so too: they compared, without a word, a replay with read models they had just rebuilt.
        func note(_ zone: String) -> String {
            "liftledger: note: rebuilt the read models, which another process built in its time zone, in this one's "
                + "(\(zone)); set one for every process with liftledger profile set --time-zone\n"
        }
        let dryRebuild = try run(
            BuiltProgram.liftledger, ["rebuild", "--dry-run", "--journal", journal],
            environment: ["TZ": "Europe/Paris"])
        #expect(
            dryRebuild.status == 0
                && dryRebuild.standardError
                    == note("Europe/Paris") + "0 differences from a full replay, and every table's rows the same\n",
            "\(dryRebuild.standardError)")
        let dryRule = try run(
            BuiltProgram.liftledger, ["rules", "set", "e1rm.formula", "brzycki", "--dry-run", "--journal", journal],
            environment: ["TZ": "Asia/Tokyo"])
        #expect(dryRule.status == 0 && dryRule.standardError == note("Asia/Tokyo"), "\(dryRule.standardError)")
        _ = try ok(["profile", "set", "--time-zone", "Europe/Berlin"], journal: journal)
        #expect(try history("UTC").isEmpty)
        #expect(try history("Asia/Tokyo").isEmpty)
    }

    /// `rebuild --dry-run` compares every row of every table with a replay, not only the figures of records, streaks
    /// and weeks: a `history` row lost from the live read model (taken out here through LMDB) went unreported, while
    /// `history` listed one workout fewer.
    @Test func aDryRunRebuildFindsARowMissingFromAnyTable() throws {
        let journal = directory.child("journal")
        _ = try ok(["init"], journal: journal)
        for weight in ["100kg", "105kg"] {
            _ = try ok(["start"], journal: journal)
            _ = try ok(["log", "squat", weight, "x", "5"], journal: journal)
            _ = try ok(["finish"], journal: journal)
        }
        let slot = try #require(
            try ok(["projections", "--json"], journal: journal).lines.map(jsonObject)
                .first { $0["name"] as? String == "training" }?["slot"] as? Int)
        let environment = try Environment.open(path: journal)
        let tables = try environment.openDatabases(
            ["history", "meta", "days"].map { "rm.training.\($0).\(slot)" }, create: false)
        try environment.write { transaction in
            try transaction.withCursor(on: tables[0]) { cursor in
                _ = try #require(try cursor.first())
                try cursor.deleteCurrent()
            }
            // A row the replay has not, and the one day's count (2) changed: each its own kind of difference.
            _ = try transaction.put([1], forKey: Array("stray".utf8), in: tables[1])
            let day = try #require(try transaction.withCursor(on: tables[2]) { try $0.first().map { Array($0.key) } })
            _ = try transaction.put([0, 0, 0, 0, 0, 0, 0, 9], forKey: day, in: tables[2])
        }
        #expect(try ok(["history"], journal: journal).lines.count == 1 + 1)  // a header and one workout
        // Rows that differ are a read model gone wrong: the status says so to a script (it was 0), as verify's does.
        let replay = try liftledger(["rebuild", "--dry-run"], journal: journal)
        #expect(replay.status == 1)
        #expect(
            try replay.lines.map(jsonObject).map { $0 as NSDictionary } == [
                ["table": "training.meta", "rowsOnlyInCurrent": 1, "rowsOnlyInReplay": 0, "rowsChanged": 0],
                ["table": "training.history", "rowsOnlyInCurrent": 0, "rowsOnlyInReplay": 1, "rowsChanged": 0],
                ["table": "training.days", "rowsOnlyInCurrent": 0, "rowsOnlyInReplay": 0, "rowsChanged": 1],
            ])
        #expect(
            replay.standardError.hasSuffix(
                "0 differences from a full replay, and 3 tables whose rows differ (liftledger rebuild writes them "
                    + "anew)\n"), "\(replay.standardError)")
        _ = try ok(["rebuild"], journal: journal)
        #expect(try ok(["history"], journal: journal).lines.count == 1 + 2)
        #expect(try ok(["rebuild", "--dry-run"], journal: journal).standardOutput.isEmpty)
    }

    /// Every estimate record `exercise` has had, by the set that made it (`recordHistory/ID/e1rm/WORKOUT set N`), from
    /// `why --json`.
    func estimates(_ exercise: String, _ journal: String, asOf: String? = nil) throws -> [String: String] {
        let arguments = ["why", exercise, "e1rm", "--json"] + (asOf.map { ["--as-of", $0] } ?? [])
        let output = try liftledger(arguments, journal: journal)
        // An exercise with no estimate (cardio, or only sets past the rule's reps) has nothing to list.
        guard output.status == 0 else {
            #expect(output.standardError.contains("no e1rm record"), "\(exercise): \(output.standardError)")
            return [:]
        }
        let why = try #require(
            try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
        var estimates: [String: String] = [:]
        for entry in why["records"] as? [[String: Any]] ?? [] {
            let record = try #require(entry["record"] as? [String: Any])
            let workout = try #require(record["workoutId"] as? String)
            let set = try #require(record["set"] as? Int)
            estimates["recordHistory/\(exercise)/e1rm/\(workout) set \(set)"] = record["value"] as? String
        }
        return estimates
    }

    /// Every record's value by exercise and kind (`records/ID/KIND`), from `prs --json`.
    func figures(_ journal: String, asOf: String? = nil) throws -> [String: String] {
        var figures: [String: String] = [:]
        let arguments = ["prs", "--json", "--rep-maxes"] + (asOf.map { ["--as-of", $0] } ?? [])
        for line in try ok(arguments, journal: journal).lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let id = try #require(object["exerciseId"] as? String)
            for record in object["records"] as? [[String: Any]] ?? [] {
                figures["records/\(id)/\(record["kind"] as? String ?? "")"] = record["value"] as? String
            }
        }
        return figures
    }

    func headPosition(_ stats: String) throws -> UInt64? {
        let object = try JSONSerialization.jsonObject(with: Data(stats.utf8)) as? [String: Any]
        return (object?["headPosition"] as? Int).map(UInt64.init)
    }
}
