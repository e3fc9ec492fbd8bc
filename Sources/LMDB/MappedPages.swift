import CLMDB

/// The part of an environment's memory map that holds its pages in use, as a transaction begins: where a value LMDB
/// hands out from the map must lie.
///
/// LMDB trusts the sizes in its pages: a damaged node's size can reach past the pages in use, and a read there past
/// the end of the file ends the process with SIGBUS. Values are checked against these bounds before anyone reads
/// them. Values outside the map (a write transaction's own pages, which LMDB keeps in memory until the commit) are
/// not checked.
struct MappedPages {
    /// The whole map.
    let map: Range<UInt>
    /// The map's pages that the file holds: from the start of the map to the end of the last page in use.
    let inUse: Range<UInt>

    /// A buffer over `value`, which `operation` returned; an error when it points into the map of `pages` (when
    /// known) past the pages in use.
    @inline(__always)
    static func buffer(
        _ value: MDB_val, within pages: MappedPages?, _ operation: @autoclosure () -> String
    ) throws(LMDBError) -> UnsafeRawBufferPointer {
        if let pages { try pages.check(value, operation()) }
        return UnsafeRawBufferPointer(start: value.mv_data, count: value.mv_size)
    }

    private func check(_ value: MDB_val, _ operation: @autoclosure () -> String) throws(LMDBError) {
        let start = UInt(bitPattern: value.mv_data)
        // An empty value may end a page, and so begin where the pages in use end.
        let fits = inUse.lowerBound <= start && start <= inUse.upperBound && value.mv_size <= inUse.upperBound - start
        if map.contains(start), !fits {
            throw LMDBError(
                code: .corrupted, operation: operation(),
                remedy: "a stored size reaches past the pages in use: the environment is damaged; restore it from a "
                    + "backup")
        }
    }
}
