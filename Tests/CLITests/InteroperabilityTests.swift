import EventJournal
import Foundation
import TestSupport
import Testing

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
        let fromCLI = try liftledger(["events", "--json"], journal: path)
        let fromPython = try run(Self.python, [Self.reader, path])
        #expect(fromPython.status == 0, "\(fromPython.standardError)")
        #expect(fromCLI.lines.count == 5)
        #expect(fromPython.lines.count == fromCLI.lines.count)
        for (cli, python) in zip(fromCLI.lines, fromPython.lines) {
            let cliObject = try JSONSerialization.jsonObject(with: Data(cli.utf8)) as? NSDictionary
            let pythonObject = try JSONSerialization.jsonObject(with: Data(python.utf8)) as? NSDictionary
            #expect(cliObject != nil && cliObject == pythonObject, "CLI: \(cli)\nPython: \(python)")
        }
    }
}
