import ArgumentParser
import EventJournal
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The session crash test: a driver logs scripted workouts and is killed with SIGKILL at random moments. After every
/// kill, `liftledger status --json` at a chosen instant must equal what an independent program
/// (tools/session-status.py, written from docs/JSON.md alone) computes from `liftledger events --json`, and the
/// journal must verify.
struct SessionCrashTest: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "session-crash-test", abstract: "Kill a workout driver and check the recovered session.")

    @Option(help: "How many kills.")
    var rounds = 100

    @Option(help: "The liftledger executable.")
    var liftledger: String

    @Option(help: "The independent checker: tools/session-status.py.")
    var checker: String

    @Option(help: "The longest the driver runs before it is killed, in milliseconds.")
    var maxRunMilliseconds = 400

    @Option(help: "Start a new journal after this many rounds.")
    var roundsPerJournal = 25

    @Option(help: "Where the journals go (default: a new temporary directory, removed afterwards).")
    var directory: String?

    mutating func run() async throws {
        let scratch = ScratchDirectory(given: directory, prefix: "liftledger-session-crash")
        defer { withExtendedLifetime(scratch) {} }
        var tally = (active: 0, resting: 0, paused: 0, stale: 0, events: 0)
        let started = ContinuousClock.now
        for round in 0..<rounds {
            let journal = "\(scratch.path)/journal-\(round / roundsPerJournal)"
            if round % roundsPerJournal == 0 { _ = try Journal.open(at: journal, create: true) }
            let driver = try ChildProcess([ownExecutablePath(), "workout-driver", "--journal", journal])
            driver.read(until: .now + .milliseconds(Int.random(in: 0...maxRunMilliseconds)))
            let status = driver.kill(SIGKILL)
            guard (status & 0x7F) == SIGKILL else {
                throw HarnessError("round \(round): the driver exited by itself (status \(status))")
            }
            // Between now and three hours on, so that rest timers are seen running and run out, and sessions go stale.
            let offset = Int64.random(in: 0...3) == 0 ? Int64.random(in: 7_000...11_000) : Int64.random(in: 0...150)
            let now = Timestamp(microsecondsSinceEpoch: Timestamp.now().microsecondsSinceEpoch + offset * 1_000_000)
            let shown = try output([liftledger, "status", "--json", "--now", now.description, "--journal", journal])
            let events = try output([liftledger, "events", "--json", "--journal", journal])
            let eventsFile = "\(scratch.path)/events.jsonl"
            try (events.joined(separator: "\n") + "\n").write(toFile: eventsFile, atomically: true, encoding: .utf8)
            let expected = try output([checker, "--now", now.description, eventsFile])
            let shownObject = try object(shown)
            guard try canonical(shownObject) == canonical(object(expected)) else {
                throw HarnessError(
                    "round \(round): status differs from the independent recomputation at \(now)\n"
                        + "status:   \(shown.joined())\nexpected: \(expected.joined())")
            }
            let verify = try output([liftledger, "verify", "--journal", journal])
            guard verify.first?.hasPrefix("ok") == true else {
                throw HarnessError("round \(round): verify failed: \(verify.joined(separator: " "))")
            }
            tally.events = events.count
            if shownObject["active"] as? Bool == true {
                tally.active += 1
                if !(shownObject["rest"] is NSNull) { tally.resting += 1 }
                if shownObject["paused"] as? Bool == true { tally.paused += 1 }
                if shownObject["stale"] as? Bool == true { tally.stale += 1 }
            }
        }
        let seconds = Int((ContinuousClock.now - started).components.seconds)
        print(
            #"{"kills":\#(rounds),"activeSessionsChecked":\#(tally.active),"withRestTimer":\#(tally.resting),"#
                + #""paused":\#(tally.paused),"stale":\#(tally.stale),"eventsInLastJournal":\#(tally.events),"#
                + #""seconds":\#(seconds),"failures":0}"#)
    }

    /// Runs a program to its end; its standard output's lines, or an error with its status.
    private func output(_ arguments: [String]) throws -> [String] {
        let child = try ChildProcess(arguments)
        let status = child.wait()
        guard status == 0 else {
            throw HarnessError("\(arguments.joined(separator: " ")) failed with status \(status)")
        }
        return child.lines
    }

    /// JSON text with sorted keys, so that two objects compare by content.
    private func canonical(_ object: NSDictionary) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    private func object(_ lines: [String]) throws -> NSDictionary {
        guard lines.count == 1,
            let object = try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? NSDictionary
        else { throw HarnessError("expected one JSON object, got: \(lines.joined(separator: "\n"))") }
        return object
    }
}
