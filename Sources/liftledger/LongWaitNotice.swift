import Foundation
import LMDB

/// The line a command prints when its write waits long for another process's: without it, a command behind a long
/// import, or behind a `log` stopped with Ctrl-Z in another terminal, waits with nothing said.
enum LongWaitNotice {
    /// How long a write waits before the line is printed.
    static let delay = Duration.seconds(2)

    static func install() {
        Environment.noticeLongWriterWaits(after: delay) { holder in
            // The other command's words may hold a note's control characters.
            Terminal.writeError(Terminal.inert(message(holder: holder)) + "\n")
        }
    }

    static func message(holder: Int32?) -> String {
        let who = holder.map { pid in "process \(pid)" + (commandLine(of: pid).map { " (\($0))" } ?? "") }
        return "liftledger: waiting for \(who ?? "another process"), which is writing to the journal (if it was "
            + "stopped with Ctrl-Z, resume it with fg)"
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
