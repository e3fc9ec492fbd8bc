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

    /// Removes `path` at the end of the process from now on, and when a signal ends it (``SignalCleanup``). SIGPIPE
    /// is ignored, so that a write to a reader gone fails and exits (see ``Terminal/write(_:)``), quietly.
    static func removeAtExit(_ path: String) {
        directory.withLock { $0 = path }
        atexit { TemporaryJournal.remove() }
        signal(SIGPIPE, SIG_IGN)
        Terminal.endsQuietlyWhenTheReaderGoes.store(true, ordering: .relaxed)
        SignalCleanup.removeOnSignal([path + "/data.mdb", path + "/lock.mdb", path])
    }

    /// Removes the directory now, if it is still there.
    static func remove() {
        guard let path = directory.withLock({ $0.take() }) else { return }
        try? FileManager.default.removeItem(atPath: path)
    }
}
