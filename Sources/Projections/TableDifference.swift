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
                        // Each row of this table looked up in the other, where it lies: nothing is copied but keys.
                        var rowsInBoth = 0
                        try here?.table(index).scan { key, value in
                            let same = try there?.table(index).withValue(forKey: Array(key)) { $0.elementsEqual(value) }
                            switch same {
                            case nil: difference.rowsOnlyHere += 1
                            case false?: difference.rowsChanged += 1
                            case true?: break
                            }
                            if same != nil { rowsInBoth += 1 }
                            return true
                        }
                        difference.rowsOnlyThere = try (there?.table(index).statistics().entries ?? 0) - rowsInBoth
                        if !difference.isEmpty { differences.append(difference) }
                    }
                }
                return differences
            }
        }
    }
}
