/// How one table of a store's read models differs, row by row, from the same table of another store's.
public struct TableDifference: Sendable, Equatable {
    /// `projection.table`, as ``ReadModelStore/tableDifferences(from:)`` names it.
    public let table: String
    /// Rows under a key that only this store's table has.
    public var rowsOnlyHere = 0
    /// Rows under a key that only the other store's table has.
    public var rowsOnlyThere = 0
    /// Rows under a key both tables have, with other values.
    public var rowsChanged = 0

    public init(table: String) { self.table = table }

    /// Whether the two tables hold the same rows.
    public var isEmpty: Bool { rowsOnlyHere == 0 && rowsOnlyThere == 0 && rowsChanged == 0 }
}

extension ReadModelStore {
    /// Compares every table of this store's read models with the same table of `other`'s, row by row, and returns
    /// those that differ, in the order of the projections and their tables. A read model never built counts as
    /// empty. `other` must keep the same projections (a scratch store replayed from the same journal, say).
    public func tableDifferences(from other: ReadModelStore) throws -> [TableDifference] {
        try read { mine in
            try other.read { theirs in
                var differences: [TableDifference] = []
                for descriptor in projections {
                    let here = try mine.model(descriptor.name)
                    let there = try theirs.model(descriptor.name)
                    for index in descriptor.tables.indices {
                        var difference = TableDifference(table: "\(descriptor.name).\(descriptor.tables[index])")
                        // The other table's rows, each crossed off as this table's row under its key is met.
                        var rowsThere: [[UInt8]: [UInt8]] = [:]
                        try there?.table(index).scan { key, value in
                            rowsThere[Array(key)] = Array(value)
                            return true
                        }
                        try here?.table(index).scan { key, value in
                            if let valueThere = rowsThere.removeValue(forKey: Array(key)) {
                                if !valueThere.elementsEqual(value) { difference.rowsChanged += 1 }
                            } else {
                                difference.rowsOnlyHere += 1
                            }
                            return true
                        }
                        difference.rowsOnlyThere = rowsThere.count
                        if !difference.isEmpty { differences.append(difference) }
                    }
                }
                return differences
            }
        }
    }
}
