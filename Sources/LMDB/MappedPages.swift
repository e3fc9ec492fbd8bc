import CLMDB

#if canImport(Glibc)
    import Glibc
#endif

/// Where a value LMDB hands out from an environment's memory map must lie: within the pages in use as the transaction
/// began, or at least within the data file.
///
/// LMDB trusts the sizes in its pages: a damaged node's size can reach past the end of the file, and a read there ends
/// the process with SIGBUS. Values are checked before anyone reads them: against the pages in use first, then, for a
/// value past them (a page a large write transaction spilled to the file before its commit), against the file's
/// size. Values outside the map (pages a write transaction keeps in memory) are not checked.
struct MappedPages {
    /// The whole map.
    let map: Range<UInt>
    /// The pages in use as the transaction began, from the start of the map.
    let inUse: Range<UInt>
    /// The data file's descriptor, for its size.
    let file: Int32

    /// The bounds of `map`, whose first `pages` pages of `pageSize` bytes are in use (clamped to the map, should a
    /// damaged meta page count more).
    init(map: Range<UInt>, pages: Int, pageSize: Int, file: Int32) {
        let (bytes, overflow) = UInt(clamping: pages).multipliedReportingOverflow(by: UInt(clamping: pageSize))
        self.map = map
        self.inUse = map.lowerBound..<(overflow ? map.upperBound : map.lowerBound + min(bytes, UInt(map.count)))
        self.file = file
    }

    /// A buffer over `value`, which `operation` returned; an error when it points into the map of `pages` (when
    /// known) past the end of the file.
    @inline(__always)
    static func buffer(
        _ value: MDB_val, within pages: MappedPages?, _ operation: @autoclosure () -> String
    ) throws(LMDBError) -> UnsafeRawBufferPointer {
        if let pages { try pages.check(value, operation()) }
        return UnsafeRawBufferPointer(start: value.mv_data, count: value.mv_size)
    }

    private func check(_ value: MDB_val, _ operation: @autoclosure () -> String) throws(LMDBError) {
        let start = UInt(bitPattern: value.mv_data)
        guard map.contains(start), !Self.holds(inUse, start, value.mv_size) else { return }
        var status = stat()
        let fileBytes = fstat(file, &status) == 0 ? UInt(clamping: status.st_size) : 0
        let inFile = map.lowerBound..<map.lowerBound + min(fileBytes, UInt(map.count))
        guard !Self.holds(inFile, start, value.mv_size) else { return }
        throw LMDBError(
            code: .corrupted, operation: operation(),
            remedy: "a stored size reaches past the end of the data file: the environment is damaged; restore it "
                + "from a backup")
    }

    /// Whether `count` bytes from `start` lie in `range` (an empty value may end a page, and so begin at its end).
    private static func holds(_ range: Range<UInt>, _ start: UInt, _ count: Int) -> Bool {
        range.lowerBound <= start && start <= range.upperBound && UInt(count) <= range.upperBound - start
    }
}
