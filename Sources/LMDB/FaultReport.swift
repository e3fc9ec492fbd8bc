import CFaultReport
import CLMDB

/// What a process does when LMDB itself crashes: its reads trust the file's pages, and a page damaged on the disk sends
/// them through pointers that lead anywhere (``Environment/checkPages()`` finds such pages without following them).
public enum LMDBFaultReport {
    /// Has a SIGSEGV or SIGBUS inside LMDB's code call `beforeExit` (which may make system calls alone), write
    /// `message` (a line, with its line feed) to standard error and end the process with `status`, where it would
    /// crash with a crash report; faults elsewhere crash as before. Returns false when that could not be arranged.
    @discardableResult
    public static func install(
        message: String, status: Int32, beforeExit: (@convention(c) () -> Void)? = nil
    ) -> Bool {
        typealias Version =
            @convention(c) (
                UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?
            ) -> UnsafeMutablePointer<CChar>?
        // Any of LMDB's functions tells where its code lies.
        let inside = unsafeBitCast(mdb_version as Version, to: UnsafeRawPointer.self)
        return message.withCString { liftledger_report_faults_in(inside, $0, status, beforeExit) == 0 }
    }
}
