import EventJournal

#if canImport(Glibc)
    import Glibc
#endif

/// The records that the projections of one pass read: those of a type one of them reads (see
/// ``Projection/eventTypes``), matched against the type's bytes where the record lies, without making a string of it.
struct RecordTypeFilter: Sendable {
    /// The types' names in UTF-8, by their length; nil admits every record.
    private let namesByLength: [[[UInt8]]]?

    /// The records that at least one of `projections` reads.
    init<Event>(_ projections: [any Projection<Event>]) {
        guard let types = eventTypes(readBy: projections) else {
            namesByLength = nil
            return
        }
        var table = [[[UInt8]]](repeating: [], count: (types.map(\.utf8.count).max() ?? 0) + 1)
        for type in types { table[type.utf8.count].append(Array(type.utf8)) }
        namesByLength = table
    }

    /// Whether a projection of the pass reads `record`'s event.
    func admits(_ record: RecordView) -> Bool {
        guard let namesByLength else { return true }
        let type = record.typeUTF8
        guard type.count < namesByLength.count else { return false }
        return namesByLength[type.count].contains { name in
            type.isEmpty || name.withUnsafeBytes { memcmp($0.baseAddress!, type.baseAddress!, type.count) == 0 }
        }
    }
}
