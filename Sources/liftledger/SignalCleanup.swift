import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// What a command leaves on disk only while it runs (an export's partial file, a backup's staging directory, the demo's
/// journal), removed when a signal ends the process: Ctrl-C, SIGTERM or SIGHUP. Without it, an export stopped with
/// Ctrl-C left its personal data in a partial file beside the target.
enum SignalCleanup {
    /// The paths to remove, as C strings, for the signal handler, which may only make system calls.
    private struct Table {
        let count: Int
        let paths: UnsafeMutablePointer<UnsafeMutablePointer<CChar>>
    }

    /// The address of the table in force (0 before the first), published whole: a handler on any thread reads one
    /// table or the one before it, never a mix. A table is never freed, as a handler may be reading it. (An address,
    /// not the pointer, as an atomic of pointers is not `Sendable`.)
    private static let table = Atomic<Int>(0)

    private static var current: UnsafeMutablePointer<Table>? {
        UnsafeMutablePointer(bitPattern: table.load(ordering: .acquiring))
    }

    /// Removes the paths given so far, with system calls alone: for a signal handler, and for the report of a crash
    /// in LMDB (see `LMDBFaultReport`), which ends the process as a signal would.
    static let removePaths: @convention(c) () -> Void = {
        guard let table = SignalCleanup.current else { return }
        var index = 0
        while index < table.pointee.count {
            let path = table.pointee.paths[index]
            if unlink(path) != 0 { rmdir(path) }
            index += 1
        }
    }

    /// From now on, a signal that would end the process (SIGINT, SIGTERM, SIGHUP, unless it was ignored from the
    /// start) first removes `paths`, after those of earlier calls, in order, with system calls alone (each is unlinked
    /// as a file, else removed as an empty directory: a directory's files come before it); then the process dies by
    /// the signal, as the shell that ran it expects (a script's loop stops at Ctrl-C). The handler is in place as soon
    /// as this returns, where a dispatch source is armed later, on another thread. A path that is gone by then (an
    /// export renamed into place) is passed over.
    static func removeOnSignal(_ paths: [String]) {
        let earlier = current
        let earlierCount = earlier?.pointee.count ?? 0
        let all = UnsafeMutablePointer<UnsafeMutablePointer<CChar>>.allocate(capacity: earlierCount + paths.count)
        if let earlier { all.initialize(from: earlier.pointee.paths, count: earlierCount) }
        for (index, path) in paths.enumerated() { (all + earlierCount + index).initialize(to: strdup(path)!) }
        let next = UnsafeMutablePointer<Table>.allocate(capacity: 1)
        next.initialize(to: Table(count: earlierCount + paths.count, paths: all))
        table.store(Int(bitPattern: next), ordering: .releasing)
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { number in
            SignalCleanup.removePaths()
            // Delivered again once the handler returns, with the default action: the process ends by it.
            signal(number, SIG_DFL)
            raise(number)
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
    }
}
