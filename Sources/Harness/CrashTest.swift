import ArgumentParser
import EventJournal
import Foundation
import Interchange

#if canImport(Glibc)
    import Glibc
#endif

/// The crash harness: starts writer processes, kills them with SIGKILL at random moments, and after every kill
/// checks that the journal verifies, that every acknowledged event is stored with identical bytes, and that every
/// batch is either wholly present or wholly absent.
struct CrashTest: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crash-test", abstract: "Kill appending processes with SIGKILL and check what survives.")

    @Option(help: "How many kills.")
    var rounds = 200

    @Option(help: "durable or relaxed.")
    var durability = "durable"

    @Option(help: "The longest a writer runs before it is killed, in milliseconds.")
    var maxRunMilliseconds = 150

    @Option(help: "Start a new journal after this many rounds, so that verify stays quick.")
    var roundsPerJournal = 50

    @Option(help: "Where the journals go (default: a new temporary directory, removed afterwards).")
    var directory: String?

    mutating func run() async throws {
        let scratch = ScratchDirectory(given: directory, prefix: "liftledger-crash")
        defer { withExtendedLifetime(scratch) {} }
        let root = scratch.path
        var tally = Tally()
        var journal: Journal?
        let started = ContinuousClock.now
        for round in 0..<rounds {
            if round % roundsPerJournal == 0 {
                journal = nil
                journal = try Journal.open(at: "\(root)/journal-\(round / roundsPerJournal)", create: true)
            }
            guard let journal else { break }
            try await runRound(round, journal: journal, tally: &tally)
        }
        let seconds = (JournalBench.seconds(ContinuousClock.now - started) * 10).rounded() / 10
        print(
            #"{"durability":"\#(durability)","kills":\#(tally.kills),"rounds":\#(rounds),"concurrentRounds":\#(tally.concurrentRounds),"#
                + #""acknowledgedEventsChecked":\#(tally.acknowledged),"batchesChecked":\#(tally.batches),"#
                + #""roundsWithAcknowledgements":\#(tally.roundsWithAcks),"seconds":\#(seconds),"failures":0}"#)
    }

    private struct Tally {
        var kills = 0
        var acknowledged = 0
        var batches = 0
        var roundsWithAcks = 0
        var concurrentRounds = 0
    }

    private func runRound(_ round: Int, journal: Journal, tally: inout Tally) async throws {
        let processes = round % 4 == 3 ? 2 : 1
        let tasks = round % 2 == 1 ? 4 : 1
        if processes > 1 || tasks > 1 { tally.concurrentRounds += 1 }
        let headBefore = try journal.head().position
        let executable = ownExecutablePath()
        let children = try (0..<processes).map { process in
            try ChildProcess([
                executable, "append-worker", "--journal", journal.path, "--tag", "r\(round)p\(process)",
                "--tasks", String(tasks), "--durability", durability,
            ])
        }
        let runFor = Int.random(in: 0...maxRunMilliseconds)
        let deadline = ContinuousClock.now + .milliseconds(runFor)
        for child in children { child.read(until: deadline) }
        for child in children {
            let status = child.kill(SIGKILL)
            guard (status & 0x7F) == SIGKILL else {
                throw HarnessError(
                    "round \(round): a writer exited by itself (status \(status)) instead of being killed")
            }
            tally.kills += 1
        }
        try check(round, journal: journal, headBefore: headBefore, acks: children.flatMap(\.lines), tally: &tally)
    }

    private func check(
        _ round: Int, journal: Journal, headBefore: UInt64, acks: [String], tally: inout Tally
    ) throws {
        try journal.adoptAbandonedCommit()
        let report = try journal.verify()
        if let problem = report.problem {
            throw HarnessError("round \(round): verify failed after the kill: \(problem)")
        }
        var acknowledged = 0
        for line in acks {
            let fields = line.split(separator: " ")
            guard fields.count == 4, fields[0] == "ack", let position = UInt64(fields[1]) else {
                throw HarnessError("round \(round): unexpected line from a writer: \(line)")
            }
            guard let record = try journal.record(at: position) else {
                throw HarnessError("round \(round): acknowledged position \(position) is missing")
            }
            guard record.id.uuidString == fields[2], Array(record.payload).hexString == fields[3] else {
                throw HarnessError("round \(round): position \(position) does not hold the acknowledged event")
            }
            acknowledged += 1
        }
        // Every batch written since the kill's round began must be complete: as many records as its size says.
        var batches: [String: (size: Int, seen: Int)] = [:]
        try journal.forEachRecord(from: headBefore + 1) { record in
            let correlation = record.metadata.correlationID
            guard correlation.hasPrefix("crash-r\(round)p"),
                let object = try? JSONSerialization.jsonObject(with: Data(record.payload)) as? [String: Any],
                let size = object["size"] as? Int
            else {
                throw HarnessError(
                    "round \(round): position \(record.position) (\(correlation), head before \(headBefore)) was not written by this round"
                )
            }
            batches[correlation, default: (size, 0)].seen += 1
        }
        for (batch, counts) in batches where counts.seen != counts.size {
            throw HarnessError("round \(round): batch \(batch) is torn: \(counts.seen) of \(counts.size) events stored")
        }
        tally.acknowledged += acknowledged
        tally.batches += batches.count
        if acknowledged > 0 { tally.roundsWithAcks += 1 }
    }
}
