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
    /// The journal's two files and its directory, as C strings, for the signal handler, which may only make system
    /// calls: allocated once, before the handler is installed, and never freed.
    ///
    /// `nonisolated(unsafe)`: written once, by ``removeAtExit(_:)`` before it installs the handler, and only read
    /// after.
    nonisolated(unsafe) private static var paths: UnsafeMutablePointer<UnsafeMutablePointer<CChar>>?

    /// Removes `path` at the end of the process from now on. Signals that would end the process (SIGINT, SIGTERM,
    /// SIGHUP) remove the journal's files and directory in the handler, with system calls alone, and end it with the
    /// status a shell gives a death by them (128 + the signal): a handler is in place as soon as this returns, where a
    /// dispatch source is armed later, on another thread. SIGPIPE is ignored, so that a write to a reader gone fails
    /// and exits (see ``Terminal/write(_:)``), quietly.
    static func removeAtExit(_ path: String) {
        directory.withLock { $0 = path }
        let files = [path + "/data.mdb", path + "/lock.mdb", path]
        let table = UnsafeMutablePointer<UnsafeMutablePointer<CChar>>.allocate(capacity: files.count)
        for (index, file) in files.enumerated() { (table + index).initialize(to: strdup(file)!) }
        paths = table
        atexit { TemporaryJournal.remove() }
        signal(SIGPIPE, SIG_IGN)
        Terminal.endsQuietlyWhenTheReaderGoes.store(true, ordering: .relaxed)
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { number in
            if let paths = TemporaryJournal.paths {
                unlink(paths[0])
                unlink(paths[1])
                rmdir(paths[2])
            }
            _exit(128 + number)
        }
        sigemptyset(&action.sa_mask)
        for number in [SIGINT, SIGTERM, SIGHUP] { sigaction(number, &action, nil) }
    }

    /// Removes the directory now, if it is still there.
    static func remove() {
        guard let path = directory.withLock({ $0.take() }) else { return }
        try? FileManager.default.removeItem(atPath: path)
    }
}
