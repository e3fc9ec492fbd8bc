#if canImport(Glibc)
    import Glibc
#endif

/// The meta pages of an existing data file, read as bytes rather than through LMDB: the page sizes they give, checked
/// before LMDB reads them (`mdb_env_open` steps to the second meta page by the first's size and divides by the newer
/// one's, so a size of 0 kills the process with SIGFPE, and any other size that no LMDB writes sends its reads astray),
/// and whether either ever held a database, which LMDB, going by the newer one alone, cannot say.
enum MetaPages {
    // LMDB's layout (lmdb.h and mdb.c, format version 1): a page header of 16 bytes whose flags are at byte 10, then
    // the meta record, whose magic number opens it and whose page size is the free pages' record's first field; the
    // main database's record follows the free pages' (48 bytes each), its count of entries 32 bytes in.
    private static let flagsOffset: Int64 = 10
    private static let magicOffset: Int64 = 16
    private static let pageSizeOffset: Int64 = 40
    private static let mainEntriesOffset: Int64 = 120
    private static let transactionOffset: Int64 = 144
    private static let metaFlag: UInt16 = 0x08
    private static let magic: UInt32 = 0xBEEF_C0DE
    /// The sizes LMDB writes: the system's page size, a power of two no smaller than this and no larger than 64 KiB.
    private static let smallest: UInt32 = 512
    private static let largest: UInt32 = 65_536

    /// Refuses the data file in the environment directory `path` when a meta page that LMDB would go by gives a page
    /// size LMDB never writes: the first, and the second when it is the newer. A missing or empty file, or a page that
    /// is not a meta page at all, is left to LMDB to report; so is an older second meta page, which the next commit
    /// writes over.
    static func requirePlausiblePageSizes(inEnvironmentAt path: String) throws(LMDBError) {
        let file = open(path + "/data.mdb", O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { return }
        defer { close(file) }
        guard let first = try meta(file, at: 0, path: path) else { return }
        try requirePlausible(first.pageSize, page: 0, path: path)
        guard let second = try meta(file, at: Int64(first.pageSize), path: path),
            second.transaction > first.transaction
        else { return }
        try requirePlausible(second.pageSize, page: 1, path: path)
    }

    private static func requirePlausible(_ size: UInt32, page: Int, path: String) throws(LMDBError) {
        guard size >= smallest, size <= largest, size & (size - 1) == 0 else {
            throw LMDBError(
                code: .corrupted, operation: "mdb_env_open", path: path,
                remedy: "meta page \(page) of the data file gives a page size of \(size), which LMDB never writes; "
                    + "restore it from a backup")
        }
    }

    /// Whether a meta page of the data file in the environment directory `path` records named databases (in the
    /// main database, which holds their names); false for a missing file, or for one without meta pages of LMDB's.
    static func recordDatabases(inEnvironmentAt path: String) throws(LMDBError) -> Bool {
        let file = open(path + "/data.mdb", O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { return false }
        defer { close(file) }
        guard let first = try meta(file, at: 0, path: path) else { return false }
        if first.mainEntries > 0 { return true }
        // The second meta page lies one page on, by the first's size, which must be one LMDB writes.
        try requirePlausible(first.pageSize, page: 0, path: path)
        return try meta(file, at: Int64(first.pageSize), path: path).map { $0.mainEntries > 0 } ?? false
    }

    /// The page size, count of the main database's entries and transaction id of the meta page at byte `offset` of
    /// `file`; nil when no meta page of LMDB's is there.
    private static func meta(
        _ file: Int32, at offset: Int64, path: String
    ) throws(LMDBError) -> (pageSize: UInt32, mainEntries: UInt64, transaction: UInt64)? {
        guard let flags = try read(UInt16.self, file, at: offset + flagsOffset, path: path), flags & metaFlag != 0,
            try read(UInt32.self, file, at: offset + magicOffset, path: path) == magic,
            let pageSize = try read(UInt32.self, file, at: offset + pageSizeOffset, path: path),
            let mainEntries = try read(UInt64.self, file, at: offset + mainEntriesOffset, path: path),
            let transaction = try read(UInt64.self, file, at: offset + transactionOffset, path: path)
        else { return nil }
        return (pageSize, mainEntries, transaction)
    }

    /// The little-endian integer at byte `offset` of `file`; nil past the file's end.
    private static func read<T: FixedWidthInteger>(
        _ type: T.Type, _ file: Int32, at offset: Int64, path: String
    ) throws(LMDBError) -> T? {
        var value: T = 0
        let count = withUnsafeMutableBytes(of: &value) { buffer in
            while true {
                let count = pread(file, buffer.baseAddress, buffer.count, off_t(offset))
                if count >= 0 || errno != EINTR { return count }
            }
        }
        guard count >= 0 else { throw LMDBError(code: .init(errno), operation: "pread", path: path) }
        return count == MemoryLayout<T>.size ? T(littleEndian: value) : nil
    }
}
