import CLMDB

#if canImport(Glibc)
    import Glibc
#endif

/// An error from LMDB or from misuse of this wrapper: a matchable code, the call that failed, and a remedy.
public struct LMDBError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A return code from an LMDB call (an `MDB_*` code or an `errno` value).
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let rawValue: Int32
        public init(_ rawValue: Int32) { self.rawValue = rawValue }

        public static let keyExists = Code(MDB_KEYEXIST)
        public static let notFound = Code(MDB_NOTFOUND)
        public static let corrupted = Code(MDB_CORRUPTED)
        public static let panic = Code(MDB_PANIC)
        public static let versionMismatch = Code(MDB_VERSION_MISMATCH)
        public static let invalid = Code(MDB_INVALID)
        public static let mapFull = Code(MDB_MAP_FULL)
        public static let databasesFull = Code(MDB_DBS_FULL)
        public static let readersFull = Code(MDB_READERS_FULL)
        public static let mapResized = Code(MDB_MAP_RESIZED)
        public static let badTransaction = Code(MDB_BAD_TXN)
        public static let pageNotFound = Code(MDB_PAGE_NOTFOUND)
        public static let noSpace = Code(ENOSPC)
        public static let fileTooLarge = Code(EFBIG)
        public static let quotaExceeded = Code(EDQUOT)
        public static let permissionDenied = Code(EACCES)
        public static let noSuchFile = Code(ENOENT)
        public static let readOnlyFileSystem = Code(EROFS)
        /// LMDB's code for a write the system cut short, as a full disk or a file-size limit does.
        public static let inputOutput = Code(EIO)
        public static let busy = Code(EBUSY)
        /// Not an LMDB code: the wrapper was used in a way LMDB forbids (for example after `fork()`).
        public static let misuse = Code(-1)

        public var description: String {
            self == .misuse ? "misuse" : String(cString: mdb_strerror(rawValue))
        }
    }

    public let code: Code
    /// The LMDB call (or wrapper operation) that failed, for example `mdb_txn_commit`.
    public let operation: String
    /// The environment's path, when known.
    public let path: String?
    /// What the user can do about it.
    public let remedy: String

    /// An I/O error on a volume with less than a mebibyte left: LMDB reports a write cut short by a full disk so.
    public let isOnFullVolume: Bool

    public init(code: Code, operation: String, path: String? = nil, remedy: String? = nil) {
        self.code = code
        self.operation = operation
        self.path = path
        isOnFullVolume = code == .inputOutput && path.map(Self.volumeIsNearlyFull) == true
        self.remedy = remedy ?? Self.defaultRemedy(for: isOnFullVolume ? .noSpace : code)
    }

    /// True when the failure means the environment's file is damaged.
    public var isDamage: Bool { code == .corrupted || code == .panic || code == .pageNotFound }

    /// True when the failure means the disk (or a file-size limit) has no room for the write.
    public var isOutOfSpace: Bool {
        code == .noSpace || code == .fileTooLarge || code == .quotaExceeded || isOnFullVolume
    }

    private static func volumeIsNearlyFull(_ path: String) -> Bool {
        var volume = statvfs()
        guard statvfs(path, &volume) == 0, volume.f_blocks > 0 else { return false }
        return UInt64(volume.f_bavail) * UInt64(volume.f_frsize) < 1 << 20
    }

    public var description: String {
        let place = path.map { " at \($0)" } ?? ""
        // A write cut short on a full volume is LMDB's EIO: said as what it is.
        let full = isOnFullVolume ? "the disk is full: " : ""
        return "\(full)\(operation) failed\(place): \(code) (\(code.rawValue)); \(remedy)"
    }

    static func defaultRemedy(for code: Code) -> String {
        switch code {
        case .noSpace, .fileTooLarge, .quotaExceeded:
            return "free space on the volume that holds the journal (or raise the file-size limit) and retry"
        case .permissionDenied, .readOnlyFileSystem:
            return "check that you may read and write the journal's directory (mode 0700) and its files (mode 0600)"
        case .noSuchFile:
            return "check the path, or create a journal there first"
        case .invalid, .versionMismatch:
            return "the file is not an LMDB environment this build can read, or it is damaged; point at a journal "
                + "directory, or restore it from a backup"
        case .corrupted, .panic, .pageNotFound:
            return "the environment is damaged; restore it from a backup"
        case .badTransaction:
            return "an earlier failure ended the transaction (a damaged page, often): if it happens again, the "
                + "environment is damaged; restore it from a backup"
        case .readersFull:
            return "too many processes are reading; close some, stale readers are cleared when a journal opens"
        case .mapFull:
            return "the memory map could not grow; free address space or memory and retry"
        case .databasesFull:
            return "raise maxDatabases when opening the environment"
        case .inputOutput:
            return "a read or write was cut short: check the free space, the file-size limit (ulimit -f) and the disk"
        default:
            return "see the LMDB documentation for this return code"
        }
    }
}

/// Turns an LMDB return code into a thrown `LMDBError`.
@inline(__always)
func check(_ rc: Int32, _ operation: @autoclosure () -> String, path: String? = nil) throws(LMDBError) {
    if rc != 0 { throw LMDBError(code: .init(rc), operation: operation(), path: path) }
}
