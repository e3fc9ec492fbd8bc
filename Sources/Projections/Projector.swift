import EventJournal
import LMDB

#if canImport(Glibc)
    import Glibc
#endif

/// Keeps read models in step with a journal: folds the events they have not seen, rebuilds them when their code or
/// their rules change, and replays them up to a point of the journal's past.
///
/// Every fold commits with its checkpoint in one write transaction, which also read the events it folds, so after a
/// crash a read model and its checkpoint always agree, and no event is folded twice or skipped.
public final class Projector<Event>: Sendable {
    public let journal: Journal
    public let store: ReadModelStore
    private let decode: @Sendable (EventRecord) throws -> Event?

    /// Reports progress of long work: the projection, the position reached and the position to reach.
    public typealias Progress = (_ projection: String, _ position: UInt64, _ target: UInt64) -> Void

    /// `decode` turns a record into the events projections fold; nil passes a record over (another domain's event, a
    /// newer schema than this build reads). A record it throws for stops the fold.
    public init(journal: Journal, store: ReadModelStore, decode: @escaping @Sendable (EventRecord) throws -> Event?) {
        self.journal = journal
        self.store = store
        self.decode = decode
    }

    /// Whether the store keeps its read models in the journal's own environment, where the events are read inside
    /// the transaction that folds them.
    private var isBesideJournal: Bool { store.environment === journal.environment }

    // MARK: Catching up

    /// Brings `projections` up to the journal's head, chunk by chunk, each chunk read, folded and checkpointed in one
    /// write transaction. A read model built by other code or under other rules is rebuilt first, unless another live
    /// process is rebuilding it: it then stays as it is meanwhile, and its name is returned.
    @discardableResult
    public func catchUp(
        _ projections: [any Projection<Event>], chunkSize: Int = 16_384, progress: Progress? = nil
    ) throws -> [String] {
        try requireBesideJournal("catch up")
        let found = try store.read { snapshot in
            try projections.map { projection in
                (
                    try store.checkpoint(projection.name, snapshot.transaction),
                    try store.rebuildMarker(projection.name, snapshot.transaction)
                )
            }
        }
        var current: [any Projection<Event>] = []
        var leftStale: [String] = []
        for (projection, (checkpoint, marker)) in zip(projections, found) {
            if let checkpoint, !ProjectionDescriptor(projection).isBuilt(by: checkpoint) {
                if let marker, marker.processID != getpid(), marker.builderIsAlive {
                    leftStale.append(projection.name)
                    continue
                }
                try rebuild(projection, progress: progress)
            }
            current.append(projection)
        }
        try foldNewEvents(current, chunkSize: chunkSize, progress: progress)
        return leftStale
    }

    private func foldNewEvents(
        _ projections: [any Projection<Event>], chunkSize: Int, progress: Progress?
    ) throws {
        while true {
            let reached = try store.environment.write { transaction -> (position: UInt64, head: UInt64)? in
                let head = try journal.headPosition(in: transaction)
                var due: [(any Projection<Event>, Checkpoint)] = []
                for projection in projections {
                    let checkpoint =
                        try store.checkpoint(projection.name, transaction)
                        ?? Checkpoint(
                            position: 0, version: projection.version, rulesDigest: projection.rulesDigest, slot: 0)
                    // A read model another process began to rebuild under other rules is left to that rebuild.
                    guard ProjectionDescriptor(projection).isBuilt(by: checkpoint), checkpoint.position < head else {
                        continue
                    }
                    due.append((projection, checkpoint))
                }
                guard let from = due.map(\.1.position).min() else { return nil }
                let records = try journal.records(from: from + 1, limit: chunkSize, in: transaction)
                guard let last = records.last?.position else { return nil }
                let batch = try Batch(records, decode: decode)
                for (projection, checkpoint) in due where checkpoint.position < last {
                    let moved = try fold(projection, batch, after: checkpoint, through: last, transaction)
                    try store.putCheckpoint(moved, for: projection.name, transaction)
                }
                return (last, head)
            }
            guard let reached else { return }
            for projection in projections { progress?(projection.name, reached.position, reached.head) }
            if reached.position >= reached.head { return }
        }
    }

    // MARK: Rebuilding

    /// Replays every event into the read model's spare slot while queries go on reading the current one, then swaps
    /// the two in the transaction that folds the last events, so that readers see the old read model or the new one,
    /// never a mix. A rebuild cut short resumes where it stopped, in whichever process runs it next.
    public func rebuild(
        _ projection: any Projection<Event>, chunkSize: Int = 65_536, progress: Progress? = nil
    ) throws {
        try requireBesideJournal("rebuild")
        let name = projection.name
        let descriptor = ProjectionDescriptor(projection)
        try store.environment.write { transaction in
            let live = try store.checkpoint(name, transaction)
            if let marker = try store.rebuildMarker(name, transaction), descriptor.isBuilt(by: marker.checkpoint),
                marker.checkpoint.slot != live?.slot
            {
                try store.putRebuildMarker(RebuildMarker(checkpoint: marker.checkpoint), for: name, transaction)
                return
            }
            let spare: UInt8 = live.map { 1 - $0.slot } ?? 0
            for table in store.tables(name, slot: spare) { try transaction.empty(table) }
            let start = Checkpoint(
                position: 0, version: projection.version, rulesDigest: projection.rulesDigest, slot: spare)
            try store.putRebuildMarker(RebuildMarker(checkpoint: start), for: name, transaction)
        }
        while true {
            let step = try store.environment.write { transaction -> (position: UInt64, head: UInt64, done: Bool) in
                let head = try journal.headPosition(in: transaction)
                guard let marker = try store.rebuildMarker(name, transaction),
                    descriptor.isBuilt(by: marker.checkpoint)
                else {
                    // Another process finished this rebuild, or began one under newer rules.
                    return (head, head, true)
                }
                var checkpoint = marker.checkpoint
                let records = try journal.records(from: checkpoint.position + 1, limit: chunkSize, in: transaction)
                if let last = records.last?.position {
                    checkpoint = try fold(
                        projection, try Batch(records, decode: decode), after: checkpoint, through: last, transaction)
                }
                guard records.count < chunkSize else {
                    try store.putRebuildMarker(RebuildMarker(checkpoint: checkpoint), for: name, transaction)
                    return (checkpoint.position, head, false)
                }
                // Every event is folded, and no append can come in before this transaction commits: swap.
                if let live = try store.checkpoint(name, transaction), live.slot != checkpoint.slot {
                    for table in store.tables(name, slot: live.slot) { try transaction.empty(table) }
                }
                try store.putCheckpoint(checkpoint, for: name, transaction)
                try store.removeRebuildMarker(name, transaction)
                return (checkpoint.position, head, true)
            }
            progress?(name, step.position, step.head)
            if step.done { return }
        }
    }

    // MARK: Replaying into a scratch store

    /// Folds into this projector's store, which must be a scratch store, the events up to position `last` that
    /// `include` admits: the read models as they would have stood then.
    public func replay(
        _ projections: [any Projection<Event>], through last: UInt64,
        including include: (EventRecord) -> Bool = { _ in true }, chunkSize: Int = 65_536, progress: Progress? = nil
    ) throws {
        guard !isBesideJournal else {
            throw ProjectionError(
                .invalidDefinition, "a replay into the journal's own read models",
                remedy: "replay into a scratch store (ReadModelStore.scratch)")
        }
        var next: UInt64 = 1
        while next <= last {
            let records = try journal.records(from: next, limit: min(chunkSize, Int(clamping: last - next + 1)))
            guard let reached = records.last?.position else { break }
            let batch = try Batch(records.filter(include), decode: decode)
            try store.environment.write { transaction in
                for projection in projections {
                    let checkpoint =
                        try store.checkpoint(projection.name, transaction)
                        ?? Checkpoint(
                            position: 0, version: projection.version, rulesDigest: projection.rulesDigest, slot: 0)
                    let moved = try fold(projection, batch, after: checkpoint, through: reached, transaction)
                    try store.putCheckpoint(moved, for: projection.name, transaction)
                }
            }
            for projection in projections { progress?(projection.name, reached, last) }
            next = reached + 1
        }
    }

    // MARK: Folding

    /// Folds the events of `batch` after `checkpoint` into the read model in the checkpoint's slot, in
    /// `transaction`; returns the checkpoint moved to `last`, for the caller to store.
    private func fold(
        _ projection: any Projection<Event>, _ batch: Batch, after checkpoint: Checkpoint, through last: UInt64,
        _ transaction: Transaction
    ) throws -> Checkpoint {
        let model = store.model(projection.name, slot: checkpoint.slot, checkpoint: checkpoint, transaction)
        let start = batch.firstIndex(after: checkpoint.position)
        if start < batch.events.endIndex { try projection.fold(batch.events[start...], into: model) }
        var moved = checkpoint
        moved.position = max(checkpoint.position, last)
        return moved
    }

    /// A chunk of records decoded once for every projection that folds it.
    private struct Batch {
        /// The records' positions, for those that decoded to an event.
        var positions: [UInt64] = []
        var events: [Event] = []

        init(_ records: [EventRecord], decode: (EventRecord) throws -> Event?) throws {
            positions.reserveCapacity(records.count)
            events.reserveCapacity(records.count)
            for record in records {
                let event: Event?
                do {
                    event = try decode(record)
                } catch {
                    throw ProjectionError(
                        .undecodableEvent, "record \(record.position) (\(record.type)) does not decode: \(error)",
                        remedy: "run liftledger verify; restore the journal from a backup if it fails")
                }
                guard let event else { continue }
                positions.append(record.position)
                events.append(event)
            }
        }

        /// The index of the first event after `position`.
        func firstIndex(after position: UInt64) -> Int {
            var low = 0
            var high = positions.count
            while low < high {
                let middle = (low + high) / 2
                if positions[middle] <= position { low = middle + 1 } else { high = middle }
            }
            return low
        }
    }

    private func requireBesideJournal(_ work: String) throws {
        guard isBesideJournal else {
            throw ProjectionError(
                .invalidDefinition, "cannot \(work) read models kept outside the journal's environment",
                remedy: "open the store in journal.environment, or use replay for a scratch store")
        }
    }
}
