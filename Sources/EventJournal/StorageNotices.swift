import LMDB

extension Journal {
    /// Has every write of this process that waits longer than `delay` for another process's write (a long import, or a
    /// process stopped with Ctrl-Z) call `notify` once, on another thread, with that process's id where the system
    /// tells it; the write goes on waiting.
    public static func noticeLongWriterWaits(after delay: Duration, _ notify: @escaping @Sendable (Int32?) -> Void) {
        Environment.noticeLongWriterWaits(after: delay, notify)
    }

    /// Has a crash inside the storage engine's code, which follows a page damaged on the disk, call `beforeExit`
    /// (which may make system calls alone), write `message` (a line, with its line feed) to standard error and end the
    /// process with `status`, where it would crash with a crash report. Returns false when that could not be arranged.
    @discardableResult
    public static func reportStorageCrashes(
        message: String, status: Int32, beforeExit: (@convention(c) () -> Void)? = nil
    ) -> Bool {
        LMDBFaultReport.install(message: message, status: status, beforeExit: beforeExit)
    }
}
