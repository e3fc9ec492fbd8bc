import Dispatch
import EventJournal
import LMDB
import Synchronization

/// A chunk of the journal read and decoded on another thread, so that a rebuild reads the next chunk while it folds
/// the current one, and reading and decoding move off the folding thread. Once the chunk is decoded, its projections
/// prepare what they can of its fold there too, until the folding thread asks for the chunk.
///
/// `@unchecked Sendable`: `chunk` is written once, by the reading thread, before it signals `finished`, and read only
/// after waiting on `finished`; the semaphore orders the write before the read. `isWanted` is atomic.
final class ChunkPrefetch<Event: Sendable>: @unchecked Sendable {
    /// The records read and the events decoded from them.
    typealias Chunk = Projector<Event>.Batch
    /// A projection's preparation of a chunk (see ``Projection/preparer(in:after:preparation:)``).
    typealias Preparer = @Sendable (ArraySlice<Event>, _ isWanted: () -> Bool) -> (any Sendable)?

    let from: UInt64
    private let finished = DispatchSemaphore(value: 0)
    private var chunk: Chunk?
    /// Set once the folding thread waits for the chunk: the preparing stops there.
    private let isWanted = Atomic<Bool>(false)

    /// Starts reading up to `limit` records from `from` through `read`, in a read transaction of its own, decoding
    /// those `filter` admits, then preparing the chunk's fold with each of `preparers`, by projection name (see
    /// ``Projection/prepare(_:context:until:)``). `spent`, a chunk already folded, is freed on the reading thread rather
    /// than on the folding thread; so are the pages of `environment`'s map released from resident memory after the
    /// read, when it is given.
    init(
        _ journal: Journal, from: UInt64, limit: Int, read: @escaping Projector<Event>.BatchReader,
        including filter: RecordTypeFilter, preparing preparers: [(name: String, prepare: Preparer)],
        freeing spent: consuming Chunk? = nil,
        releasingPagesOf environment: Environment? = nil
    ) {
        self.from = from
        let spent = Spent(spent)
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            spent.chunk = nil  // freed before the next chunk is read, so that no more than two are held at once
            // A failure leaves `chunk` nil: the caller then reads the chunk itself, and meets the failure there.
            let decoded = try? journal.environment.read { transaction in
                try read(journal, from, limit, transaction, filter.admits)
            }
            environment?.releaseResidentPages()
            if var batch = decoded {
                for (name, prepare) in preparers {
                    batch.preparations[name] = prepare(batch.events[...]) { isWanted.load(ordering: .relaxed) }
                }
                chunk = batch
            }
            finished.signal()
        }
    }

    /// A folded chunk on its way to the reading thread, which frees it.
    ///
    /// `@unchecked Sendable`: it is made on the folding thread and, once handed over, touched only by the reading
    /// thread.
    private final class Spent: @unchecked Sendable {
        var chunk: Chunk?

        init(_ chunk: consuming Chunk?) { self.chunk = chunk }
    }

    /// Waits for the read to end; returns where it began and the chunk, which is nil when the read failed.
    func result() -> (from: UInt64, chunk: Chunk?) {
        isWanted.store(true, ordering: .relaxed)
        finished.wait()
        return (from, chunk)
    }
}
