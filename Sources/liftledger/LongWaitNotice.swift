import EventJournal
import Foundation
import Training

/// The line a command prints when it waits long for another process: without it, a command behind a long import,
/// behind a `log` stopped with Ctrl-Z in another terminal, or behind the rebuild that a rule change started, waits
/// with nothing said.
enum LongWaitNotice {
    /// How long a command waits before the line is printed.
    static let delay = Duration.seconds(2)

    static func install() {
        // The other command's words may hold a note's control characters.
        Journal.noticeLongWriterWaits(after: delay) { holder in
            Terminal.writeError(Terminal.inert(message(holder: holder)) + "\n")
        }
        CatchUpWait.noticeLongWaits(after: delay) { rebuilder in
            Terminal.writeError(Terminal.inert(message(rebuilder: rebuilder)) + "\n")
        }
    }

    static func message(holder: Int32?) -> String {
        "liftledger: waiting for \(name(of: holder)), which is writing to the journal (if it was stopped with Ctrl-Z, "
            + "resume it with fg)"
    }

    static func message(rebuilder: Int32) -> String {
        "liftledger: waiting for \(name(of: rebuilder)) to rebuild the read models (liftledger projections shows how "
            + "far it has got); up to half a minute"
    }

    /// A process by its id and command line, where they are known.
    private static func name(of pid: Int32?) -> String {
        pid.map { "process \($0)" + (commandLine(of: $0).map { " (\($0))" } ?? "") } ?? "another process"
    }

    /// The command line of process `pid`, its program by name, from `/proc` (Linux); nil where it cannot be read.
    private static func commandLine(of pid: Int32) -> String? {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"), !data.isEmpty else {
            return nil
        }
        var words = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        words[0] = URL(fileURLWithPath: words[0]).lastPathComponent
        return words.joined(separator: " ")
    }
}
