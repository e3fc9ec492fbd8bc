import CLMDB

#if canImport(Glibc)
    import Glibc
#endif

/// A page that ``Transaction/checkPages()`` found damaged.
public struct PageDamage: Sendable, Equatable, CustomStringConvertible {
    /// The page's number in the data file.
    public let page: UInt64
    /// The database whose tree holds the page: a named database, or LMDB's own `(names)` (the named databases' roots)
    /// or `(free pages)`.
    public let database: String
    /// What is wrong with the page.
    public let detail: String
    /// The key of the damaged node, when its bounds held.
    public var key: [UInt8]? = nil

    public var description: String { "page \(page) of database \(database): \(detail)" }
}

extension Environment {
    /// Walks every tree of the newest snapshot, LMDB's own and every named database's, and checks each page's
    /// structure where LMDB relies on it without a check of its own: each tree's flags (this module makes its
    /// databases plain), the page's number and kind, its bounds, each
    /// node's offset, size and flags, the overflow pages of large values, that no page belongs to two places, the order
    /// of the keys on each page, and each tree's counts of pages and entries. Returns the first damage found, nil when
    /// there is none. Writers may go on meanwhile.
    ///
    /// LMDB trusts its pages: a flag or an offset damaged on the disk sends its reads through pointers that lead
    /// anywhere, and the process dies of SIGSEGV. Only the map's bytes are read here, each after its bounds are
    /// checked, so a damaged page is reported, not followed.
    public func checkPages() throws -> PageDamage? {
        // A snapshot's meta page is written over two commits later: one that other writers' commits overwrote before
        // the walk read it is walked again, as a newer snapshot.
        for _ in 0..<1_000 {
            if case .checked(let damage) = try read({ try $0.checkPages() }) { return damage }
        }
        throw LMDBError(
            code: .busy, operation: "checkPages",
            remedy: "other processes committed faster than the check could begin; try again when they are quieter")
    }
}

/// What one walk of a transaction's pages came to.
enum PageCheck {
    case checked(PageDamage?)
    /// The snapshot's meta page was written over by later commits before the walk read it.
    case snapshotOverwritten
}

extension Transaction {
    /// Walks the pages of this read transaction's snapshot (see ``Environment/checkPages()``).
    func checkPages() throws(LMDBError) -> PageCheck {
        guard let pages, let base = UnsafeRawPointer(bitPattern: pages.map.lowerBound) else {
            throw LMDBError(
                code: .invalid, operation: "checkPages", remedy: "the environment's map was not found in this process")
        }
        var walk = PageWalk(
            base: base, pageSize: pages.pageSize, readablePages: pages.readablePages, snapshot: UInt64(mdb_txn_id(txn)))
        return walk.run()
    }
}

/// One walk of an environment's pages, read from its map. Every read of a page is within the readable pages, and
/// every read within a page is checked against the page's size first.
private struct PageWalk {
    let base: UnsafeRawPointer
    let pageSize: Int
    /// Pages that lie in both the map's pages in use and the data file.
    let readablePages: UInt64
    /// The transaction id of the snapshot: its meta page is the one with this id.
    let snapshot: UInt64
    /// The last page of the snapshot, from its meta page.
    private var lastPage: UInt64 = 0
    /// One bit per page: reached already.
    private var reached: [UInt64] = []

    // LMDB's layout (lmdb.h and mdb.c, format version 1): a page header of 16 bytes, then the nodes' offsets.
    private static let headerSize = 16
    private static let nodeHeaderSize = 8
    private static let databaseRecordSize = 48
    private static let branch: UInt16 = 0x01
    private static let leaf: UInt16 = 0x02
    private static let overflow: UInt16 = 0x04
    /// The bits that say what kind of page a page is (branch, leaf, overflow, meta, leaf2, sub-page).
    private static let kindBits: UInt16 = 0x01 | 0x02 | 0x04 | 0x08 | 0x20 | 0x40
    private static let bigData: UInt16 = 0x01
    private static let subDatabase: UInt16 = 0x02
    private static let integerKeys: UInt16 = 0x08
    private static let noRoot = UInt64.max

    init(base: UnsafeRawPointer, pageSize: Int, readablePages: UInt64, snapshot: UInt64) {
        self.base = base
        self.pageSize = pageSize
        self.readablePages = readablePages
        self.snapshot = snapshot
    }

    /// A database's record: in a meta page for LMDB's two, in a node of the names' tree for a named one.
    private struct DatabaseRecord {
        var flags: UInt16
        var depth: UInt16
        var branchPages: UInt64
        var leafPages: UInt64
        var overflowPages: UInt64
        var entries: UInt64
        var root: UInt64
    }

    /// What a tree's leaves may hold.
    private enum TreeKind {
        case freePages
        case names
        case named
    }

    private func load<T: FixedWidthInteger>(_ page: UInt64, _ offset: Int, as type: T.Type) -> T {
        T(littleEndian: base.loadUnaligned(fromByteOffset: Int(page) * pageSize + offset, as: T.self))
    }

    mutating func run() -> PageCheck {
        guard readablePages >= 2 else {
            return .checked(PageDamage(page: 0, database: "(meta)", detail: "no meta pages"))
        }
        // The meta page of this snapshot: LMDB read the same one as the transaction began (or, when neither has its
        // id, one that later commits wrote over since).
        func isSnapshots(_ meta: UInt64) -> Bool { load(meta, Self.headerSize + 128, as: UInt64.self) == snapshot }
        guard let meta: UInt64 = [0, 1].first(where: isSnapshots) else { return .snapshotOverwritten }
        let last = load(meta, Self.headerSize + 120, as: UInt64.self)
        let free = record(meta, at: Self.headerSize + 24)
        let names = record(meta, at: Self.headerSize + 24 + Self.databaseRecordSize)
        // Its id, written last, read again: a commit writing over the page meanwhile may have changed the rest.
        guard isSnapshots(meta) else { return .snapshotOverwritten }
        return .checked(walk(meta: meta, last: last, free: free, names: names))
    }

    private mutating func walk(
        meta: UInt64, last: UInt64, free: DatabaseRecord, names: DatabaseRecord
    ) -> PageDamage? {
        lastPage = last
        guard lastPage >= 1, lastPage < readablePages else {
            return PageDamage(
                page: meta, database: "(meta)",
                detail: "the last page, \(lastPage), is not in the data file's \(readablePages) pages")
        }
        reached = Array(repeating: 0, count: Int(lastPage / 64) + 1)
        reached[0] |= 0b11
        if let damage = walk(free, "(free pages)", .freePages) { return damage }
        var named: [(String, DatabaseRecord)] = []
        if let damage = walk(names, "(names)", .names, found: { named.append(($0, $1)) }) { return damage }
        for (name, record) in named {
            if let damage = walk(record, name, .named) { return damage }
        }
        return nil
    }

    private func record(_ page: UInt64, at offset: Int) -> DatabaseRecord {
        DatabaseRecord(
            flags: load(page, offset + 4, as: UInt16.self), depth: load(page, offset + 6, as: UInt16.self),
            branchPages: load(page, offset + 8, as: UInt64.self), leafPages: load(page, offset + 16, as: UInt64.self),
            overflowPages: load(page, offset + 24, as: UInt64.self), entries: load(page, offset + 32, as: UInt64.self),
            root: load(page, offset + 40, as: UInt64.self))
    }

    /// Marks `page` reached; false when it was reached before, or lies outside the snapshot's pages.
    private mutating func reach(_ page: UInt64) -> Bool {
        guard page <= lastPage else { return false }
        let (word, bit) = (Int(page / 64), UInt64(1) << (page % 64))
        guard reached[word] & bit == 0 else { return false }
        reached[word] |= bit
        return true
    }

    private func pageProblem(_ page: UInt64) -> String {
        page <= lastPage ? "is reached twice" : "is past the last page, \(lastPage)"
    }

    /// Walks one tree from its root; in the names' tree, each named database's record found goes to `found`.
    private mutating func walk(
        _ tree: DatabaseRecord, _ name: String, _ kind: TreeKind, found: (String, DatabaseRecord) -> Void = { _, _ in }
    ) -> PageDamage? {
        func damage(_ page: UInt64, _ detail: String, key: UnsafeRawBufferPointer? = nil) -> PageDamage {
            PageDamage(page: page, database: name, detail: detail, key: key.map(Array.init))
        }
        guard tree.root != Self.noRoot else {
            guard tree.depth == 0, tree.entries == 0, tree.branchPages + tree.leafPages + tree.overflowPages == 0 else {
                return damage(0, "the database has no root page but counts pages or entries")
            }
            return nil
        }
        // LMDB gives its free pages' tree integer keys; this module makes every other database plain, and LMDB
        // follows the flags (duplicate keys, key orders) wherever they lead.
        let madeWith: UInt16 = kind == .freePages ? Self.integerKeys : 0
        guard tree.flags == madeWith else {
            return damage(
                tree.root == Self.noRoot ? 0 : tree.root,
                "the database's flags are \(String(tree.flags, radix: 16)), not \(String(madeWith, radix: 16))")
        }
        let ordered = kind != .freePages
        let allowedNodeFlags: UInt16 = kind == .names ? Self.bigData | Self.subDatabase : Self.bigData
        var counted = (branch: UInt64(0), leaf: UInt64(0), overflow: UInt64(0), entries: UInt64(0))
        var pending: [(page: UInt64, level: UInt16, parent: UInt64?)] = [(tree.root, 1, nil)]
        while let (page, level, parent) = pending.popLast() {
            guard reach(page) else {
                return damage(parent ?? page, "a node points to page \(page), which \(pageProblem(page))")
            }
            guard load(page, 0, as: UInt64.self) == page else {
                return damage(page, "its header names page \(load(page, 0, as: UInt64.self))")
            }
            let isLeaf = level == tree.depth
            let kindFlags = load(page, 10, as: UInt16.self) & Self.kindBits
            guard level <= tree.depth, kindFlags == (isLeaf ? Self.leaf : Self.branch) else {
                return damage(
                    page,
                    "a page at level \(level) of \(tree.depth) has the flags \(String(kindFlags, radix: 16)), "
                        + "not a \(isLeaf ? "leaf" : "branch") page's")
            }
            let lower = Int(load(page, 12, as: UInt16.self))
            let upper = Int(load(page, 14, as: UInt16.self))
            guard Self.headerSize < lower, lower <= upper, upper <= pageSize, (lower - Self.headerSize) % 2 == 0 else {
                return damage(page, "its free space runs from \(lower) to \(upper) in a page of \(pageSize) bytes")
            }
            if isLeaf { counted.leaf += 1 } else { counted.branch += 1 }
            var previousKey: UnsafeRawBufferPointer?
            for index in 0..<(lower - Self.headerSize) / 2 {
                let offset = Int(load(page, Self.headerSize + 2 * index, as: UInt16.self))
                guard offset >= upper, offset + Self.nodeHeaderSize <= pageSize else {
                    return damage(page, "node \(index) lies at \(offset), outside the page's nodes")
                }
                let low = UInt64(load(page, offset, as: UInt16.self))
                let high = UInt64(load(page, offset + 2, as: UInt16.self))
                let flags = load(page, offset + 4, as: UInt16.self)
                let keySize = Int(load(page, offset + 6, as: UInt16.self))
                let keyStart = offset + Self.nodeHeaderSize
                guard keyStart + keySize <= pageSize else {
                    return damage(page, "node \(index)'s key of \(keySize) bytes runs past the page")
                }
                let key = UnsafeRawBufferPointer(start: base + Int(page) * pageSize + keyStart, count: keySize)
                // A branch page's first key is not compared: it stands for every key below the second.
                if ordered, let previousKey, isLeaf || index > 1, !previousKey.lexicographicallyPrecedes(key) {
                    return damage(page, "node \(index)'s key is not above the one before", key: key)
                }
                previousKey = key
                guard isLeaf else {
                    pending.append((low | high << 16 | UInt64(flags) << 32, level + 1, page))
                    continue
                }
                counted.entries += 1
                guard flags & ~allowedNodeFlags == 0 else {
                    return damage(
                        page, "node \(index) has the flags \(String(flags, radix: 16)), which its tree cannot have",
                        key: key)
                }
                let dataSize = Int(low | high << 16)
                let dataStart = keyStart + keySize
                guard flags & Self.bigData == 0 else {
                    guard dataStart + 8 <= pageSize else {
                        return damage(page, "node \(index)'s overflow page number runs past the page", key: key)
                    }
                    let first = load(page, dataStart, as: UInt64.self)
                    if let problem = checkOverflow(first, bytes: dataSize, counted: &counted.overflow) {
                        return damage(page, "node \(index)'s value on page \(first): \(problem)", key: key)
                    }
                    continue
                }
                guard dataStart + dataSize <= pageSize else {
                    return damage(page, "node \(index)'s value of \(dataSize) bytes runs past the page", key: key)
                }
                guard flags & Self.subDatabase == 0 else {
                    guard dataSize == Self.databaseRecordSize else {
                        return damage(page, "node \(index)'s database record has \(dataSize) bytes", key: key)
                    }
                    found(String(decoding: key, as: UTF8.self), record(page, at: dataStart))
                    continue
                }
            }
        }
        guard
            counted
                == (branch: tree.branchPages, leaf: tree.leafPages, overflow: tree.overflowPages, entries: tree.entries)
        else {
            return damage(
                tree.root,
                "the tree counts \(tree.branchPages) branch, \(tree.leafPages) leaf and \(tree.overflowPages) "
                    + "overflow pages and \(tree.entries) entries; its pages hold \(counted.branch), \(counted.leaf), "
                    + "\(counted.overflow) and \(counted.entries)")
        }
        return nil
    }

    /// Checks the run of overflow pages from `first` that holds a value of `bytes`; returns what is wrong.
    private mutating func checkOverflow(_ first: UInt64, bytes: Int, counted: inout UInt64) -> String? {
        guard first <= lastPage, reach(first) else { return "the page \(pageProblem(first))" }
        guard load(first, 0, as: UInt64.self) == first,
            load(first, 10, as: UInt16.self) & Self.kindBits == Self.overflow
        else { return "not an overflow page" }
        let count = UInt64(load(first, 12, as: UInt32.self))
        let needed = UInt64((Self.headerSize + bytes + pageSize - 1) / pageSize)
        guard count >= needed, first + count - 1 <= lastPage else {
            return "\(count) overflow pages for \(bytes) bytes, up to the last page \(lastPage)"
        }
        for page in first + 1..<first + count where !reach(page) { return "its page \(page) is reached twice" }
        counted += count
        return nil
    }
}
