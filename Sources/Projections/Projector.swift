import EventJournal
import LMDB

#if canImport(Glibc)
    import Glibc
#endif

/// Keeps read models in step with a journal: folds the events they have not seen, rebuilds them when their code or
/// their rules change, and replays them up to a point of the journal's past.
///
/// Every fold commits with its checkpoint in one write transaction, so after a crash a read model and its checkpoint
/// always agree, and no event is folded twice or skipped. A catch-up reads its events in that transaction; a rebuild
/// may read them ahead in another, which sees the same records, since the journal only ever appends.
public final class Projector<Event: Sendable>: Sendable {
    public let journal: Journal
    public let store: ReadModelStore
    private let read: BatchReader

    /// Reads a chunk of records and decodes those a filter admits (see ``Batch``).
    @usableFromInline
    typealias BatchReader =
        @Sendable (
            _ journal: Journal, _ from: UInt64, _ limit: Int, _ transaction: Transaction,
            _ include: (RecordView) -> Bool
        ) throws -> Batch

    /// Reports progress of long work: the projection, the position reached and the position to reach.
    public typealias Progress = (_ projection: String, _ position: UInt64, _ target: UInt64) -> Void

    /// A projector whose events `Decoding` decodes from the journal's records.
    ///
    /// Inlinable, so that the loop that reads and decodes a chunk is compiled for the caller's event type and decoder:
    /// in generic code it would move each event through the type's witnesses and look its types up at run time.
    @inlinable
    public convenience init<Decoding: EventDecoding>(
        journal: Journal, store: ReadModelStore, decoding: Decoding.Type
    ) where Decoding.Event == Event {
        self.init(journal: journal, store: store) { journal, from, limit, transaction, include in
            try Batch(
                journal, from: from, limit: limit, in: transaction, including: include,
                decode: Decoding.decode(_:into:))
        }
    }

    /// A projector that reads and decodes its chunks through `read`.
    @usableFromInline
    init(journal: Journal, store: ReadModelStore, read: @escaping BatchReader) {
        self.journal = journal
        self.store = store
        self.read = read
    }

    /// Whether the store keeps its read models in the journal's own environment, where the events are read inside
    /// the transaction that folds them.
    private var isBesideJournal: Bool { store.environment === journal.environment }

    // MARK: Catching up

    /// Brings `projections` up to the journal's head, chunk by chunk, each chunk read, folded and checkpointed in one
    /// write transaction. A read model built by other code or under other rules is rebuilt first, unless another live
    /// process is rebuilding it: it then stays as it is meanwhile, and its name is returned. A first build cut short
    /// is resumed.
    @discardableResult
    public func catchUp(
        _ projections: [any Projection<Event>], chunkSize: Int = 16_384, progress: Progress? = nil
    ) throws -> [String] {
        try requireBesideJournal("catch up")
        try validate(projections, chunkSize: chunkSize)
        let (head, found) = try store.read { snapshot in
            (
                try journal.headPosition(in: snapshot.transaction),
                try projections.map { projection in
                    (
                        try store.checkpoint(projection.name, snapshot.transaction),
                        try store.rebuildMarker(projection.name, snapshot.transaction)
                    )
                }
            )
        }
        var toRebuild: [any Projection<Event>] = []
        var leftStale: [String] = []
        for (projection, (checkpoint, marker)) in zip(projections, found) {
            let descriptor = ProjectionDescriptor(projection)
            if let checkpoint, descriptor.isBuilt(by: checkpoint) { continue }
            switch marker {
            case nil where checkpoint == nil:
                continue  // a first build: folded from the first event below
            case let marker?
            where marker.builder.processID != getpid() && marker.builder.isAlive
                && (checkpoint != nil || !descriptor.isBuilt(by: marker.checkpoint)):
                // Another live process is rebuilding it (or building it first under other rules): left to it.
                leftStale.append(projection.name)
            default:
                toRebuild.append(projection)  // rebuilt, or a rebuild cut short (or under way, by these rules) joined
            }
        }
        if !toRebuild.isEmpty { leftStale += try rebuild(toRebuild, progress: progress, onlyIfStale: true) }
        // Read models at the head need no write transaction (which would wait for any writer).
        if toRebuild.isEmpty,
            zip(projections, found).allSatisfy({ projection, stored in
                leftStale.contains(projection.name) || stored.0?.position == head
            })
        {
            return leftStale
        }
        try foldNewEvents(
            projections.filter { !leftStale.contains($0.name) }, chunkSize: chunkSize, progress: progress)
        return leftStale
    }

    /// Folds into the live read models of `projections` the events after their checkpoints, as
    /// ``catchUp(_:chunkSize:progress:)`` does, but never rebuilds: a read model that a projection's code and rules did
    /// not build (one that another process swapped in meanwhile, say) is left as it is, and so is a projection with no
    /// read model yet.
    public func foldNew(
        _ projections: [any Projection<Event>], chunkSize: Int = 16_384, progress: Progress? = nil
    ) throws {
        try requireBesideJournal("fold into")
        try validate(projections, chunkSize: chunkSize)
        // Read models at the head, or not their projections', need no write transaction (which would wait for any
        // writer: another process's rebuild holds one for each chunk).
        let due = try store.read { snapshot in
            let head = try journal.headPosition(in: snapshot.transaction)
            return try projections.filter { projection in
                guard let checkpoint = try store.checkpoint(projection.name, snapshot.transaction) else { return false }
                return ProjectionDescriptor(projection).isBuilt(by: checkpoint) && checkpoint.position < head
            }
        }
        guard !due.isEmpty else { return }
        try foldNewEvents(due, chunkSize: chunkSize, progress: progress)
    }

    private func foldNewEvents(
        _ projections: [any Projection<Event>], chunkSize: Int, progress: Progress?
    ) throws {
        let filter = RecordTypeFilter(projections)
        var pages = ResidentPages(store.environment)
        while true {
            let reached = try store.environment.write { transaction -> (position: UInt64, head: UInt64)? in
                let head = try journal.headPosition(in: transaction)
                var due: [(any Projection<Event>, Checkpoint)] = []
                for projection in projections {
                    let stored = try store.checkpoint(projection.name, transaction)
                    // A first build that a rebuild took on is left to it: its tables are the rebuild's.
                    if stored == nil, try store.rebuildMarker(projection.name, transaction) != nil { continue }
                    let checkpoint =
                        stored
                        ?? Checkpoint(
                            position: 0, version: projection.version, rulesDigest: projection.rulesDigest, slot: 0)
                    // A read model by other code or rules (one another process swapped in, or one left stale) is
                    // not folded into.
                    guard ProjectionDescriptor(projection).isBuilt(by: checkpoint), checkpoint.position < head else {
                        continue
                    }
                    due.append((projection, checkpoint))
                }
                guard let from = due.map(\.1.position).min() else { return nil }
                let batch = try read(
                    journal, from + 1, Self.limit(chunkSize, after: from, head: head), transaction, filter.admits)
                guard let last = batch.last else { return nil }
                for (projection, checkpoint) in due where checkpoint.position < last {
                    let moved = try fold(projection, batch, after: checkpoint, through: last, transaction)
                    try store.putCheckpoint(moved, for: projection.name, transaction)
                }
                return (last, head)
            }
            guard let reached else { return }
            for projection in projections { progress?(projection.name, reached.position, reached.head) }
            if reached.position >= reached.head { return }
            pages.read(upTo: reached.position)
        }
    }

    // MARK: Rebuilding

    /// Replays every event into the read models' spare slots, in one pass for all of `projections`, while queries go
    /// on reading the current ones; then swaps each in the transaction that folds the last events, so that readers
    /// see an old read model or a new one, never a mix. A rebuild cut short resumes where it stopped, in whichever
    /// process runs it next. Returns the projections left by other code or rules: another process took their rebuild
    /// over, or swapped in its own.
    ///
    /// With `onlyIfStale`, a projection whose live read model is built by its code and rules already (another process
    /// may have swapped one in since the caller looked) is left as it is, as catch-up wants.
    @discardableResult
    public func rebuild(
        _ projections: [any Projection<Event>], chunkSize: Int = 65_536, progress: Progress? = nil,
        onlyIfStale: Bool = false
    ) throws -> [String] {
        try requireBesideJournal("rebuild")
        try validate(projections, chunkSize: chunkSize)
        var remaining = try projections.filter { try beginRebuild($0, onlyIfStale: onlyIfStale) }
        let filter = RecordTypeFilter(remaining)
        var notBuilt: [String] = []
        var pages = ResidentPages(store.environment)
        var ahead: ChunkPrefetch<Event>?
        // The chunk each step folds, and then, once folded, hands on for the next read ahead to free.
        var folded: Batch?
        var spent: Batch?
        // The first chunks are small and each is twice the one before, up to `chunkSize`: the first is read before
        // any folding can start, and each next one is read while the one before folds.
        var size = min(chunkSize, Self.firstChunkSize)
        while !remaining.isEmpty {
            // Waited for before the transaction begins, so that no transaction waits on another thread's.
            var prefetched = ahead?.result()
            let step = try store.environment.write {
                transaction -> (
                    position: UInt64, head: UInt64, done: [String], replaced: [(String, UInt8)], lost: [String]
                ) in
                let head = try journal.headPosition(in: transaction)
                var due: [(any Projection<Event>, Checkpoint)] = []
                var done: [String] = []
                var replaced: [(String, UInt8)] = []
                var lost: [String] = []
                for projection in remaining {
                    let descriptor = ProjectionDescriptor(projection)
                    // Gone, or replaced by a rebuild under other rules: another process finished it or took it over.
                    guard let marker = try store.rebuildMarker(projection.name, transaction),
                        descriptor.isBuilt(by: marker.checkpoint)
                    else {
                        done.append(projection.name)
                        if try store.checkpoint(projection.name, transaction).map(descriptor.isBuilt(by:)) != true {
                            lost.append(projection.name)
                        }
                        continue
                    }
                    due.append((projection, marker.checkpoint))
                }
                guard let from = due.map(\.1.position).min() else { return (head, head, done, [], lost) }
                let chunk =
                    try prefetched.flatMap { $0.from == from + 1 ? $0.chunk : nil }
                    ?? read(journal, from + 1, Self.limit(size, after: from, head: head), transaction, filter.admits)
                folded = chunk
                let last = chunk.last ?? from
                size = min(chunkSize, size * 2)
                // The next chunk is read on another thread while this one folds; that thread also frees the chunk
                // folded before, and releases the map's pages when they are due, off the folding thread. It prepares
                // the next chunk's folds with what each read model will hold once this chunk is folded, which it
                // cannot read: each projection says what it needs now.
                ahead =
                    last < head
                    ? ChunkPrefetch(
                        journal, from: last + 1, limit: Self.limit(size, after: last, head: head), read: read,
                        including: filter,
                        preparing: try due.compactMap { projection, checkpoint in
                            let model = store.model(
                                projection.name, slot: checkpoint.slot, checkpoint: checkpoint, transaction)
                            let events = chunk.events[chunk.firstIndex(after: checkpoint.position)...]
                            return try projection.preparer(
                                in: model, after: events, preparation: chunk.preparations[projection.name]
                            ).map { (projection.name, $0) }
                        },
                        freeing: spent.take(),
                        releasingPagesOf: pages.isDue(upTo: last) ? store.environment : nil)
                    : nil
                for (projection, checkpoint) in due {
                    let moved = try fold(projection, chunk, after: checkpoint, through: last, transaction)
                    // Every record up to the head is folded when the chunk ends there.
                    guard last >= head else {
                        try store.putRebuildMarker(RebuildMarker(checkpoint: moved), for: projection.name, transaction)
                        continue
                    }
                    // Every event is folded, and no append can come in before this transaction commits: swap.
                    if let live = try store.checkpoint(projection.name, transaction), live.slot != moved.slot {
                        replaced.append((projection.name, live.slot))
                    }
                    try store.putCheckpoint(moved, for: projection.name, transaction)
                    try store.removeRebuildMarker(projection.name, transaction)
                    done.append(projection.name)
                }
                return (last, head, done, replaced, lost)
            }
            // The folded chunk's events are freed by the next read ahead, on its thread, not on this one.
            prefetched = nil
            spent = folded.take()
            for projection in remaining { progress?(projection.name, step.position, step.head) }
            remaining.removeAll { step.done.contains($0.name) }
            notBuilt += step.lost
            // The old read models, now spare: emptied after the swap, unless a new rebuild has claimed the slot.
            for (name, slot) in step.replaced {
                try store.emptySlot(name, slot: slot) { try !self.isClaimed(name, slot: slot, $0) }
                // The tables of older code that this code no longer has: emptied while this code's read model is live.
                let projection = projections.first { $0.name == name }!
                let descriptor = ProjectionDescriptor(projection)
                try store.emptyTablesNoLongerKept(name) { transaction in
                    try store.checkpoint(name, transaction).map(descriptor.isBuilt(by:)) == true
                }
            }
        }
        return notBuilt
    }

    /// The events of a rebuild's first chunk, at most.
    static var firstChunkSize: Int { 4_096 }

    /// How many records a chunk of at most `size` reads after `position`, up to `head`: a batch makes room for that
    /// many events at once.
    private static func limit(_ size: Int, after position: UInt64, head: UInt64) -> Int {
        min(size, Int(clamping: head - min(position, head)))
    }

    /// Whether a rebuild has begun in `slot`, or the slot holds the live read model.
    private func isClaimed(_ name: String, slot: UInt8, _ transaction: Transaction) throws -> Bool {
        try store.rebuildMarker(name, transaction)?.checkpoint.slot == slot
            || store.checkpoint(name, transaction)?.slot == slot
    }

    /// Rebuilds one projection, as the rebuild of several does.
    @discardableResult
    public func rebuild(
        _ projection: any Projection<Event>, chunkSize: Int = 65_536, progress: Progress? = nil
    ) throws -> [String] {
        try rebuild([projection], chunkSize: chunkSize, progress: progress)
    }

    /// Begins a rebuild into the spare slot, or resumes one by the same code under the same rules. A rebuild by other
    /// code or rules is taken over (its marker removed, so its builder stops at its next step), and the spare slot is
    /// emptied before a marker claims it; the emptying stops when the slot is claimed meanwhile (by another process
    /// that emptied it first), and the claim is then looked at again. Returns false, having changed nothing, when
    /// `onlyIfStale` and the live read model is built by this code under these rules.
    private func beginRebuild(_ projection: any Projection<Event>, onlyIfStale: Bool) throws -> Bool {
        let name = projection.name
        let descriptor = ProjectionDescriptor(projection)
        while true {
            let step = try store.environment.write { transaction -> RebuildStart in
                let live = try store.checkpoint(name, transaction)
                if onlyIfStale, let live, descriptor.isBuilt(by: live) { return .notNeeded }
                if let marker = try store.rebuildMarker(name, transaction) {
                    if descriptor.isBuilt(by: marker.checkpoint), marker.checkpoint.slot != live?.slot {
                        try store.putRebuildMarker(
                            RebuildMarker(checkpoint: marker.checkpoint), for: name, transaction)
                        return .begun
                    }
                    try store.removeRebuildMarker(name, transaction)
                }
                let spare: UInt8 = live.map { 1 - $0.slot } ?? 0
                guard try store.slotIsEmpty(name, slot: spare, transaction) else { return .emptyFirst(slot: spare) }
                let start = Checkpoint(
                    position: 0, version: projection.version, rulesDigest: projection.rulesDigest, slot: spare)
                try store.putRebuildMarker(RebuildMarker(checkpoint: start), for: name, transaction)
                return .begun
            }
            switch step {
            case .begun: return true
            case .notNeeded: return false
            case .emptyFirst(let spare):
                try store.emptySlot(name, slot: spare) { try !self.isClaimed(name, slot: spare, $0) }
            }
        }
    }

    /// Refuses projections the store was not opened with (or with other tables), the same projection twice, and
    /// chunks of no events.
    private func validate(_ projections: [any Projection<Event>], chunkSize: Int) throws {
        guard chunkSize > 0 else {
            throw ProjectionError(
                .invalidDefinition, "a chunk of \(chunkSize) events", remedy: "fold at least one event per chunk")
        }
        var names: Set<String> = []
        for projection in projections {
            guard names.insert(projection.name).inserted else {
                throw ProjectionError(
                    .invalidDefinition, "projection \(projection.name.debugDescription) is given twice",
                    remedy: "pass each projection once")
            }
            guard try store.descriptor(projection.name).tables == projection.tables else {
                throw ProjectionError(
                    .invalidDefinition,
                    "projection \(projection.name.debugDescription) has other tables than the store was opened with",
                    remedy: "open the store with the projections it folds (ReadModelStore(environment:projections:))")
            }
        }
    }

    // MARK: Replaying into a scratch store

    /// Folds into this projector's store, which must be a scratch store, the events up to position `last` that
    /// `include` admits: the read models as they would have stood then.
    public func replay(
        _ projections: [any Projection<Event>], through last: UInt64,
        including include: (RecordView) -> Bool = { _ in true }, chunkSize: Int = 65_536, progress: Progress? = nil
    ) throws {
        guard !isBesideJournal else {
            throw ProjectionError(
                .invalidDefinition, "a replay into the journal's own read models",
                remedy: "replay into a scratch store (ReadModelStore.scratch)")
        }
        let filter = RecordTypeFilter(projections)
        var next: UInt64 = 1
        var journalPages = ResidentPages(journal.environment)
        var storePages = ResidentPages(store.environment)
        while next <= last {
            let batch = try journal.environment.read { transaction in
                try read(journal, next, min(chunkSize, Int(clamping: last - next + 1)), transaction) { record in
                    filter.admits(record) && include(record)
                }
            }
            guard let reached = batch.last else { break }
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
            journalPages.read(upTo: reached)
            storePages.read(upTo: reached)
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
        if start < batch.events.endIndex {
            try projection.fold(
                batch.events[start...], preparation: batch.preparations[projection.name], into: model)
        }
        var moved = checkpoint
        moved.position = max(checkpoint.position, last)
        return moved
    }

    /// A chunk of records decoded once for every projection that folds it.
    @usableFromInline
    struct Batch {
        /// The last record's position, whether it decoded to an event or not; nil when there was none.
        @usableFromInline var last: UInt64?
        /// The records' positions, for those that decoded to an event.
        @usableFromInline var positions: [UInt64] = []
        @usableFromInline var events: [Event] = []
        /// What projections prepared of the chunk's fold, by name (see ``Projection/prepare(_:context:until:)``).
        @usableFromInline var preparations: [String: any Sendable] = [:]

        /// Reads up to `limit` records from `position` on as `transaction` sees them, where they lie, and decodes
        /// those `include` admits.
        @inlinable
        init(
            _ journal: Journal, from position: UInt64, limit: Int, in transaction: Transaction,
            including include: (RecordView) -> Bool, decode: (RecordView, UnsafeMutablePointer<Event>) throws -> Bool
        ) throws {
            var positions: [UInt64] = []
            positions.reserveCapacity(limit)
            var last: UInt64?
            // The events are decoded into place in the array's storage rather than appended one by one.
            events = try [Event](unsafeUninitializedCapacity: limit) { storage, initialized in
                last = try journal.withRecords(from: position, in: transaction) { reader in
                    var last: UInt64?
                    var count = 0
                    while count < limit, let record = try reader.next() {
                        last = record.position
                        count += 1
                        guard include(record) else { continue }
                        let decoded: Bool
                        do {
                            decoded = try decode(record, storage.baseAddress! + initialized)
                        } catch {
                            throw ProjectionError(
                                .undecodableEvent,
                                "record \(record.position) (\(record.type)) does not decode: \(error)",
                                remedy: "run liftledger verify; restore the journal from a backup if it fails")
                        }
                        guard decoded else { continue }
                        positions.append(record.position)
                        initialized += 1
                    }
                    return last
                }
            }
            self.positions = positions
            self.last = last
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

/// Keeps a long fold's memory flat: after every `interval` positions read, the pages of the environment's map go
/// out of the process's resident memory (they stay cached; see ``Environment/releaseResidentPages()``).
private struct ResidentPages {
    let environment: Environment
    static let interval: UInt64 = 65_536
    private var releasedAt: UInt64 = 0

    init(_ environment: Environment) { self.environment = environment }

    mutating func read(upTo position: UInt64) {
        guard isDue(upTo: position) else { return }
        environment.releaseResidentPages()
    }

    /// Whether the pages are due to go once `position` is read; when they are, counts them gone, for the caller to
    /// release (on another thread, say).
    mutating func isDue(upTo position: UInt64) -> Bool {
        guard position >= releasedAt + Self.interval else { return false }
        releasedAt = position
        return true
    }
}

/// What one attempt to begin a rebuild came to.
private enum RebuildStart {
    /// The rebuild has begun, or a rebuild under way by the same code and rules is joined.
    case begun
    /// The live read model is built by this code under these rules already.
    case notNeeded
    /// The spare slot holds rows still: it is emptied, and the attempt made again.
    case emptyFirst(slot: UInt8)
}
