import Foundation
import LMDB

/// The databases of a set of projections in one LMDB environment: each projection's tables, twice (two slots, so
/// that a rebuild can fill one while queries read the other), and the `checkpoints` database.
///
/// The environment is usually the journal's own (``EventJournal/Journal/environment``), so that a chunk of events
/// is read, folded and checkpointed in one write transaction. A scratch store in an environment of its own holds
/// read models replayed for a question about the past, or for a preview.
public final class ReadModelStore: Sendable {
    public let environment: Environment
    public let projections: [ProjectionDescriptor]
    let checkpoints: Database
    /// Per projection name: the tables of slot 0, then those of slot 1.
    private let slots: [String: [[Database]]]
    static let checkpointsName = "checkpoints"

    /// A store in a new environment whose files have no name: for read models replayed to answer a question about
    /// the past or to preview a change, never for the live ones. Its directory in the temporary directory is removed
    /// as soon as the environment has its files open, so that nothing is left behind however the process ends (an
    /// exit, a kill); the space is freed when the store is released.
    public static func scratch(projections: [ProjectionDescriptor]) throws -> ReadModelStore {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("liftledger-scratch-\(UUID().uuidString.lowercased())").path
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Nothing in it outlives the process, so commits need not reach the disk.
        let environment = try Environment.open(path: directory, options: EnvironmentOptions(noSync: true))
        return try ReadModelStore(environment: environment, projections: projections)
    }

    /// Opens the tables of `projections` in `environment`, creating the missing ones.
    public init(environment: Environment, projections: [ProjectionDescriptor]) throws {
        for projection in projections {
            try Self.validate(projection)
        }
        guard Set(projections.map(\.name)).count == projections.count else {
            throw ProjectionError(.invalidDefinition, "two projections share a name", remedy: "name each once")
        }
        var names = [Self.checkpointsName]
        for projection in projections {
            for slot in 0...1 {
                names += projection.tables.map { Self.databaseName(projection.name, $0, slot: slot) }
            }
        }
        let databases: [Database]
        do {
            databases = try environment.openDatabases(names, create: false)
        } catch let error as LMDBError where error.code == .notFound {
            // The first use of these projections in this environment: create their databases, once.
            databases = try environment.openDatabases(names, create: true)
        }
        self.environment = environment
        self.projections = projections
        checkpoints = databases[0]
        var slots: [String: [[Database]]] = [:]
        var next = 1
        for projection in projections {
            let count = projection.tables.count
            slots[projection.name] = [
                Array(databases[next..<next + count]), Array(databases[next + count..<next + 2 * count]),
            ]
            next += 2 * count
        }
        self.slots = slots
    }

    /// The database of `table` in `slot`: `rm.<projection>.<table>.<slot>`.
    static func databaseName(_ projection: String, _ table: String, slot: Int) -> String {
        "rm.\(projection).\(table).\(slot)"
    }

    private static func validate(_ projection: ProjectionDescriptor) throws {
        func isName(_ text: String) -> Bool {
            (1...40).contains(text.utf8.count)
                && text.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D }
        }
        guard isName(projection.name), !projection.tables.isEmpty, projection.tables.allSatisfy(isName),
            Set(projection.tables).count == projection.tables.count, projection.rulesDigest.count <= 255
        else {
            throw ProjectionError(
                .invalidDefinition, "projection \(projection.name.debugDescription) is not well defined",
                remedy: "use 1 to 40 lowercase letters, digits and '-' for its name and for each of its tables")
        }
    }

    func descriptor(_ name: String) throws -> ProjectionDescriptor {
        guard let descriptor = projections.first(where: { $0.name == name }) else {
            throw ProjectionError(
                .unknownProjection, "no projection named \(name.debugDescription)",
                remedy: "the projections are: \(projections.map(\.name).joined(separator: ", "))")
        }
        return descriptor
    }

    func tables(_ projection: String, slot: UInt8) -> [Database] {
        slots[projection]![Int(slot)]
    }

    // MARK: Emptying a slot

    /// How many entries one transaction deletes at most, and how many bytes of keys and values it deletes before it
    /// stops (the last entry may take it past). Deleting makes many times the bytes it deletes resident (the pages
    /// LMDB copies and rebalances), so the bytes bound what a step adds to the process's memory: tables of large rows
    /// are emptied in more steps.
    static let deletionsPerTransaction = 16_384
    static let deletedBytesPerTransaction = 1 << 20

    /// Empties the tables of `projection`'s `slot`: in one transaction every table without overflow pages, whose pages
    /// LMDB frees reading only its branch pages; then each table with overflow pages, a bounded number of entries per
    /// transaction, since LMDB (0.9.24) would read every one of its pages to empty it at once, which for a large read
    /// model would make them all resident. Releases the pages read between transactions. Stops as soon as
    /// `stillWanted`, asked in each transaction, says no.
    func emptySlot(_ projection: String, slot: UInt8, while stillWanted: (Transaction) throws -> Bool) throws {
        try empty(tables(projection, slot: slot), while: stillWanted)
    }

    /// Empties, as ``emptySlot(_:slot:while:)`` does, the databases named after `projection` that are not among its
    /// tables: tables an older version of its code had. The databases stay, empty, for a process still running that
    /// code.
    func emptyTablesNoLongerKept(_ projection: String, while stillWanted: (Transaction) throws -> Bool) throws {
        let kept = Set((tables(projection, slot: 0) + tables(projection, slot: 1)).map(\.name))
        let stale = try environment.databaseNames().filter { $0.hasPrefix("rm.\(projection).") && !kept.contains($0) }
        guard !stale.isEmpty else { return }
        try empty(environment.openDatabases(stale, create: false), while: stillWanted)
    }

    private func empty(_ tables: [Database], while stillWanted: (Transaction) throws -> Bool) throws {
        let withOverflow = try environment.write { transaction -> [Database]? in
            guard try stillWanted(transaction) else { return nil }
            var withOverflow: [Database] = []
            for table in tables {
                let statistics = try transaction.statistics(of: table)
                if statistics.entries == 0 { continue }
                if statistics.overflowPages == 0 {
                    try transaction.empty(table)
                } else {
                    withOverflow.append(table)
                }
            }
            return withOverflow
        }
        environment.releaseResidentPages()
        for table in withOverflow ?? [] {
            while true {
                let step = try environment.write { transaction -> (wanted: Bool, done: Bool) in
                    guard try stillWanted(transaction) else { return (false, true) }
                    return try transaction.withCursor(on: table) { cursor in
                        var deleted = 0
                        var bytes = 0
                        while deleted < Self.deletionsPerTransaction, bytes < Self.deletedBytesPerTransaction {
                            guard let entry = try cursor.first() else { return (true, true) }
                            bytes += entry.key.count + entry.value.count
                            try cursor.deleteCurrent()
                            deleted += 1
                        }
                        return (true, false)
                    }
                }
                environment.releaseResidentPages()
                guard step.wanted else { return }
                if step.done { break }
            }
        }
    }

    /// Whether every table of `projection`'s `slot` is empty.
    func slotIsEmpty(_ projection: String, slot: UInt8, _ transaction: Transaction) throws -> Bool {
        try tables(projection, slot: slot).allSatisfy { try transaction.statistics(of: $0).entries == 0 }
    }

    // MARK: Checkpoints

    func checkpoint(_ projection: String, _ transaction: Transaction) throws -> Checkpoint? {
        try entry(Array(projection.utf8), transaction, Checkpoint.init(decoding:))
    }

    func putCheckpoint(_ checkpoint: Checkpoint, for projection: String, _ transaction: Transaction) throws {
        try transaction.put(checkpoint.encoded, forKey: Array(projection.utf8), in: checkpoints)
    }

    /// The rebuild under way, if any, kept under `<name>/rebuild`.
    func rebuildMarker(_ projection: String, _ transaction: Transaction) throws -> RebuildMarker? {
        try entry(Self.markerKey(projection), transaction, RebuildMarker.init(decoding:))
    }

    func putRebuildMarker(_ marker: RebuildMarker, for projection: String, _ transaction: Transaction) throws {
        try transaction.put(marker.encoded, forKey: Self.markerKey(projection), in: checkpoints)
    }

    func removeRebuildMarker(_ projection: String, _ transaction: Transaction) throws {
        try transaction.delete(Self.markerKey(projection), in: checkpoints)
    }

    private static func markerKey(_ projection: String) -> [UInt8] { Array((projection + "/rebuild").utf8) }

    private func entry<T>(
        _ key: [UInt8], _ transaction: Transaction, _ decode: (UnsafeRawBufferPointer) -> T?
    ) throws -> T? {
        let found = try transaction.withValue(forKey: key, in: checkpoints) { raw in
            guard let value = decode(raw) else {
                throw ProjectionError(
                    .corruptCheckpoint, "the checkpoint \(String(decoding: key, as: UTF8.self)) is damaged",
                    remedy: "rebuild the read models with liftledger rebuild")
            }
            return value
        }
        return found
    }

    // MARK: Folding events from elsewhere

    /// Folds `events`, which come from somewhere other than a journal (another store, for a comparison), into the
    /// read models of `projections`, in one write transaction that moves their checkpoints to `position`. With
    /// `preparingUntil`, each projection first prepares the fold (see ``Projection/prepare(_:context:until:)``), on
    /// this thread, with the context its read model gives, until the closure returns true, and then folds with what it
    /// prepared: a check that the preparation changes nothing.
    public func fold<Event>(
        _ projections: [any Projection<Event>], _ events: ArraySlice<Event>, through position: UInt64,
        preparingUntil isWanted: (() -> Bool)? = nil
    ) throws {
        try environment.write { transaction in
            for projection in projections {
                var checkpoint =
                    try self.checkpoint(projection.name, transaction)
                    ?? Checkpoint(
                        position: 0, version: projection.version, rulesDigest: projection.rulesDigest, slot: 0)
                let model = model(projection.name, slot: checkpoint.slot, checkpoint: checkpoint, transaction)
                let preparation = try isWanted.flatMap { isWanted in
                    try projection.preparer(in: model, after: events.prefix(0), preparation: nil).flatMap {
                        $0(events, isWanted)
                    }
                }
                try projection.fold(events, preparation: preparation, into: model)
                checkpoint.position = max(checkpoint.position, position)
                try putCheckpoint(checkpoint, for: projection.name, transaction)
            }
        }
    }

    // MARK: Reading

    /// Runs `body` in a read transaction with the read models of `projections` as their checkpoints say; a
    /// projection that was never built has no model.
    public func read<T>(_ body: (ReadModelSnapshot) throws -> T) throws -> T {
        try environment.read { transaction in try body(ReadModelSnapshot(store: self, transaction: transaction)) }
    }

    /// The read model of `projection` in `slot`, inside `transaction`.
    func model(_ projection: String, slot: UInt8, checkpoint: Checkpoint, _ transaction: Transaction) -> ReadModel {
        ReadModel(transaction: transaction, databases: tables(projection, slot: slot), checkpoint: checkpoint)
    }
}

/// The read models of a store as one read transaction sees them; valid only inside the closure that received it.
public struct ReadModelSnapshot {
    let store: ReadModelStore
    public let transaction: Transaction

    /// The read model of `projection`, or nil when it was never built.
    public func model(_ projection: String) throws -> ReadModel? {
        _ = try store.descriptor(projection)
        guard let checkpoint = try store.checkpoint(projection, transaction) else { return nil }
        return store.model(projection, slot: checkpoint.slot, checkpoint: checkpoint, transaction)
    }

    /// Whether a rebuild of `projection` is under way in a live process (this one included).
    public func isRebuilding(_ projection: String) throws -> Bool {
        try store.rebuildMarker(projection, transaction)?.builder.isAlive ?? false
    }

    /// The id of the live process that is rebuilding `projection`; nil when no rebuild is under way.
    public func rebuilder(_ projection: String) throws -> Int32? {
        try store.rebuildMarker(projection, transaction).map(\.builder).flatMap { $0.isAlive ? $0.processID : nil }
    }

    /// Where a rebuild of `projection` has got to, and by which code under which rules, while one is under way or cut
    /// short; nil otherwise.
    public func rebuildCheckpoint(_ projection: String) throws -> Checkpoint? {
        try store.rebuildMarker(projection, transaction)?.checkpoint
    }
}
