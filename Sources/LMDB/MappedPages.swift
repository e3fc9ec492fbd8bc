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
    let pageSize: Int

    /// The bounds of `map`, whose first `pages` pages of `pageSize` bytes are in use (clamped to the map, should a
    /// damaged meta page count more).
    init(map: Range<UInt>, pages: Int, pageSize: Int, file: Int32) {
        let (bytes, overflow) = UInt(clamping: pages).multipliedReportingOverflow(by: UInt(clamping: pageSize))
        self.map = map
        self.inUse = map.lowerBound..<(overflow ? map.upperBound : map.lowerBound + min(bytes, UInt(map.count)))
        self.file = file
        self.pageSize = pageSize
    }

    /// How many pages from the start of the map may be read: those both in use and in the data file.
    var readablePages: UInt64 {
        var status = stat()
        let fileBytes = fstat(file, &status) == 0 ? UInt(clamping: status.st_size) : 0
        return UInt64(min(UInt(inUse.count), fileBytes) / UInt(max(pageSize, 1)))
    }

    /// Whether `value` may be read: it lies outside the map, or within the file. The common case, within the pages in
    /// use, costs two comparisons; past them, the file's size is asked for.
    @inline(__always)
    func allows(_ value: MDB_val) -> Bool {
        let start = UInt(bitPattern: value.mv_data)
        return !map.contains(start) || Self.holds(inUse, start, value.mv_size) || isInFile(start, value.mv_size)
    }

    /// The error for a value `operation` returned that `allows(_:)` refuses.
    static func damage(_ operation: String) -> LMDBError {
        LMDBError(
            code: .corrupted, operation: operation,
            remedy: "a stored size reaches past the end of the data file: the environment is damaged; restore it "
                + "from a backup")
    }

    private func isInFile(_ start: UInt, _ count: Int) -> Bool {
        var status = stat()
        let fileBytes = fstat(file, &status) == 0 ? UInt(clamping: status.st_size) : 0
        return Self.holds(map.lowerBound..<map.lowerBound + min(fileBytes, UInt(map.count)), start, count)
    }

    /// Whether `count` bytes from `start` lie in `range` (an empty value may end a page, and so begin at its end).
    private static func holds(_ range: Range<UInt>, _ start: UInt, _ count: Int) -> Bool {
        range.lowerBound <= start && start <= range.upperBound && UInt(count) <= range.upperBound - start
    }
}
