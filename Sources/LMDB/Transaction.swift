import CLMDB

/// A transaction, valid only inside the `read` or `write` closure that received it; never keep it.
///
/// Buffers handed to closures point into the memory map and are valid only inside those closures: copy what
/// must outlive them.
public struct Transaction {
    let txn: OpaquePointer
    public let isReadOnly: Bool
    /// Where the values it reads from the map must lie; nil when the map was not found.
    let pages: MappedPages?

    init(_ txn: OpaquePointer, readOnly: Bool, pages: MappedPages?) {
        self.txn = txn
        self.isReadOnly = readOnly
        self.pages = pages
    }

    // MARK: Reading

    /// Calls `body` with the value stored under `key`, or returns nil when there is none.
    public func withValue<R>(
        forKey key: UnsafeRawBufferPointer, in database: Database, _ body: (UnsafeRawBufferPointer) throws -> R
    ) throws -> R? {
        var keyValue = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var data = MDB_val()
        let rc = mdb_get(txn, database.dbi, &keyValue, &data)
        if rc == MDB_NOTFOUND { return nil }
        try check(rc, "mdb_get(\(database.name))")
        guard pages?.allows(data) != false else { throw MappedPages.damage("mdb_get(\(database.name))") }
        return try body(UnsafeRawBufferPointer(start: data.mv_data, count: data.mv_size))
    }

    /// Calls `body` with the value stored under `key`, or returns nil when there is none.
    public func withValue<R>(
        forKey key: [UInt8], in database: Database, _ body: (UnsafeRawBufferPointer) throws -> R
    ) throws -> R? {
        try key.withUnsafeBytes { try withValue(forKey: $0, in: database, body) }
    }

    /// A copy of the value stored under `key`.
    public func value(forKey key: [UInt8], in database: Database) throws -> [UInt8]? {
        try withValue(forKey: key, in: database) { Array($0) }
    }

    /// Opens a cursor on `database` for the duration of `body`.
    public func withCursor<R>(on database: Database, _ body: (Cursor) throws -> R) throws -> R {
        var cursor: OpaquePointer?
        try check(mdb_cursor_open(txn, database.dbi, &cursor), "mdb_cursor_open(\(database.name))")
        guard let cursor else { throw LMDBError(code: .misuse, operation: "mdb_cursor_open(\(database.name))") }
        defer { mdb_cursor_close(cursor) }
        return try body(Cursor(cursor: cursor, database: database, pages: pages))
    }

    /// Entry counts and page figures of `database` as this transaction sees it.
    public func statistics(of database: Database) throws -> DatabaseStatistics {
        var stat = MDB_stat()
        try check(mdb_stat(txn, database.dbi, &stat), "mdb_stat(\(database.name))")
        return DatabaseStatistics(stat)
    }

    // MARK: Writing

    /// Stores `value` under `key`. With `.noOverwrite`, returns false (and writes nothing) if the key exists.
    @discardableResult
    public func put(
        _ value: UnsafeRawBufferPointer, forKey key: UnsafeRawBufferPointer, in database: Database,
        options: PutOptions = []
    ) throws -> Bool {
        try requireWritable("mdb_put(\(database.name))")
        var keyValue = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var data = MDB_val(mv_size: value.count, mv_data: UnsafeMutableRawPointer(mutating: value.baseAddress))
        let rc = mdb_put(txn, database.dbi, &keyValue, &data, options.rawValue)
        if rc == MDB_KEYEXIST, options.contains(.noOverwrite) { return false }
        try check(rc, "mdb_put(\(database.name))")
        return true
    }

    /// Stores `value` under `key`. With `.noOverwrite`, returns false (and writes nothing) if the key exists.
    @discardableResult
    public func put(
        _ value: [UInt8], forKey key: [UInt8], in database: Database, options: PutOptions = []
    ) throws
        -> Bool
    {
        try value.withUnsafeBytes { value in
            try key.withUnsafeBytes { key in try put(value, forKey: key, in: database, options: options) }
        }
    }

    /// Deletes `key`; returns false if it was not there.
    @discardableResult
    public func delete(_ key: [UInt8], in database: Database) throws -> Bool {
        try requireWritable("mdb_del(\(database.name))")
        return try key.withUnsafeBytes { key in
            var keyValue = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
            let rc = mdb_del(txn, database.dbi, &keyValue, nil)
            if rc == MDB_NOTFOUND { return false }
            try check(rc, "mdb_del(\(database.name))")
            return true
        }
    }

    /// Deletes every entry of `database`, which stays open (`mdb_drop` without deleting the database). LMDB frees the
    /// pages from the branch pages alone, unless the database has overflow pages: it then reads every leaf page.
    public func empty(_ database: Database) throws {
        try requireWritable("mdb_drop(\(database.name))")
        try check(mdb_drop(txn, database.dbi, 0), "mdb_drop(\(database.name))")
    }

    /// `operation` is built only on failure: formatting it for every put would cost more than the put.
    private func requireWritable(_ operation: @autoclosure () -> String) throws(LMDBError) {
        if isReadOnly {
            throw LMDBError(code: .misuse, operation: operation(), remedy: "write inside Environment.write, not read")
        }
    }
}

/// One key and value under a cursor; both point into the map and are valid until the cursor moves.
public struct CursorEntry {
    public let key: UnsafeRawBufferPointer
    public let value: UnsafeRawBufferPointer
}

/// A position in a database, valid only inside the `withCursor` closure that received it.
public struct Cursor {
    let cursor: OpaquePointer
    let database: Database
    let pages: MappedPages?

    public func first() throws -> CursorEntry? { try move(MDB_FIRST) }
    public func last() throws -> CursorEntry? { try move(MDB_LAST) }
    public func next() throws -> CursorEntry? { try move(MDB_NEXT) }
    public func previous() throws -> CursorEntry? { try move(MDB_PREV) }

    /// Deletes the entry under the cursor (in a write transaction); `next()` then returns the entry that followed it.
    public func deleteCurrent() throws {
        try check(mdb_cursor_del(cursor, 0), "mdb_cursor_del(\(database.name))")
    }

    /// Moves to the first key greater than or equal to `key`.
    public func seek(atLeast key: UnsafeRawBufferPointer) throws -> CursorEntry? {
        var keyValue = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var data = MDB_val()
        return try entry(mdb_cursor_get(cursor, &keyValue, &data, MDB_SET_RANGE), keyValue, data)
    }

    /// Moves to the first key greater than or equal to `key`.
    public func seek(atLeast key: [UInt8]) throws -> CursorEntry? {
        try key.withUnsafeBytes { try seek(atLeast: $0) }
    }

    private func move(_ operation: MDB_cursor_op) throws -> CursorEntry? {
        var keyValue = MDB_val()
        var data = MDB_val()
        return try entry(mdb_cursor_get(cursor, &keyValue, &data, operation), keyValue, data)
    }

    private func entry(_ rc: Int32, _ key: MDB_val, _ data: MDB_val) throws -> CursorEntry? {
        if rc == MDB_NOTFOUND { return nil }
        try check(rc, "mdb_cursor_get(\(database.name))")
        guard pages.map({ $0.allows(key) && $0.allows(data) }) != false else {
            throw MappedPages.damage("mdb_cursor_get(\(database.name))")
        }
        return CursorEntry(
            key: UnsafeRawBufferPointer(start: key.mv_data, count: key.mv_size),
            value: UnsafeRawBufferPointer(start: data.mv_data, count: data.mv_size))
    }
}
