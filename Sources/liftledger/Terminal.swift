import EventJournal
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Standard output and error, and whether they are terminals.
enum Terminal {
    static var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// Whether a reader gone ends the process quietly, with the status of a death by SIGPIPE (141), rather than with
    /// an error: for a command that ignores SIGPIPE itself so as to clean up (``TemporaryJournal``), whose reader
    /// left on purpose (`demo | head`).
    static let endsQuietlyWhenTheReaderGoes = Atomic<Bool>(false)

    /// Opens standard input, output and error on `/dev/null`, read-only, where they are closed: a file the process
    /// opens later (LMDB's lock file) would otherwise take the descriptor and receive what is written there. A write
    /// to such a descriptor fails, as to a closed one. Call it first.
    static func occupyClosedStandardDescriptors() {
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO]
        where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            // The lowest free descriptor: this one, as those before it are open by now.
            let opened = open("/dev/null", O_RDONLY)
            if opened >= 0, opened != descriptor {
                dup2(opened, descriptor)
                close(opened)
            }
        }
    }

    /// Writes `text` to standard output. When it cannot take it (a full disk, a closed descriptor, a reader gone with
    /// SIGPIPE ignored), says so in one line on standard error and exits with status 1; what the command recorded
    /// before stands.
    static func write(_ text: String) {
        do {
            try FileHandle.standardOutput.write(contentsOf: Data((standardOutputIsTerminal ? inert(text) : text).utf8))
        } catch {
            if code(of: error) == EPIPE, endsQuietlyWhenTheReaderGoes.load(ordering: .relaxed) { exit(128 + SIGPIPE) }
            // A command that recorded something must not simply be run again (its set would be logged twice).
            let recorded =
                Journal.hasAppendedInThisProcess
                ? ", and before running it again see liftledger events: what it was to record is recorded" : ""
            fail("cannot write to standard output (\(reason(error))); make room or send it elsewhere\(recorded)")
        }
    }

    /// The system's reason for a failed read or write (`No space left on device`), from the error Foundation wraps
    /// it in.
    static func reason(_ error: any Error) -> String { String(cString: strerror(code(of: error))) }

    /// The system's error number under a Foundation error (EIO when it carries none).
    private static func code(of error: any Error) -> Int32 {
        Int32(((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError)?.code ?? Int(EIO))
    }

    /// Writes `text` to standard error, when it takes it: a failure has nowhere else to be told.
    static func writeError(_ text: String) {
        try? FileHandle.standardError.write(contentsOf: Data(text.utf8))
    }

    /// Prints `message` as one line on standard error (line breaks and what a terminal would act on escaped, see
    /// ``inert(_:)``) and exits with `status`.
    static func fail(_ message: String, status: Int32 = 1) -> Never {
        writeError("liftledger: error: \(inert(message.replacingOccurrences(of: "\n", with: "\\n")))\n")
        exit(status)
    }

    /// Whether standard output is a terminal, where the control characters of a name or a note would act.
    static let standardOutputIsTerminal = isatty(STDOUT_FILENO) == 1

    /// `text` with what a terminal acts on rather than shows written as JSON escapes it (`\u001b`): control
    /// characters other than line feed and tab (an imported note's escape sequence could recolour, move the cursor or
    /// retitle the window), and the marks that reorder text (bidirectional embeddings, overrides and isolates). In a
    /// JSON string the escape reads back as the character, so JSON stays the same JSON.
    static func inert(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isActedOn) else { return text }
        var shown = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard isActedOn(scalar) else {
                shown.append(scalar)
                continue
            }
            let digits = String(scalar.value, radix: 16)
            shown.append(contentsOf: "\\u\(String(repeating: "0", count: 4 - digits.count))\(digits)".unicodeScalars)
        }
        return String(shown)
    }

    /// Whether a terminal acts on `scalar` rather than shows it, so that ``inert(_:)`` writes it as its six-character
    /// escape.
    static func isActedOn(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A: false
        case 0..<0x20, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}

/// A progress bar on standard error, drawn only when standard error is a terminal.
struct ProgressBar {
    let label: String
    private let enabled = Terminal.standardErrorIsTerminal
    private var lastDrawn: ContinuousClock.Instant?

    init(label: String) { self.label = label }

    mutating func update(_ done: UInt64, of total: UInt64) {
        guard enabled else { return }
        let now = ContinuousClock.now
        if let lastDrawn, now - lastDrawn < .milliseconds(100), done < total { return }
        lastDrawn = now
        let fraction = total == 0 ? 1 : min(1, Double(done) / Double(total))
        let width = 30
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
        Terminal.writeError("\r\(label) [\(bar)] \(Int(fraction * 100))% \(done)/\(total)")
    }

    func finish() {
        guard enabled, lastDrawn != nil else { return }
        Terminal.writeError("\n")
    }
}
