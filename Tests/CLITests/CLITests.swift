import EventJournal
import Foundation
import LMDB
import TestSupport
import Testing

/// The `liftledger` binary, run as a user would.
struct CLITests {
    static let straceWorks = (try? run("/usr/bin/strace", ["-o", "/dev/null", "/bin/true"]))?.status == 0

    let directory: TemporaryDirectory
    let journal: String

    init() throws {
        directory = try TemporaryDirectory()
        journal = directory.child("journal")
        let created = try liftledger(["init"], journal: journal)
        #expect(created.status == 0 && created.standardOutput.contains("created journal"))
    }

    @Test func appendedEventsComeBackAsDocumentedJSON() throws {
        let appended = try liftledger(
            [
                "append", "--stream", "workout-1", "--type", "SetLogged", "--data",
                #"{"reps": 5, "note": "grind\u00e9"}"#,
                "--occurred-at", "2020-01-02T03:04:05.5Z", "--correlation-id", "c-1", "--json",
            ], journal: journal)
        #expect(appended.status == 0, "\(appended.standardError)")
        #expect(try jsonObject(appended.lines[0])["position"] as? Int == 1)
        let events = try liftledger(["events", "--json"], journal: journal)
        let record = try jsonObject(events.lines[0])
        #expect(record["streamId"] as? String == "workout-1")
        #expect(record["streamVersion"] as? Int == 1)
        #expect(record["type"] as? String == "SetLogged")
        #expect(record["occurredAt"] as? String == "2020-01-02T03:04:05.500000Z")
        #expect((record["metadata"] as? [String: String])?["correlationId"] == "c-1")
        #expect((record["metadata"] as? [String: String])?["source"] == "cli")
        #expect((record["payload"] as? [String: Any])?["note"] as? String == "grind\u{e9}")
        #expect((record["hash"] as? String)?.count == 64)
        let statistics = try jsonObject(try liftledger(["stats", "--json"], journal: journal).lines[0])
        #expect(statistics["events"] as? Int == 1 && statistics["headHash"] as? String == record["hash"] as? String)
        let verify = try liftledger(["verify"], journal: journal)
        #expect(verify.status == 0 && verify.standardOutput.hasPrefix("ok: 1 record in 1 stream,"))
    }

    /// A path not in UTF-8 (Linux paths are bytes) is refused, with status 64 and nothing made, as an argument and as
    /// `LIFTLEDGER_JOURNAL`: read as a Swift string, its byte 0xE9 became U+FFFD, and `init` made a directory of
    /// another name, which `j_\xe8` opened too. The shell's `printf` writes the byte.
    @Test func aPathNotInUTF8IsRefusedNotReadAsAnother() throws {
        let parent = try TemporaryDirectory()
        let asArgument = try run(
            "/bin/sh",
            ["-c", #"exec "$0" init --journal "$1/$(printf 'j_\351')""#, BuiltProgram.liftledger, parent.path])
        #expect(asArgument.status == 64)
        let shown = (parent.path + "/j_\u{FFFD}").debugDescription
        #expect(
            asArgument.standardError
                == "liftledger: error: argument 3 (\(shown)) is not UTF-8 (read so, a path would name another "
                + "file, a name or note would be stored otherwise); give it in UTF-8, and rename a file or directory "
                + "whose name is not\n")
        let asVariable = try run(
            "/bin/sh",
            ["-c", #"LIFTLEDGER_JOURNAL="$1/$(printf 'j_\351')" exec "$0" init"#, BuiltProgram.liftledger, parent.path])
        #expect(asVariable.status == 64)
        #expect(asVariable.standardError.hasPrefix("liftledger: error: $LIFTLEDGER_JOURNAL is not UTF-8"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path).isEmpty)
    }

    /// An `init` whose path fails part of the way (a name longer than a file system takes, 255 bytes) leaves none of
    /// the directories it made before it: they stayed, empty.
    @Test func anInitThatFailsLeavesNoDirectoriesMade() throws {
        let parent = try TemporaryDirectory()
        let failed = try liftledger(["init"], journal: parent.path + "/a/b/" + String(repeating: "c", count: 300))
        #expect(failed.status == 1)
        #expect(failed.standardError.contains("File name too long"), "\(failed.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path).isEmpty)
    }

    /// A payload stored as JSON before `append` checked it against RFC 8259 (a trailing comma, which Foundation's
    /// parser on Linux reads) is given as its bytes alone: `events --json` printed it as JSON that `jq` refuses.
    @Test func aJSONPayloadOnlyALenientParserReadsIsGivenAsItsBytes() async throws {
        _ = try await Journal.open(at: journal, create: true).append(
            [ProposedEvent(type: "T", encoding: .json, payload: Array("[1,2,]".utf8))], to: "lenient")
        let line = try jsonObject(try liftledger(["events", "--json"], journal: journal).lines[0])
        #expect(line["payload"] == nil)
        #expect(line["payloadBase64"] as? String == Data("[1,2,]".utf8).base64EncodedString())
    }

    @Test func badInputIsOneLineNonZeroAndWritesNothing() throws {
        let id = UUID().uuidString
        let seeded = try liftledger(
            ["append", "--stream", "w-1", "--type", "T", "--data", "{}", "--id", id], journal: journal)
        #expect(seeded.status == 0)
        let before = try snapshot(of: journal)["data.mdb"]
        let cases: [(String, [String], String)] = [
            ("wrong expected version", ["--expected-version", "5"], "retry with expected version 1"),
            ("duplicate id, other content", ["--id", id, "--data", #"{"other": true}"#], "already stored"),
            ("invalid JSON", ["--data", "{reps: 5"], "pass one JSON value"),
            // Foundation's parser on Linux reads these; Python's `json` and `jq` do not.
            ("a trailing comma in an array", ["--data", "[1,2,]"], "pass one JSON value"),
            ("a trailing comma in an object", ["--data", #"{"a":[1],}"#], "pass one JSON value"),
            (
                "JSON nested 513 deep",
                ["--data", String(repeating: "[", count: 513) + String(repeating: "]", count: 513)],
                "nest them at most 512 deep"
            ),
            ("an id that is not a UUID", ["--id", "not-a-uuid"], "is not a UUID; pass one such as"),
            ("a time that is not RFC 3339", ["--occurred-at", "yesterday"], "write it like"),
            ("a stream id with a newline", ["--stream", "a\nb"], "without control characters"),
            ("an expected version that is not one", ["--expected-version", "soon"], "see liftledger append --help"),
        ]
        for (name, override, hint) in cases {
            var arguments = ["append", "--stream", "w-1", "--type", "T", "--data", "{}"]
            for pair in stride(from: 0, to: override.count, by: 2) {
                if let index = arguments.firstIndex(of: override[pair]) {
                    arguments[index + 1] = override[pair + 1]
                } else {
                    arguments += [override[pair], override[pair + 1]]
                }
            }
            let result = try liftledger(arguments, journal: journal)
            #expect(result.status != 0, "\(name)")
            #expect(result.standardOutput.isEmpty, "\(name)")
            let lines = result.standardError.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].hasPrefix("liftledger: error: "), "\(name): \(result.standardError)")
            #expect(result.standardError.contains(hint), "\(name): \(result.standardError)")
        }
        // An id not of the option's type is refused as the command line is read, as README.md says: status 64.
        let notAnID = try liftledger(
            ["append", "--stream", "w-1", "--type", "T", "--data", "{}", "--id", "not-a-uuid"], journal: journal)
        #expect(notAnID.status == 64)
        #expect(try snapshot(of: journal)["data.mdb"] == before)
        #expect(try jsonObject(try liftledger(["stats", "--json"], journal: journal).lines[0])["events"] as? Int == 1)
    }

    @Test func aMissingOrForeignDirectoryIsRefusedUntouched() throws {
        let missing = directory.child("missing")
        let result = try liftledger(["events"], journal: missing)
        #expect(result.status != 0 && result.standardError.contains("no journal at \(missing)"))
        #expect(result.standardError.contains("liftledger init"))
        #expect(!FileManager.default.fileExists(atPath: missing))

        let foreign = directory.child("foreign")
        try FileManager.default.createDirectory(atPath: foreign, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: foreign + "/photo.jpg"))
        let before = try snapshot(of: foreign)
        for arguments in [["events"], ["init"], ["append", "--stream", "s", "--type", "T", "--data", "{}"]] {
            let refused = try liftledger(arguments, journal: foreign)
            #expect(refused.status != 0 && refused.standardError.contains("holds other files and no journal"))
            #expect(refused.standardError.split(separator: "\n").count == 1)
        }
        #expect(try snapshot(of: foreign) == before)

        // A directory where LMDB's lock file belongs is named, where LMDB said "Is a directory" alone.
        let locked = directory.child("locked")
        #expect(try liftledger(["init"], journal: locked).status == 0)
        try FileManager.default.removeItem(atPath: locked + "/lock.mdb")
        try FileManager.default.createDirectory(atPath: locked + "/lock.mdb", withIntermediateDirectories: false)
        let lockDirectory = try liftledger(["stats"], journal: locked)
        #expect(
            lockDirectory.status == 1
                && lockDirectory.standardError
                    == "liftledger: error: \(locked)/lock.mdb is a directory, where the journal keeps a file; move it "
                    + "away, or point --journal at another directory\n",
            "\(lockDirectory.standardError)")

        // A path through a file, or a link to nothing, says which part is in the way (not Foundation's error 512).
        let file = directory.child("file")
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        let throughFile = try liftledger(["init"], journal: file + "/journal")
        #expect(throughFile.status == 1 && throughFile.standardError.contains(": \(file) is a file; "))
        let dangling = directory.child("dangling")
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: directory.child("nowhere"))
        let throughLink = try liftledger(["init"], journal: dangling)
        #expect(
            throughLink.status == 1
                && throughLink.standardError.contains(": \(dangling) is a symbolic link to nothing;"))
    }

    /// Two `init`s at once on a new directory, and a command beside them: each `init` creates the journal or finds it
    /// made (neither takes the half-made one for something else), the command finds it or none, and it verifies.
    @Test func initsAtOnceBothFindTheJournal() throws {
        for round in 1...15 {
            let path = directory.child("race-\(round)")
            let started = try [["init"], ["init"], ["stats"]].map {
                try ProgramHandle(BuiltProgram.liftledger, $0 + ["--journal", path])
            }
            let results = started.map { $0.wait() }
            for result in results.prefix(2) {
                #expect(result.status == 0, "round \(round): \(result.standardError)")
            }
            #expect(
                results[2].status == 0 || results[2].standardError.contains("no journal at"),
                "round \(round): \(results[2].standardError)")
            #expect(try liftledger(["verify"], journal: path).status == 0)
        }
    }

    @Test func theJournalDefaultsToTheEnvironmentVariable() throws {
        let result = try run(
            BuiltProgram.liftledger, ["append", "--stream", "s", "--type", "T", "--data", "1"],
            environment: ["LIFTLEDGER_JOURNAL": journal])
        #expect(result.status == 0)
        #expect(try liftledger(["events", "--json"], journal: journal).lines.count == 1)
    }

    /// A demo stopped midway (Ctrl-C), or whose reader goes away, removes its temporary journal as a finished one does.
    @Test func anInterruptedDemoLeavesNoJournalBehind() throws {
        let temporary = directory.child("tmp")
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: false)
        let demo = try ProgramHandle(BuiltProgram.liftledger, ["demo"], environment: ["TMPDIR": temporary])
        // Interrupted once its journal is there, while it imports.
        let deadline = ContinuousClock.now + .seconds(30)
        while try FileManager.default.contentsOfDirectory(atPath: temporary).isEmpty, ContinuousClock.now < deadline {
            usleep(10_000)
        }
        kill(demo.processIdentifier, SIGINT)
        // Ended by the signal, as a shell's loop needs to see to stop.
        #expect(demo.wait().signal == SIGINT)
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary).isEmpty)
        // Its output cut short by a reader gone.
        let cut = try run(
            "/bin/sh", ["-c", "\"$0\" demo | head -1", BuiltProgram.liftledger], environment: ["TMPDIR": temporary])
        #expect(cut.status == 0 && cut.standardOutput.hasPrefix("A fresh journal at "))
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary).isEmpty)
    }

    /// An export or a backup stopped midway (Ctrl-C, SIGTERM) leaves nothing of its own: no partial file beside the
    /// target (8 MB of personal data, before), no staging directory, no destination it made. Each is stopped once
    /// what it writes is there; one that finished first (a backup whose copy was in place when the signal came) is
    /// tried again, up to five times. The export's partial file is made in place: Foundation's `createFile` made a file
    /// of another name first, which a signal left behind.
    @Test func anInterruptedExportOrBackupLeavesNothingBehind() throws {
        for (export, unit) in [("hevy-kg-2022-2026.csv", "kg"), ("strong-zh-2020-2023.csv", "lb")] {
            let imported = try liftledger(
                ["import", repositoryRoot + "/Fixtures/exports/" + export, "--unit", unit], journal: journal)
            #expect(imported.status == 0, "\(imported.standardError)")
        }
        func stop(
            _ arguments: [String], once path: @escaping () -> String?, with signal: Int32
        ) throws -> ProgramResult {
            let program = try ProgramHandle(BuiltProgram.liftledger, arguments + ["--journal", journal])
            let deadline = ContinuousClock.now + .seconds(30)
            while path().map({ !FileManager.default.fileExists(atPath: $0) }) ?? true, ContinuousClock.now < deadline {
                usleep(1_000)
            }
            kill(program.processIdentifier, signal)
            return program.wait()
        }
        // An export that finished before the signal came (on a machine slowed down) is tried again.
        var exportsStopped = 0
        for attempt in 1...5 where exportsStopped == 0 {
            let exports = directory.child("exports-\(attempt)")
            try FileManager.default.createDirectory(atPath: exports, withIntermediateDirectories: false)
            let target = exports + "/all.jsonl"
            let exported = try stop(
                ["export", "--format", "jsonl", "--output", target],
                once: {
                    (try? FileManager.default.contentsOfDirectory(atPath: exports))?.first.map { exports + "/" + $0 }
                },
                with: SIGINT)
            guard !FileManager.default.fileExists(atPath: target) else { continue }
            exportsStopped += 1
            // Ended by the signal, as a shell's loop needs to see to stop.
            #expect(exported.signal == SIGINT)
            #expect(try FileManager.default.contentsOfDirectory(atPath: exports).isEmpty, "attempt \(attempt)")
        }
        #expect(exportsStopped == 1, "every export finished before it was stopped")

        var stopped = 0
        for attempt in 1...5 where stopped == 0 {
            let destination = directory.child("backup-\(attempt)")
            let result = try stop(
                ["backup", destination],
                once: {
                    (try? FileManager.default.contentsOfDirectory(atPath: destination))?.first.map {
                        destination + "/" + $0
                    }
                },
                with: SIGTERM)
            let left = (try? FileManager.default.contentsOfDirectory(atPath: destination)) ?? []
            if result.signal == SIGTERM, left != ["data.mdb"] {
                stopped += 1
                #expect(!FileManager.default.fileExists(atPath: destination), "attempt \(attempt): \(left)")
            } else {
                // Finished first: the copy in place, and the signal (if it came) after it, as the process ended.
                let verified = try liftledger(["verify"], journal: destination).status
                #expect((result.status == 0 || result.signal == SIGTERM) && verified == 0, "attempt \(attempt)")
            }
        }
        #expect(stopped == 1, "every backup finished before it was stopped")
    }

    /// A demo given a directory without the exports prints its error alone, having made no journal.
    @Test func aDemoWithoutItsExportsIsRefusedBeforeItBegins() throws {
        let empty = directory.child("no-exports")
        let temporary = directory.child("tmp")
        for made in [empty, temporary] {
            try FileManager.default.createDirectory(atPath: made, withIntermediateDirectories: false)
        }
        let result = try run(
            BuiltProgram.liftledger, ["demo", "--fixtures", empty], environment: ["TMPDIR": temporary])
        #expect(result.status == 1 && result.standardOutput.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary).isEmpty)
        #expect(
            result.standardError == "liftledger: error: cannot read \(empty)/strong-2026.csv; give --fixtures a "
                + "directory holding the four exports of Fixtures/exports\n")
    }

    /// Without LIFTLEDGER_JOURNAL, a relative XDG_DATA_HOME is passed over (the XDG Base Directory specification says to
    /// ignore it) for the home directory's `.local/share`.
    @Test func aRelativeDataHomeIsPassedOver() throws {
        let home = directory.child("home")
        let result = try run(
            BuiltProgram.liftledger, ["stats"],
            environment: ["LIFTLEDGER_JOURNAL": "", "XDG_DATA_HOME": "relative", "HOME": home])
        #expect(result.status == 1)
        #expect(
            result.standardError.contains("no journal at \(home)/.local/share/liftledger;"), "\(result.standardError)")
    }

    /// Output that cannot be written (a full device) is one line on standard error and status 1, not a crash; what
    /// the command wrote before stays.
    @Test func outputThatCannotBeWrittenIsOneLineAndStatusOne() throws {
        #expect(
            try liftledger(["append", "--stream", "s", "--type", "T", "--data", "1"], journal: journal).status == 0)
        let result = try run(
            "/bin/sh", ["-c", "exec \"$0\" events --journal \"$1\" > /dev/full", BuiltProgram.liftledger, journal])
        #expect(result.status == 1)
        #expect(
            result.standardError == "liftledger: error: cannot write to standard output (No space left on device); "
                + "make room or send it elsewhere\n")
        // A closed standard output stays closed: the descriptor is not left for the next file opened to take (a
        // dispatch eventfd took it, and the output went there: "Invalid argument").
        let closed = try run(
            "/bin/sh", ["-c", "exec \"$0\" events --journal \"$1\" >&-", BuiltProgram.liftledger, journal])
        #expect(closed.status == 1)
        #expect(
            closed.standardError.hasPrefix("liftledger: error: cannot write to standard output (Bad file descriptor)"),
            "\(closed.standardError)")
        // A command that recorded before it printed says so: run again, it would record twice.
        let appended = try run(
            "/bin/sh",
            [
                "-c", "exec \"$0\" append --stream s --type T --data 2 --journal \"$1\" > /dev/full",
                BuiltProgram.liftledger, journal,
            ])
        #expect(appended.status == 1)
        #expect(
            appended.standardError == "liftledger: error: cannot write to standard output (No space left on device); "
                + "make room or send it elsewhere, and before running it again see liftledger events: what it was to "
                + "record is recorded\n")
        #expect(try liftledger(["events", "--json"], journal: journal).lines.count == 2)
        // A reader gone, with SIGPIPE ignored: the same, with the system's reason. The pipe's reading end is closed
        // before the program starts, so that its first write fails.
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()
        let errors = Pipe()
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/sh")
        gone.arguments = ["-c", "trap '' PIPE; exec \"$0\" events --journal \"$1\"", BuiltProgram.liftledger, journal]
        (gone.standardOutput, gone.standardError) = (pipe, errors)
        try gone.run()
        try pipe.fileHandleForWriting.close()
        gone.waitUntilExit()
        let goneError = String(decoding: try errors.fileHandleForReading.readToEnd() ?? Data(), as: UTF8.self)
        #expect(gone.terminationStatus == 1)
        #expect(
            goneError.hasPrefix("liftledger: error: cannot write to standard output (Broken pipe); "), "\(goneError)")
        // A query as of a position, which replays into a scratch store, leaves none behind when it exits so.
        let temporary = directory.child("tmp")
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: false)
        let asOf = try run(
            "/bin/sh",
            ["-c", "exec \"$0\" history --as-of 1 --journal \"$1\" > /dev/full", BuiltProgram.liftledger, journal],
            environment: ["TMPDIR": temporary])
        #expect(asOf.status == 1 && asOf.standardError.contains("cannot write to standard output"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary).isEmpty)
        // An export through a file says so.
        let file = directory.child("a-file")
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        let through = try liftledger(["export", "--format", "jsonl", "--output", file + "/x.jsonl"], journal: journal)
        #expect(through.status == 1 && through.standardError.contains(": \(file) is a file, not a directory; "))
        // An export to such a file says the system's reason, not Foundation's error.
        let export = try liftledger(["export", "--format", "jsonl", "--output", "/dev/full"], journal: journal)
        #expect(export.status == 1)
        #expect(
            export.standardError == "liftledger: error: cannot write the export (No space left on device); "
                + "check the free space and the path, then export again\n")
    }

    @Test func twoProcessesRacingOnOneStreamWithExpectedVersionsEndGapless() throws {
        let racers = try (0..<2).map { writer in
            try ProgramHandle(
                BuiltProgram.harness,
                ["contend", "--journal", journal, "--stream", "shared", "--count", "1000", "--writer", "w\(writer)"])
        }
        for racer in racers { #expect(racer.wait().status == 0) }
        let records = try liftledger(["events", "--json", "--stream", "shared"], journal: journal).lines.map(jsonObject)
        #expect(records.count == 2_000)
        #expect(records.map { $0["streamVersion"] as? Int } == Array(1...2_000))
        for writer in ["w0", "w1"] {
            let sequence = records.compactMap { $0["payload"] as? [String: Any] }.filter {
                $0["writer"] as? String == writer
            }
            .map { $0["sequence"] as? Int }
            #expect(sequence == Array(0..<1_000), "each of \(writer)'s events exactly once, in order")
        }
        #expect(try liftledger(["verify"], journal: journal).status == 0)
    }

    @Test func followPrintsEventsAnotherProcessCommits() throws {
        _ = try liftledger(["append", "--stream", "s", "--type", "T", "--data", "0"], journal: journal)
        let follower = try ProgramHandle(
            BuiltProgram.liftledger, ["events", "--follow", "--json", "--limit", "3", "--journal", journal])
        Thread.sleep(forTimeInterval: 0.3)
        for value in ["1", "2"] {
            #expect(
                try liftledger(["append", "--stream", "t", "--type", "T", "--data", value], journal: journal).status
                    == 0)
        }
        let result = follower.wait(timeout: .seconds(20))
        #expect(result.status == 0)
        #expect(try result.lines.map { try jsonObject($0)["payload"] as? Int } == [0, 1, 2])
    }

    /// Commands that only read the journal do not wait for another process's write: opening a journal takes the
    /// write lock only to adopt a commit whose writer died, and there is none. This test holds the lock meanwhile.
    @Test func readingCommandsDoNotWaitForAWriter() throws {
        #expect(
            try liftledger(["append", "--stream", "s", "--type", "T", "--data", "1"], journal: journal).status == 0)
        let environment = try Environment.open(path: journal)
        try environment.write { _ in
            for arguments in [["stats"], ["events"], ["verify"]] {
                let result = try run(
                    BuiltProgram.liftledger, arguments + ["--journal", journal], timeout: .seconds(20))
                #expect(result.status == 0, "\(arguments) waited for the writer: \(result.standardError)")
            }
        }
    }

    /// A writing command waits for another process's write on a lock of the data file, not on LMDB's writer mutex: when
    /// a writer was killed, the mutex woke one waiter, and when that one was killed in turn before it took the mutex
    /// the others waited for ever (tools/crash-test's killed-writers rounds showed it). The waiting process shows in
    /// `/proc/locks`, blocked on the data file's lock, only when it waits there. The journal is created here, by the
    /// process that holds the write: the lock is taken on a data file its own opening made. After two seconds, the
    /// waiting command says on standard error which process it waits for (it waited with nothing said).
    @Test func aWriterWaitsForAnotherProcessOnTheDataFileLock() throws {
        let journal = directory.child("created-here")
        let environment = try Journal.open(at: journal, create: true).environment
        var status = stat()
        #expect(stat(journal + "/data.mdb", &status) == 0)
        let (writer, waitedOnTheLock) = try environment.write { _ in
            let writer = try ProgramHandle(
                BuiltProgram.liftledger,
                ["append", "--stream", "s", "--type", "T", "--data", "1", "--journal", journal])
            let deadline = ContinuousClock.now + .seconds(20)
            var waiting = false
            while !waiting && ContinuousClock.now < deadline {
                usleep(10_000)
                // A waiter's line: `2: -> FLOCK  ADVISORY  WRITE PID MAJOR:MINOR:INODE 0 EOF`.
                let locks = try String(contentsOfFile: "/proc/locks", encoding: .utf8)
                waiting = locks.split(separator: "\n").contains { line in
                    let fields = line.split(separator: " ")
                    return fields.count >= 7 && fields[1] == "->" && fields[2] == "FLOCK"
                        && fields[5] == "\(writer.processIdentifier)"
                        && fields[6].split(separator: ":").last == "\(status.st_ino)"
                }
            }
            Thread.sleep(forTimeInterval: 2.5)
            return (writer, waiting)
        }
        #expect(waitedOnTheLock)
        let appended = writer.wait(timeout: .seconds(20))
        #expect(appended.status == 0, "\(appended.standardError)")
        #expect(
            appended.standardError.hasPrefix("liftledger: waiting for process \(getpid()) (")
                && appended.standardError.contains("which is writing to the journal"), "\(appended.standardError)")
    }

    /// `--journal` before the command, where the top-level help introduces it, was refused as an unknown option: it is
    /// taken as if it followed the command's names, with a value of its own or after `=`.
    @Test func theJournalOptionMayComeBeforeTheCommand() throws {
        _ = try liftledger(["append", "--stream", "s", "--type", "T", "--data", "1"], journal: journal)
        let expected = try liftledger(["stats", "--json"], journal: journal).standardOutput
        for arguments in [["--journal", journal, "stats", "--json"], ["--journal=\(journal)", "stats", "--json"]] {
            let result = try run(BuiltProgram.liftledger, arguments)
            #expect(result.status == 0 && result.standardOutput == expected, "\(arguments): \(result.standardError)")
        }
        let nested = try run(BuiltProgram.liftledger, ["--journal", journal, "rules", "show", "--json"])
        #expect(nested.status == 0, "\(nested.standardError)")
    }

    @Test func aBackupVerifiesWithTheSameHead() throws {
        for index in 0..<20 {
            _ = try liftledger(
                ["append", "--stream", "s-\(index % 3)", "--type", "T", "--data", "\(index)"], journal: journal)
        }
        let destination = directory.child("backup")
        let backup = try liftledger(["backup", destination], journal: journal)
        #expect(backup.status == 0 && backup.standardOutput.hasPrefix("backed up 20 events"))
        let original = try jsonObject(try liftledger(["stats", "--json"], journal: journal).lines[0])
        let copy = try jsonObject(try liftledger(["stats", "--json"], journal: destination).lines[0])
        #expect(copy["headHash"] as? String == original["headHash"] as? String)
        #expect(copy["journalId"] as? String == original["journalId"] as? String)
        #expect(try liftledger(["verify"], journal: destination).status == 0)
        // Through a directory still to make and `..`: the check of where it lies went round for ever on it.
        let roundabout = try liftledger(["backup", directory.child("new") + "/../roundabout"], journal: journal)
        #expect(
            roundabout.status == 0 && FileManager.default.fileExists(atPath: directory.child("roundabout/data.mdb")))
        // A destination that is a file, or a directory with something in it, is refused for what it is; an empty
        // one (which put the copy at the file system's root) for being empty.
        let file = directory.child("file")
        #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
        // One inside the journal's directory, which goes wherever the journal goes, is refused too.
        for (target, hint) in [
            (file, "is a file"), (destination, "is not empty"), ("", "destination is empty"),
            (journal + "/../journal/copy", "is inside the journal's directory"),
        ] {
            let refused = try liftledger(["backup", target], journal: journal)
            #expect(refused.status == 1 && refused.standardError.contains(hint), "\(refused.standardError)")
        }
    }

    /// An `init` killed before its first commit leaves an LMDB environment with nothing stored in it, which every
    /// command, `init` too, then refused (after a wait for its maker) as "not a LiftLedger journal", a backup the
    /// remedy, though there never was a journal. `init` makes the journal in it; other commands say to run `init`.
    @Test func aJournalWhoseMakingWasCutShortIsMadeByTheNextInit() throws {
        let path = directory.child("cut-short")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        // What the killed `init` left: the data file's meta pages and the lock file, and no database.
        _ = try Environment.open(path: path)
        #expect(FileManager.default.fileExists(atPath: path + "/data.mdb"))
        let start = try liftledger(["start"], journal: path)
        #expect(start.status == 1)
        #expect(start.standardError.contains("the making of one was cut short; create one with: liftledger init"))
        let made = try liftledger(["init"], journal: path)
        #expect(made.status == 0 && made.standardOutput.contains(": created journal "), "\(made.standardError)")
        #expect(try liftledger(["init"], journal: path).standardOutput.contains(": already holds journal "))
        #expect(try liftledger(["start"], journal: path).status == 0)
        #expect(try liftledger(["verify"], journal: path).status == 0)
    }

    /// A backup is a compacted copy: its first meta page is an empty transaction 0, its second holds the journal. A
    /// changed byte of the second's transaction id (1 to 0) has LMDB go by the empty one, which read as a journal whose
    /// making was cut short, and the `init` that the error named wrote an empty journal over the backup. It is damage:
    /// every command says so at once, and names another copy, and `init` writes nothing. The offsets are lmdb.h's: a
    /// page header of 16 bytes, then the magic, version, address and map size (24 bytes), the free pages' and the main
    /// database's records (48 bytes each; the page size is the first's first field, at byte 40, and the main one's
    /// entries 32 bytes in, at 120), the last page, and the transaction id, at byte 144.
    @Test func aBackupWhoseMetaPageIsDamagedIsNotMadeAgainByInit() throws {
        try liftledger(["start"], journal: journal)
        try liftledger(["log", "squat", "100kg", "x", "5"], journal: journal)
        let backup = directory.child("backup")
        #expect(try liftledger(["backup", backup], journal: journal).status == 0)
        let file = backup + "/data.mdb"
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        func integer(_ offset: Int, _ size: Int) -> UInt64 {
            (0..<size).reduce(0) { $0 | UInt64(bytes[offset + $1]) << (8 * $1) }
        }
        let pageSize = Int(integer(40, 4))
        #expect(integer(144, 8) == 0 && integer(120, 8) == 0, "the first meta page: transaction 0, no database")
        #expect(integer(pageSize + 144, 8) == 1 && integer(pageSize + 120, 8) > 0, "the second: the journal's")
        bytes[pageSize + 144] ^= 1
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        for command in [["verify"], ["history"], ["init"], ["start"]] {
            let clock = ContinuousClock()
            let began = clock.now
            let refused = try liftledger(command, journal: backup)
            // Not after the 5 s a command waits for another process making a journal: there is no maker.
            #expect(clock.now - began < .seconds(4), "\(command)")
            #expect(refused.status == 1, "\(command)")
            #expect(
                refused.standardError.hasSuffix(
                    "is damaged: the meta page LMDB goes by holds no journal, while the other one holds it; keep the "
                        + "directory as it is, and use another copy: a backup, or the journal this one was backed up "
                        + "from\n"), "\(command): \(refused.standardError)")
        }
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: file))) == bytes)
    }

    /// A journal or a backup reported made survives a power cut only if the directories that name its files are on
    /// the disk too. Seen in the system calls (`strace -y` names each descriptor's path): every directory made is
    /// flushed into its parent after the `mkdir`, the journal's directory after the first commit's sync, the backup's
    /// copy before the rename that gives it its name, and the backup's directory after that rename.
    @Test(.enabled(if: straceWorks, "needs strace (tools/test installs it) and leave to trace; skipped"))
    func newJournalsAndBackupsAreFlushedIntoTheirDirectories() throws {
        let root = URL(fileURLWithPath: directory.path).resolvingSymlinksInPath().path
        let created = root + "/new/nested/journal"
        let initCalls = try systemCalls(of: ["init", "--journal", created])
        for (made, parent) in [
            (root + "/new", root), (root + "/new/nested", root + "/new"), (created, root + "/new/nested"),
        ] {
            let madeAt = index(in: initCalls, of: "mkdir(\"\(made)\"", "= 0")
            #expect(madeAt.flatMap { index(in: initCalls, of: "fsync(", "<\(parent)>)", "= 0", after: $0) } != nil)
        }
        let firstSync = index(in: initCalls, of: "data.mdb>)", "= 0")
        #expect(firstSync.flatMap { index(in: initCalls, of: "fsync(", "<\(created)>)", "= 0", after: $0) } != nil)

        let destination = root + "/backups/today"
        let backupCalls = try systemCalls(of: ["backup", destination, "--journal", journal])
        let madeAt = index(in: backupCalls, of: "mkdir(\"\(destination)\"", "= 0")
        #expect(madeAt.flatMap { index(in: backupCalls, of: "fsync(", "<\(root)/backups>)", after: $0) } != nil)
        let copySynced = index(in: backupCalls, of: "fsync(", "/.partial-", "/data.mdb>)", "= 0")
        let renamed = copySynced.flatMap {
            index(in: backupCalls, of: "rename", "\"\(destination)/data.mdb\"", "= 0", after: $0)
        }
        #expect(renamed.flatMap { index(in: backupCalls, of: "fsync(", "<\(destination)>)", "= 0", after: $0) } != nil)
    }

    /// A damaged page of a read model: `verify` said to run `rebuild`, which then died of SIGBUS (LMDB followed the
    /// page as it freed the tree). The remedy it gives now works: the records, exported, make a new journal whose
    /// answers are the undamaged journal's. The first page from the third on whose damage `verify` reports as a read
    /// model's is taken (two bytes of its first node's offset, as a reviewer damaged it).
    @Test func aDamagedReadModelPageHasARemedyThatWorks() throws {
        let original = directory.child("imported")
        #expect(try liftledger(["init"], journal: original).status == 0)
        let export = repositoryRoot + "/Fixtures/exports/strong-2026.csv"
        #expect(try liftledger(["import", export, "--unit", "kg"], journal: original).status == 0)
        let history = try liftledger(["history", "--json"], journal: original).standardOutput
        let data = try Data(contentsOf: URL(fileURLWithPath: original + "/data.mdb"))
        let damaged = directory.child("damaged")
        try FileManager.default.createDirectory(atPath: damaged, withIntermediateDirectories: false)
        var report: ProgramResult?
        for page in 2..<min(data.count / 4_096, 64) {
            var copy = data
            copy[page * 4_096 + 18] = 0x5A
            copy[page * 4_096 + 19] = 0xA5
            try copy.write(to: URL(fileURLWithPath: damaged + "/data.mdb"))
            let verify = try liftledger(["verify"], journal: damaged)
            if verify.standardError.contains("(a read model's") {
                report = verify
                break
            }
        }
        let found = try #require(report, "no page of the first 64 is a read model's")
        #expect(found.status == 1)
        #expect(found.standardError.contains("liftledger export --format jsonl --output FILE, then liftledger "))
        let records = directory.child("records.jsonl")
        #expect(try liftledger(["export", "--format", "jsonl", "--output", records], journal: damaged).status == 0)
        let copy = directory.child("copy")
        #expect(try liftledger(["import-journal", records], journal: copy).status == 0)
        #expect(try liftledger(["verify"], journal: copy).status == 0)
        #expect(try liftledger(["history", "--json"], journal: copy).standardOutput == history)
    }

    /// A query that LMDB's read of a damaged page crashes ends with one line naming `verify`, and status 1: it died of
    /// SIGSEGV with a crash report of seventy lines (a QA helper's case: a thousand bytes of 0xFF from byte 300 of a
    /// read model's page). The pages from the third on are damaged so in turn, each in a fresh copy, until a query
    /// crashes in LMDB; no query ends with a signal meanwhile.
    @Test func aQueryThatLMDBCrashesOnADamagedPageEndsWithOneLine() throws {
        let original = directory.child("imported")
        #expect(try liftledger(["init"], journal: original).status == 0)
        let export = repositoryRoot + "/Fixtures/exports/strong-2026.csv"
        #expect(try liftledger(["import", export, "--unit", "kg"], journal: original).status == 0)
        let data = try Data(contentsOf: URL(fileURLWithPath: original + "/data.mdb"))
        let damaged = directory.child("damaged")
        try FileManager.default.createDirectory(atPath: damaged, withIntermediateDirectories: false)
        var crashed: ProgramResult?
        pages: for page in 2..<min(data.count / 4_096, 64) {
            var copy = data
            copy.replaceSubrange(
                (page * 4_096 + 300)..<(page * 4_096 + 1_300), with: [UInt8](repeating: 0xFF, count: 1_000))
            try copy.write(to: URL(fileURLWithPath: damaged + "/data.mdb"))
            for query in [["prs", "--json"], ["why", "squat"], ["history"]] {
                let result = try liftledger(query, journal: damaged)
                #expect([0, 1].contains(result.status), "page \(page): \(query[0]) ended with \(result.status)")
                if result.standardError.contains("LMDB crashed") {
                    crashed = result
                    break pages
                }
            }
        }
        let found = try #require(crashed, "no damaged page of the first 64 crashed a query in LMDB")
        #expect(found.status == 1)
        #expect(
            found.standardError
                == "liftledger: error: LMDB crashed reading the journal's file, a page of which is damaged; run "
                + "liftledger verify with the same --journal to find the damage and what to do\n")
        // An export that LMDB crashes in leaves no partial file behind (it left one, with the records read so far).
        let output = directory.child("output")
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: false)
        var exportCrashed = false
        for page in 2..<min(data.count / 4_096, 64) where !exportCrashed {
            var copy = data
            copy.replaceSubrange(
                (page * 4_096 + 300)..<(page * 4_096 + 1_300), with: [UInt8](repeating: 0xFF, count: 1_000))
            try copy.write(to: URL(fileURLWithPath: damaged + "/data.mdb"))
            let export = try liftledger(
                ["export", "--format", "jsonl", "--output", output + "/records.jsonl"], journal: damaged)
            #expect([0, 1].contains(export.status), "page \(page): export ended with \(export.status)")
            exportCrashed = export.standardError.contains("LMDB crashed")
            if exportCrashed {
                #expect(try FileManager.default.contentsOfDirectory(atPath: output).isEmpty)
            } else {
                try? FileManager.default.removeItem(atPath: output + "/records.jsonl")
            }
        }
        #expect(exportCrashed, "no damaged page of the first 64 crashed an export in LMDB")
    }

    /// LMDB trusts its pages: one bit flipped in a page's header or a node's flags sent `verify`, `backup`, `events`
    /// and the queries through pointers to anywhere, about one flip in eight dying of SIGSEGV or SIGABRT (a reviewer's
    /// fuzz; 240 flips, 29 of them crashing). Forty flips at seeded places, each in a fresh copy of an imported journal:
    /// `verify` and `backup` end with 0 or 1, never a signal; and when `verify` finds nothing wrong, `events`, `history`
    /// and `prs` read the journal without a signal either. With the old code the chance that none of the forty
    /// crashes is under one in a hundred (and this test failed with it).
    @Test func aDamagedPageIsReportedNotFollowed() throws {
        let original = directory.child("imported")
        #expect(try liftledger(["init"], journal: original).status == 0)
        let export = repositoryRoot + "/Fixtures/exports/hevy-kg-2022-2026.csv"
        #expect(try liftledger(["import", export], journal: original).status == 0)
        let data = try Data(contentsOf: URL(fileURLWithPath: original + "/data.mdb"))
        let pageSize = 4_096
        let pages = data.count / pageSize
        var reported = 0
        for round in 0..<40 {
            let copy = directory.child("damaged-\(round)")
            try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: false)
            var damaged = data
            // A page past the two meta pages, spread over the file (2654435761 is Knuth's multiplicative hash); a bit in
            // its header or its first nodes' headers, where LMDB's pointers are.
            let page = 2 + round * 2_654_435_761 % (pages - 2)
            let offset = page * pageSize + (round * 31 + 7) % 48
            damaged[offset] ^= 1 << UInt8(round % 8)
            try damaged.write(to: URL(fileURLWithPath: copy + "/data.mdb"))
            let verify = try liftledger(["verify"], journal: copy)
            #expect([0, 1].contains(verify.status), "round \(round): verify ended with \(verify.status)")
            let backup = try liftledger(["backup", copy + "/backup"], journal: copy)
            #expect([0, 1].contains(backup.status), "round \(round): backup ended with \(backup.status)")
            guard verify.status == 0 else {
                reported += 1
                continue
            }
            for query in [["events", "--json"], ["history"], ["prs"]] {
                let status = try liftledger(query, journal: copy).status
                #expect([0, 1].contains(status), "round \(round): \(query[0]) ended with \(status)")
            }
        }
        // Most flips land where LMDB looks: a check that found nothing would pass the rounds above as well.
        #expect(reported >= 20)
        // The pages opening a journal reads through LMDB (the names' tree, the `meta` database: the first few), and the
        // meta pages' root of the names' tree (byte 128) and last page (byte 143): checked before the open reads them.
        let early = (2..<14).map { ($0 * pageSize + 12, UInt8(0x10)) } + [(128, 0x08), (143, 0x10)]
        for (round, (offset, bit)) in early.enumerated() {
            let copy = directory.child("early-\(round)")
            try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: false)
            var damaged = data
            damaged[offset] ^= bit
            if offset < pageSize { damaged[offset + pageSize] ^= bit }
            try damaged.write(to: URL(fileURLWithPath: copy + "/data.mdb"))
            for command in [["verify"], ["backup", copy + "/backup"]] {
                let status = try liftledger(command, journal: copy).status
                #expect([0, 1].contains(status), "byte \(offset): \(command[0]) ended with \(status)")
            }
        }
    }

    /// A retry of an append that is stored already commits nothing, so its commit syncs nothing; what it found may
    /// have been stored by a relaxed writer and not be on the disk yet. A durable retry syncs the data file before it
    /// is acknowledged.
    @Test(.enabled(if: straceWorks, "needs strace (tools/test installs it) and leave to trace; skipped"))
    func aDurableRetryOfAStoredAppendSyncsBeforeItIsAcknowledged() throws {
        let id = UUID().uuidString
        let arguments = ["append", "--stream", "s", "--type", "T", "--data", "{}", "--id", id, "--journal", journal]
        #expect(try liftledger(arguments + ["--durability", "relaxed"], journal: journal).status == 0)
        let calls = try systemCalls(of: arguments, expecting: "already stored")
        #expect(index(in: calls, of: "sync(", "/data.mdb>)", "= 0") != nil)
    }

    /// A call that another thread's call interrupted is matched as one line: the checks above look for a call, its
    /// path and its result on one line (written by hand as `strace -f -y` prints such calls).
    @Test func anInterruptedCallIsJoinedIntoOneLine() {
        let lines = [
            #"101 fsync(5</tmp/j/data.mdb> <unfinished ...>"#,
            #"102 mkdir("/tmp/j/x", 0700)            = 0"#,
            #"101 <... fsync resumed>)               = 0"#,
        ]
        #expect(
            Self.joiningInterruptedCalls(lines) == [
                #"102 mkdir("/tmp/j/x", 0700)            = 0"#, #"101 fsync(5</tmp/j/data.mdb>)               = 0"#,
            ])
    }

    /// The system calls that make, sync and rename files which `liftledger arguments` makes, one per line as `strace
    /// -f -y` prints them (an interrupted call joined into one line); the command must succeed, printing `expected`
    /// when given.
    func systemCalls(of arguments: [String], expecting expected: String? = nil) throws -> [String] {
        let log = directory.child("strace-\(UUID().uuidString).log")
        let result = try run(
            "/usr/bin/strace",
            ["-f", "-y", "-e", "trace=mkdir,mkdirat,fsync,fdatasync,rename,renameat,renameat2", "-o", log]
                + [BuiltProgram.liftledger] + arguments)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(expected.map(result.standardOutput.contains) != false, "\(result.standardOutput)")
        return Self.joiningInterruptedCalls(
            try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init))
    }

    /// `strace -f` splits a call that another thread's call interrupts into `PID call(args <unfinished ...>` and,
    /// later, `PID <... call resumed>rest`: each such pair becomes one line, at the place of its end.
    static func joiningInterruptedCalls(_ lines: [String]) -> [String] {
        var unfinished: [Substring: String] = [:]
        var joined: [String] = []
        for line in lines {
            let pid = line.prefix { $0 != " " }
            if line.hasSuffix(" <unfinished ...>") {
                unfinished[pid] = String(line.dropLast(" <unfinished ...>".count))
            } else if let start = unfinished.removeValue(forKey: pid), let resumed = line.range(of: " resumed>") {
                joined.append(start + line[resumed.upperBound...])
            } else {
                joined.append(line)
            }
        }
        return joined
    }

    /// The index of the first line after `index` that contains every one of `parts`.
    func index(in lines: [String], of parts: String..., after index: Int = -1) -> Int? {
        lines.indices.first { $0 > index && parts.allSatisfy(lines[$0].contains) }
    }

    /// Appends records 1 to 5 to stream `s`, record N's data `{"n":N}`, each with an id of its own; returns the ids.
    func appendFiveRecords() throws -> [UUID] {
        try (1...5).map { index in
            let id = UUID()
            let appended = try liftledger(
                ["append", "--stream", "s", "--type", "T", "--data", #"{"n":\#(index)}"#, "--id", id.uuidString],
                journal: journal)
            #expect(appended.status == 0)
            return id
        }
    }

    /// LMDB trusts the sizes in its pages: record 3's, made 16 MiB larger, reached past the end of the file, where
    /// `verify`, `events` and `export` read and died of SIGBUS (status 135). Each fails in one line, `verify` at
    /// position 3, whose node on its page it names (found as the journal opens, before LMDB reads a tree).
    @Test func aDamagedNodeSizeFailsReadersInOneLine() throws {
        let ids = try appendFiveRecords()
        #expect(try enlargeNodeSize(inJournal: journal, eventID: ids[2], position: 3) >= 1)
        let verify = try liftledger(["verify"], journal: journal)
        #expect(verify.status == 1)
        #expect(
            verify.standardError.hasPrefix(
                "liftledger: error: the journal is damaged at position 3: page ")
                && verify.standardError.contains("of database events: node 2's value of "),
            "\(verify.standardError)")
        let report = try jsonObject(try liftledger(["verify", "--json"], journal: journal).lines[0])
        #expect(report["valid"] as? Bool == false && report["firstBadPosition"] as? Int == 3)
        for arguments in [
            ["events", "--json"], ["export", "--format", "jsonl", "--output", directory.child("x.jsonl")],
        ] {
            let result = try liftledger(arguments, journal: journal)
            #expect(result.status == 1, "\(arguments): \(result.standardError)")
            #expect(
                result.standardError.contains("a stored size reaches past the end of the data file"), "\(arguments)")
            #expect(result.standardError.split(separator: "\n").count == 1)
        }
        // A journal cut short cannot be opened: `verify --json` still says it is not valid, and why.
        let cut = directory.child("cut")
        try FileManager.default.createDirectory(atPath: cut, withIntermediateDirectories: false)
        let data = try Data(contentsOf: URL(fileURLWithPath: journal + "/data.mdb"))
        try data.prefix(2 * 4_096).write(to: URL(fileURLWithPath: cut + "/data.mdb"))
        let cutVerify = try liftledger(["verify", "--json"], journal: cut)
        #expect(cutVerify.status == 1)
        let cutReport = try jsonObject(cutVerify.lines[0])
        #expect(cutReport["valid"] as? Bool == false && cutReport["headPosition"] is NSNull)
        #expect((cutReport["problem"] as? String)?.contains("damaged") == true, "\(cutReport)")
    }

    @Test func aCorruptRecordFailsVerifyAndEventsWithItsPosition() throws {
        let ids = try appendFiveRecords()
        let flipped = try flipFirstPayloadByte(
            inJournal: journal, eventID: ids[2], position: 3, payloadLength: #"{"n":3}"#.utf8.count)
        #expect(flipped >= 1)
        let verify = try liftledger(["verify"], journal: journal)
        #expect(verify.status == 1)
        #expect(verify.standardError.hasPrefix("liftledger: error: verify failed at position 3: record 3 is corrupt"))
        // As JSON: the first bad position, and no stream count or head hash, which would be those of records 1 and 2.
        let report = try jsonObject(try liftledger(["verify", "--json"], journal: journal).lines[0])
        #expect(report["valid"] as? Bool == false && report["firstBadPosition"] as? Int == 3)
        #expect(report["recordsChecked"] as? Int == 2 && report["headPosition"] as? Int == 5)
        #expect(report["headHash"] == nil && report["streams"] == nil)
        // `events` prints the records before the damaged one, then fails at it.
        let events = try liftledger(["events", "--json"], journal: journal)
        #expect(events.status != 0 && events.standardError.contains("record 3 is corrupt"))
        #expect(events.standardError.split(separator: "\n").count == 1)
        #expect(try events.lines.map { try jsonObject($0)["position"] as? Int } == [1, 2])
        let stream = try liftledger(["events", "--json", "--stream", "s"], journal: journal)
        #expect(stream.status != 0 && stream.standardError.contains("record 3 is corrupt"))
        #expect(try stream.lines.map { try jsonObject($0)["position"] as? Int } == [1, 2])
    }

    @Test func demoImportsTheBundledExportsAndShowsTheAnalytics() throws {
        let demo = try liftledger(["demo", "--keep"])
        #expect(demo.status == 0, "\(demo.standardError)")
        let output = demo.standardOutput
        // The workouts of each file, as tools/import-expectations.py counts them (ImportCLITests checks that).
        for figure in ["37 workouts", "384 workouts", "232 workouts", "290 workouts"] {
            #expect(output.contains(figure), "\(figure)")
        }
        // Each section names the command that gives it in full, as of the last workout.
        for section in [
            "(in full: liftledger history --last 5)", "(in full: liftledger prs --as-of 2026-07-22)",
            "(in full: liftledger streak --as-of 2026-07-22)",
            "(in full: liftledger balance --weeks 4 --as-of 2026-07-22)",
            "(in full: liftledger insights --as-of 2026-07-22)",
        ] {
            #expect(output.contains(section), "\(section)")
        }
        let kept = try #require(output.split(separator: "\n").last { $0.hasPrefix("kept: liftledger ") })
        let journal = String(try #require(kept.split(separator: " ").last))
        defer { try? FileManager.default.removeItem(atPath: journal) }
        // The command it gives runs as given (a temporary directory's path needs no quotes).
        let given = try run(BuiltProgram.liftledger, kept.split(separator: " ").dropFirst(2).map(String.init))
        #expect(given.status == 0 && given.standardOutput.hasPrefix("date "), "\(kept): \(given.standardError)")
        let events = try jsonObject(try liftledger(["stats", "--json"], journal: journal).lines[0])["events"] as? Int
        #expect(output.contains("verify: ok, hash chain intact, \(events ?? -1) records"))
        let history = try liftledger(["history", "--json"], journal: journal).lines
        #expect(history.count == 37 + 384 + 232 + 290)
        // The command a section names gives its figures: the streak's, for one.
        let streak = try jsonObject(
            try liftledger(["streak", "--as-of", "2026-07-22", "--json"], journal: journal).lines[0])
        #expect(
            output.contains(
                "current \(streak["current"] as? Int ?? -1) weeks, longest \(streak["longest"] as? Int ?? -1) weeks"))
        // README.md shows the demo's output in part: every line it shows, the demo prints.
        let readme = try String(contentsOfFile: repositoryRoot + "/README.md", encoding: .utf8)
        let excerpt = try #require(readme.components(separatedBy: "prints, in part:\n\n```\n").dropFirst().first)
        let shown = try #require(excerpt.components(separatedBy: "\n```").first).split(separator: "\n")
        #expect(shown.count > 10)
        for line in shown where line != "..." {
            #expect(output.contains(line + "\n"), "README.md shows a line the demo does not print: \(line)")
        }
    }

    /// README.md's walk through a workout runs as written, line after line, on a new journal: it once finished the
    /// workout twice, and named a set and an exercise the walk had not logged.
    @Test func theReadmesWorkoutWalkThroughRunsAsWritten() throws {
        let readme = try String(contentsOfFile: repositoryRoot + "/README.md", encoding: .utf8)
        // Every block closed: a stray fence after this one turned the rest of the file inside out.
        #expect(readme.split(separator: "\n").filter { $0.hasPrefix("```") }.count % 2 == 0)
        let section = try #require(readme.components(separatedBy: "## Logging a workout\n\n```sh\n").dropFirst().first)
        let lines = try #require(section.components(separatedBy: "\n```").first).split(separator: "\n")
        #expect(lines.count > 10 && lines.allSatisfy { $0.hasPrefix("tools/liftledger ") })
        let fresh = directory.child("walk-through")
        for line in lines {
            // The line as a shell reads it, its comment included, with the built program for the script.
            let command = "exec \"$0\" " + line.dropFirst("tools/liftledger ".count)
            let result = try run(
                "/bin/sh", ["-c", command, BuiltProgram.liftledger], environment: ["LIFTLEDGER_JOURNAL": fresh])
            #expect(result.status == 0, "README.md: \(line)\n\(result.standardError)")
        }
    }
}

func jsonObject(_ line: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
}
