import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A journal made for one run (the demo's), removed however the run ends: on return, on an error that exits, on
/// Ctrl-C, SIGTERM or SIGHUP, and when the reader of its output goes away.
enum TemporaryJournal {
    /// The directory to remove, until it is removed.
    private static let directory = Mutex<String?>(nil)
    /// The handlers of the signals that end the run, kept for its length.
    ///
    /// `nonisolated(unsafe)`: written once, by ``removeAtExit(_:)`` on the command's thread, and never read; it only
    /// keeps the sources alive.
    nonisolated(unsafe) private static var signalSources: [any DispatchSourceSignal] = []

    /// Removes `path` at the end of the process from now on. Signals that would end the process without running
    /// exit handlers (SIGINT, SIGTERM, SIGHUP) exit through them instead, with the status a shell gives a death by
    /// them (128 + the signal); SIGPIPE is ignored, so that a write to a reader gone fails and exits (see
    /// ``Terminal/write(_:)``), quietly.
    static func removeAtExit(_ path: String) {
        directory.withLock { $0 = path }
        atexit { TemporaryJournal.remove() }
        signal(SIGPIPE, SIG_IGN)
        Terminal.endsQuietlyWhenTheReaderGoes.store(true, ordering: .relaxed)
        let sources = [SIGINT, SIGTERM, SIGHUP].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { exit(128 + number) }
            source.resume()
            return source
        }
        signalSources = sources
    }

    /// Removes the directory now, if it is still there.
    static func remove() {
        guard let path = directory.withLock({ $0.take() }) else { return }
        try? FileManager.default.removeItem(atPath: path)
    }
}
