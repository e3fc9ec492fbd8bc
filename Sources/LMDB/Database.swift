import CLMDB

/// A named database inside an environment. Opened once at start-up; the handle is valid for the environment's life.
public struct Database: Sendable, Hashable {
    let dbi: MDB_dbi
    public let name: String
}

/// Sizes of one database, from `mdb_stat`.
public struct DatabaseStatistics: Sendable, Equatable {
    public let entries: Int
    public let depth: Int
    public let pageSize: Int
    public let branchPages: Int
    public let leafPages: Int
    public let overflowPages: Int

    init(_ stat: MDB_stat) {
        entries = stat.ms_entries
        depth = Int(stat.ms_depth)
        pageSize = Int(stat.ms_psize)
        branchPages = stat.ms_branch_pages
        leafPages = stat.ms_leaf_pages
        overflowPages = stat.ms_overflow_pages
    }
}

/// Flags for `WriteTransaction.put`.
public struct PutOptions: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Fail with `false` instead of replacing an existing key.
    public static let noOverwrite = PutOptions(rawValue: UInt32(MDB_NOOVERWRITE))
    /// The key sorts after every key in the database (fast sequential append).
    public static let append = PutOptions(rawValue: UInt32(MDB_APPEND))
}
