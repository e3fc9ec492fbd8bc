import CLMDB

/// Asks the processor for the map pages a scan in key order is about to read: as the scan enters a page, for that page
/// (its other entries) and the next (where, in a database appended in key order, the next entries mostly lie), so
/// that it waits on their cache lines together rather than on each entry's in turn. A hint only: it reads nothing, and
/// a wrong guess costs a few loads.
public struct PagePrefetch {
    /// The size of the environment's pages, which LMDB reads from the file (not always the system's).
    private let pageSize: UInt
    /// The page of the last entry read; 0 before the first.
    private var page: UInt = 0

    /// For a scan of `cursor`, valid as long as the cursor is.
    public init(_ cursor: Cursor) {
        var stat = MDB_stat()
        let found = mdb_env_stat(mdb_txn_env(mdb_cursor_txn(cursor.cursor)), &stat) == MDB_SUCCESS
        pageSize = found ? UInt(stat.ms_psize) : 0
    }

    /// Notes that the scan reads `entry`; asks for its page and the next when it lies on another page than the last.
    public mutating func reading(_ entry: CursorEntry) {
        guard pageSize > 0, let value = entry.value.baseAddress else { return }
        let entered = UInt(bitPattern: value) / pageSize
        guard entered != page else { return }
        page = entered
        liftledger_prefetch(entered * pageSize, 2 * Int(pageSize))
    }
}
