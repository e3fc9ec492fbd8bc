import CLMDB

#if canImport(Glibc)
    import Glibc
#endif

/// Disk space for an environment's lock file, taken before LMDB opens it. LMDB sizes a new lock file with
/// `ftruncate`, which allocates nothing, and then writes its header and reader slots through a shared map: on a full
/// volume the first such write kills the process with SIGBUS, where a clear error is due. The space is taken past the
/// file's end, so that LMDB still finds the size it would give the file (a larger file would give it more reader
/// slots than asked for).
enum LockFileSpace {
    /// LMDB's lock file: a header of two cache lines, then a cache line per reader slot; rounded up here, generously,
    /// to whole 4 KiB pages.
    static func bytes(maxReaders: UInt32) -> Int64 {
        (Int64(maxReaders) * 64 + 128 + 4_095) / 4_096 * 4_096
    }

    /// Gives the lock file of the environment at `path` room for `maxReaders` readers, making the file (mode `mode`)
    /// when it is missing. No room for a lock file this call made is an error, and the file is removed again; so is
    /// no room for one there already whose first page has none (an empty one, left by an `init` killed before LMDB
    /// sized it). One whose first page has its space is left to LMDB as before when there is no more: that page is
    /// all that most openings use, and refusing would keep every command, `backup` too, from a journal on a full
    /// disk. So is a file that cannot be opened, or one on a file system that cannot allocate ahead. (Two processes
    /// making one environment at once, on a disk that fills between them, could see the second's lock file removed
    /// by the first: the first finds no room, the second then some.)
    static func reserve(inEnvironmentAt path: String, maxReaders: UInt32, mode: mode_t) throws(LMDBError) {
        let lockFile = path + "/lock.mdb"
        var made = true
        var file = open(lockFile, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        if file < 0, errno == EEXIST {
            made = false
            file = open(lockFile, O_RDWR | O_CLOEXEC)
        }
        guard file >= 0 else { return }
        defer { close(file) }
        var result: Int32
        repeat {
            result = liftledger_allocate_keeping_size(file, bytes(maxReaders: maxReaders))
        } while result != 0 && errno == EINTR
        guard result != 0 else { return }
        let failure = errno
        guard failure == ENOSPC || failure == EDQUOT || failure == EFBIG else { return }
        if made {
            unlink(lockFile)
        } else {
            var status = stat()
            let firstPage = 4_096
            guard fstat(file, &status) == 0, status.st_size < firstPage || Int(status.st_blocks) * 512 < firstPage
            else { return }
        }
        throw LMDBError(code: .init(failure), operation: "the lock file's allocation", path: path)
    }
}
