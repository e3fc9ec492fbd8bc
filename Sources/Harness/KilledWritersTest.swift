import ArgumentParser
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The killed-writers test: each round starts five commands at once on one journal, three `log`s and two `history`s
/// (each of which writes, catching the read models up), and kills three of them with SIGKILL a few milliseconds later.
/// The two left must finish, successfully, within ten seconds: a writer waiting its turn must not be left waiting by
/// the death of others (see `WriterLock` in the LMDB module). The journal must verify after every round.
struct KilledWritersTest: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "killed-writers-test",
        abstract: "Start five writing commands at once, kill three, and check that the other two finish.")

    @Option(help: "How many rounds.")
    var rounds = 100

    @Option(help: "The liftledger executable.")
    var liftledger: String

    @Option(help: "Start a new journal after this many rounds (a workout's sets pile up in one).")
    var roundsPerJournal = 50

    @Option(help: "Where the journals go (default: a new temporary directory, removed afterwards).")
    var directory: String?

    mutating func run() throws {
        let scratch = ScratchDirectory(given: directory, prefix: "liftledger-killed-writers")
        defer { withExtendedLifetime(scratch) {} }
        let started = ContinuousClock.now
        for round in 0..<rounds {
            let journal = "\(scratch.path)/journal-\(round / roundsPerJournal)"
            if round % roundsPerJournal == 0 {
                for arguments in [["init"], ["start"]] { try finish(arguments, journal: journal, round: round) }
            }
            let commands = (0..<5).map { index in
                [liftledger] + (index < 3 ? ["log", "Barbell Squat", "100x5"] : ["history"]) + ["--journal", journal]
            }
            let processes = try commands.map { try ChildProcess($0) }
            usleep(UInt32.random(in: 0...30_000))
            var survivors = processes
            for _ in 0..<3 { survivors.remove(at: Int.random(in: 0..<survivors.count)).kill(SIGKILL) }
            for survivor in survivors {
                guard let status = survivor.wait(until: .now + .seconds(10)) else {
                    let threads = Self.waitChannels(of: survivor.pid)
                    survivor.kill(SIGKILL)
                    throw HarnessError(
                        "round \(round): a command was still waiting ten seconds after three others were killed "
                            + "(its threads wait in: \(threads))")
                }
                guard status == 0 else {
                    throw HarnessError("round \(round): a command the test did not kill failed (status \(status))")
                }
            }
            try finish(["verify"], journal: journal, round: round)
        }
        let seconds = Int((ContinuousClock.now - started).components.seconds)
        print(#"{"rounds":\#(rounds),"kills":\#(rounds * 3),"seconds":\#(seconds),"failures":0}"#)
    }

    /// Runs `liftledger` with `arguments` on `journal`, which must succeed.
    private func finish(_ arguments: [String], journal: String, round: Int) throws {
        let status = try ChildProcess([liftledger] + arguments + ["--journal", journal]).wait()
        guard status == 0 else {
            throw HarnessError("round \(round): liftledger \(arguments.joined(separator: " ")) failed (\(status))")
        }
    }

    /// Where each thread of process `pid` waits, as the kernel names it (`futex_do_wait`, `locks_lock_inode_wait`).
    private static func waitChannels(of pid: pid_t) -> String {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.sorted().map { task in
            (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/wchan", encoding: .utf8)) ?? "?"
        }.joined(separator: ", ")
    }
}
