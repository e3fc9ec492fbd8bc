import LMDB

/// Reads a journal's records in position order, where they lie in the map, inside the closure of
/// ``Journal/withRecords(from:in:_:)``.
public struct RecordReader {
    private let cursor: Cursor
    /// Where the first call seeks to; nil once it has.
    private var start: UInt64?
    private var prefetch: PagePrefetch

    init(_ cursor: Cursor, from position: UInt64) {
        self.cursor = cursor
        prefetch = PagePrefetch(cursor)
        start = max(position, 1)
    }

    /// The next record, checked as ``EventRecord`` is; nil after the last. The view is valid until the next call.
    public mutating func next() throws -> RecordView? {
        let entry: CursorEntry?
        if let position = start {
            entry = try cursor.seek(atLeast: BigEndianKey.encode(position))
            start = nil
        } else {
            entry = try cursor.next()
        }
        guard let entry else { return nil }
        // Records are read once, in order: each page's are fetched together, and the next page's meanwhile.
        prefetch.reading(entry)
        guard let position = BigEndianKey.decode(entry.key) else {
            throw JournalError.corrupt(0, "an events key of \(entry.key.count) bytes")
        }
        return try RecordView(checking: entry.value, at: position)
    }
}
