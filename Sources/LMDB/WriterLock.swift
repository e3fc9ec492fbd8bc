import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Makes the write transactions of every process on an environment wait their turn in the kernel, on a `flock` of the
/// data file, before they take LMDB's writer mutex, so that the mutex never has a process waiting for it.
///
/// LMDB's writer mutex is a robust process-shared pthread mutex. When its owner dies, the kernel wakes one waiter; if
/// that waiter is killed too before it takes the mutex, the others wait for a wake-up that never comes, the mutex free
/// (seen with writers killed by `kill -9` while others waited). A file lock has no such gap: the kernel hands it on
/// when its holder's descriptors close, however the holder ends. Within a process, one thread at a time takes the
/// file lock (a `flock` is shared by the whole process), the others wait on a mutex that dies with them.
///
/// `@unchecked Sendable`: the pthread mutex is built for concurrent use and lives at one heap address for the object's
/// whole life; the descriptor never changes.
final class WriterLock: @unchecked Sendable {
    private let threads = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    /// A descriptor of its own on the data file (not LMDB's, which a child process would inherit), or -1 when the file
    /// could not be opened: LMDB's mutex then serialises the writers alone.
    private let descriptor: Int32

    /// A lock on `dataFile`, the environment's data file. LMDB takes no POSIX record lock on that file, so closing this
    /// descriptor drops none of LMDB's. Opened for writing where it can be: on NFS, `flock` is a record lock, which
    /// an exclusive lock needs a descriptor open for writing to take.
    init(dataFile: String) {
        threads.initialize(to: pthread_mutex_t())
        pthread_mutex_init(threads, nil)
        let writable = open(dataFile, O_RDWR | O_CLOEXEC)
        descriptor = writable >= 0 ? writable : open(dataFile, O_RDONLY | O_CLOEXEC)
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
        pthread_mutex_destroy(threads)
        threads.deinitialize(count: 1)
        threads.deallocate()
    }

    /// Runs `body` holding the lock.
    func withLock<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
        pthread_mutex_lock(threads)
        defer { pthread_mutex_unlock(threads) }
        let locked = lockFile()
        defer { if locked { flock(descriptor, LOCK_UN) } }
        return try body()
    }

    /// Takes the file lock, waiting for other processes' writes; false where there is no lock to take (a file system
    /// without `flock`), and the write goes on without it. A wait longer than the notice's delay calls the notice
    /// once, on another thread, with the holder's process id where `/proc/locks` tells it.
    private func lockFile() -> Bool {
        guard descriptor >= 0 else { return false }
        if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return true }
        let notice = WriterWaitNotice.current.withLock { $0 }.map { delay, notify in
            let descriptor = descriptor
            let item = DispatchWorkItem { notify(Self.holder(of: descriptor)) }
            DispatchQueue.global().asyncAfter(
                deadline: .now() + .milliseconds(Int(delay / .milliseconds(1))), execute: item)
            return item
        }
        defer { notice?.cancel() }
        while flock(descriptor, LOCK_EX) != 0 {
            if errno != EINTR { return false }
        }
        return true
    }

    /// The process holding a write `flock` of the file open at `descriptor`, from `/proc/locks` (Linux; elsewhere nil).
    private static func holder(of descriptor: Int32) -> Int32? {
        var status = stat()
        guard fstat(descriptor, &status) == 0, let file = fopen("/proc/locks", "r") else { return nil }
        defer { fclose(file) }
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        // "1: FLOCK  ADVISORY  WRITE 12345 08:01:131090 0 EOF": the holder, then the device's major and minor numbers
        // in hexadecimal and the inode. An inode alone could be another file system's file: the device is matched too
        // where it can be.
        let device = UInt64(status.st_dev)
        let major = ((device >> 8) & 0xFFF) | ((device >> 32) & ~UInt64(0xFFF))
        let minor = (device & 0xFF) | ((device >> 12) & ~UInt64(0xFF))
        func hex(_ number: UInt64) -> String {
            let digits = String(number, radix: 16)
            return digits.count < 2 ? "0" + digits : digits
        }
        let place = "\(hex(major)):\(hex(minor)):\(status.st_ino)"
        // On btrfs and overlayfs the kernel prints another device than `stat` gives: the inode alone is matched
        // there, when no line matches both.
        var sameInode: Int32?
        while getline(&line, &capacity, file) > 0, let line {
            let fields = String(cString: line).split(separator: " ")
            guard fields.count >= 6, fields[1] == "FLOCK", fields[3] == "WRITE" else { continue }
            if fields[5] == place { return Int32(fields[4]) }
            if sameInode == nil, fields[5].split(separator: ":").last == "\(status.st_ino)" {
                sameInode = Int32(fields[4])
            }
        }
        return sameInode
    }
}

/// What a process does when one of its writes waits long for another process's (see
/// ``Environment/noticeLongWriterWaits(after:_:)``).
enum WriterWaitNotice {
    static let current = Mutex<(delay: Duration, notify: @Sendable (Int32?) -> Void)?>(nil)
}
