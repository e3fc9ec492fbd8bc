import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What a command leaves on disk only while it runs (an export's partial file, a backup's staging directory, the demo's
/// journal), removed when a signal ends the process: Ctrl-C, SIGTERM or SIGHUP. Without it, an export stopped with
/// Ctrl-C left its personal data in a partial file beside the target.
enum SignalCleanup {
    /// The paths to remove, as C strings, for the signal handler, which may only make system calls: allocated before
    /// the handler is installed, and never freed (a handler may be running on them).
    ///
    /// `nonisolated(unsafe)`: written by ``removeOnSignal(_:)`` alone, with the signals blocked on its thread; the
    /// handler only reads it. A command calls it from its main task, once (a demo's journal, an export's file or a
    /// backup's staging directory).
    nonisolated(unsafe) private static var paths: UnsafeMutablePointer<UnsafeMutablePointer<CChar>>?
    nonisolated(unsafe) private static var count = 0

    /// From now on, a signal that would end the process (SIGINT, SIGTERM, SIGHUP, unless it was ignored from the
    /// start) first removes `paths`, in order,
    /// with system calls alone (each is unlinked as a file, else removed as an empty directory: a directory's files
    /// come before it), then ends it with the status a shell gives a death by the signal (128 + the signal). The
    /// handler is in place as soon as this returns, where a dispatch source is armed later, on another thread. A path
    /// that is gone by then (an export renamed into place) is passed over.
    static func removeOnSignal(_ paths: [String]) {
        let table = UnsafeMutablePointer<UnsafeMutablePointer<CChar>>.allocate(capacity: paths.count)
        for (index, path) in paths.enumerated() { (table + index).initialize(to: strdup(path)!) }
        // Blocked while the table changes, so that the handler never sees half of it.
        var blocked = sigset_t()
        var previous = sigset_t()
        sigemptyset(&blocked)
        for number in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&blocked, number) }
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        Self.paths = table
        count = paths.count
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { number in
            if let paths = SignalCleanup.paths {
                for index in 0..<SignalCleanup.count where unlink(paths[index]) != 0 { rmdir(paths[index]) }
            }
            _exit(128 + number)
        }
        sigemptyset(&action.sa_mask)
        for number in [SIGINT, SIGTERM, SIGHUP] {
            // A signal ignored from the start stays so: `nohup`'s SIGHUP, a background job's SIGINT.
            var current = sigaction()
            sigaction(number, nil, &current)
            if unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self)
                == unsafeBitCast(SIG_IGN, to: Int.self)
            {
                continue
            }
            sigaction(number, &action, nil)
        }
        pthread_sigmask(SIG_SETMASK, &previous, nil)
    }
}
