import EventJournal
import Foundation
import TestSupport
import Testing
import Training

/// `tools/read-journal.py` was written from docs/FORMAT.md alone; it must print what `liftledger events --json` prints.
struct InteroperabilityTests {
    static let python = "/usr/bin/python3"
    static let reader = repositoryRoot + "/tools/read-journal.py"
    static let pythonHasLMDB = (try? run(python, ["-c", "import lmdb"]))?.status == 0

    @Test(.enabled(if: pythonHasLMDB, "needs Debian's python3-lmdb (tools/test installs it); skipped"))
    func thePythonReaderPrintsTheSameEventsAsTheCLI() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.child("journal")
        _ = try liftledger(["init"], journal: path)
        for (index, data) in [
            #"{"reps": 5, "weight": {"value": 102.5, "unit": "kg"}}"#, #""Grüße, 筋トレ""#, "[1, 2.5, null, true]",
        ]
        .enumerated() {
            let appended = try liftledger(
                [
                    "append", "--stream", "workout-\(index % 2)", "--type", "SetLogged", "--data", data,
                    "--occurred-at", "2021-06-0\(index + 1)T07:30:00.25+02:00", "--causation-id", "cause-\(index)",
                ], journal: path)
            #expect(appended.status == 0, "\(appended.standardError)")
        }
        do {
            let journal = try Journal.open(at: path)
            _ = try await journal.append(
                [
                    ProposedEvent(type: "Opaque", encoding: .opaque, payload: [0, 255, 10, 13]),
                    ProposedEvent(
                        type: "Binary", schemaVersion: 4, encoding: .binary, payload: Array(0...40),
                        occurredAt: Timestamp(microsecondsSinceEpoch: -1_234_567),
                        metadata: EventMetadata(correlationID: "ç", source: "import:strong:abc")),
                ], to: "profile")
        }
        // Training events in the binary encoding, which the reader decodes into `data` from the documentation.
        for command in [
            [
                "profile", "set", "--unit", "lb", "--time-zone", "Europe/Berlin", "--body-weight", "180.5", "--age",
                "40",
            ],
            ["exercise", "add", "Zercher", "Carry", "--primary", "quadriceps,abdominals", "--secondary", "glutes"],
            ["routine", "add", "Push", "dips", "--reps", "6-10"], ["routine", "add", "Push", "bench press"],
            ["routine", "move", "Push", "bench press", "1"], ["routine", "remove", "Push", "dips"],
            ["schedule", "set", "--split", "Push,rest,Pull", "--start", "2026-11-01"],
            ["start", "Push"], ["log", "bench press", "135", "x", "10", "--type", "warmup"],
            ["log", "squat", "102.5kg", "x", "5", "--rpe", "8.5", "--note", "belt"], ["rest", "90"],
            ["rest", "extend", "-15"], ["rest", "skip"], ["log", "pull up", "bw", "x", "12"], ["pause"], ["resume"],
            ["correct", "2", "--reps", "4"], ["remove-set", "1"], ["finish", "--note", "ok"],
            // workout-1 is taken by the JSON events above: the training commands' first workout is workout-2.
            ["edit", "2", "--date", "2026-11-02T18:00:00Z", "--name", "Moved"], ["delete", "2", "--reason", "test"],
            ["restore", "2"], ["start"], ["log", "squat", "100kg", "x", "5"], ["rest", "60"], ["discard"],
            ["restore", "3"],
        ] {
            let result = try liftledger(command, journal: path)
            #expect(result.status == 0, "\(command): \(result.standardError)")
        }
        do {
            // A SetLogged of schema version 1 (kilograms as a binary64), written field by field, and one of a newer
            // version than any this build knows.
            var version1 = PayloadWriter()
            version1.unsigned(1, 9)
            version1.string(2, "Barbell_Full_Squat")
            version1.double(3, 102.5)
            version1.unsigned(4, 3)
            version1.unsigned(5, 4)
            version1.double(6, 9.5)
            let journal = try Journal.open(at: path)
            _ = try await journal.append(
                [
                    ProposedEvent(type: "SetLogged", schemaVersion: 1, encoding: .binary, payload: version1.finish()),
                    ProposedEvent(type: "SetLogged", schemaVersion: 3, encoding: .binary, payload: version1.finish()),
                ], to: "workout-2")
        }
        let fromCLI = try liftledger(["events", "--json"], journal: path)
        let fromPython = try run(Self.python, [Self.reader, path])
        #expect(fromPython.status == 0, "\(fromPython.standardError)")
        // 5 records above, 35 from the commands (counted by hand from what each writes: the warm-up of the routine's
        // bench press starts its rest, which the squat after it closes), 2 appended directly.
        #expect(fromCLI.lines.count == 42)
        #expect(fromCLI.lines.filter { $0.contains(#""data":"#) }.count == fromCLI.lines.count - 6)
        #expect(fromPython.lines.count == fromCLI.lines.count)
        for (cli, python) in zip(fromCLI.lines, fromPython.lines) {
            let cliObject = try JSONSerialization.jsonObject(with: Data(cli.utf8)) as? NSDictionary
            let pythonObject = try JSONSerialization.jsonObject(with: Data(python.utf8)) as? NSDictionary
            #expect(cliObject != nil && cliObject == pythonObject, "CLI: \(cli)\nPython: \(python)")
        }
    }
}
