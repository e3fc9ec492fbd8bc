import LMDB

/// A projection's tables inside one transaction, with the checkpoint they stand at. Valid only inside the closure
/// that received it; a fold receives one in a write transaction, a query in a read transaction.
public struct ReadModel {
    public let transaction: Transaction
    let databases: [Database]
    /// Where the read model stood when the transaction began (a fold's writes do not move it; the projector does).
    public let checkpoint: Checkpoint

    /// The table at `index` in the projection's ``Projection/tables``.
    public func table(_ index: Int) -> ReadModelTable {
        ReadModelTable(transaction: transaction, database: databases[index])
    }
}

/// One table of a read model: an ordered map from byte-string keys to byte-string values.
///
/// Buffers handed to closures point into the memory map and are valid only inside them: copy what must outlive them.
public struct ReadModelTable {
    let transaction: Transaction
    let database: Database

    // MARK: Reading

    /// The table's entry count and pages.
    public func statistics() throws -> DatabaseStatistics { try transaction.statistics(of: database) }

    /// Calls `body` with the value under `key`; nil when there is none.
    public func withValue<R>(forKey key: [UInt8], _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R? {
        try transaction.withValue(forKey: key, in: database, body)
    }

    /// Calls `body` with each entry whose key starts with `prefix`, in key order (or reverse order), until `body`
    /// returns false. Given `start`, a forward scan begins at the first key at or after it, and a reverse scan at the
    /// last key before it.
    public func scan(
        prefix: [UInt8] = [], from start: [UInt8]? = nil, reverse: Bool = false,
        _ body: (_ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) throws -> Bool
    ) throws {
        try transaction.withCursor(on: database) { cursor in
            var entry: CursorEntry?
            if reverse {
                // The last key before `start`, and before every key past the prefix.
                let bound = [start, Self.successor(of: prefix)].compactMap { $0 }.min {
                    $0.lexicographicallyPrecedes($1)
                }
                if let bound {
                    entry =
                        try Self.firstEntry(atLeast: bound, cursor) != nil ? try cursor.previous() : try cursor.last()
                } else {
                    entry = try cursor.last()
                }
            } else {
                entry = try Self.firstEntry(atLeast: start.map { max($0, prefix) } ?? prefix, cursor)
            }
            while let current = entry, current.key.starts(with: prefix) {
                guard try body(current.key, current.value) else { return }
                entry = try reverse ? cursor.previous() : cursor.next()
            }
        }
    }

    /// Positions `cursor` on the first key at or after `key` (LMDB refuses to seek to an empty key).
    private static func firstEntry(atLeast key: [UInt8], _ cursor: Cursor) throws -> CursorEntry? {
        key.isEmpty ? try cursor.first() : try cursor.seek(atLeast: key)
    }

    /// The smallest key greater than every key that starts with `prefix`, or nil when there is none (all 0xFF).
    static func successor(of prefix: [UInt8]) -> [UInt8]? {
        var bound = prefix
        while let last = bound.last {
            if last < 0xFF {
                bound[bound.count - 1] = last + 1
                return bound
            }
            bound.removeLast()
        }
        return nil
    }

    // MARK: Writing (inside a write transaction)

    /// Stores `value` under `key`, replacing any value there.
    public func put(_ value: [UInt8], forKey key: [UInt8]) throws {
        try transaction.put(value, forKey: key, in: database)
    }

    /// Stores a copy of the bytes `value` points to under `key`, replacing any value there.
    public func put(_ value: UnsafeRawBufferPointer, forKey key: [UInt8]) throws {
        try key.withUnsafeBytes { key in _ = try transaction.put(value, forKey: key, in: database) }
    }

    /// Deletes `key`; returns false when it was not there.
    @discardableResult
    public func delete(_ key: [UInt8]) throws -> Bool {
        try transaction.delete(key, in: database)
    }
}

/// Keys compare as LMDB compares them: byte by byte, a prefix before the keys that extend it.
private func max(_ left: [UInt8], _ right: [UInt8]) -> [UInt8] {
    left.lexicographicallyPrecedes(right) ? right : left
}
