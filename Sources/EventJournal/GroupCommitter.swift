import Foundation

/// One caller's append.
struct AppendRequest: Sendable {
    let stream: String
    let expectedVersion: ExpectedVersion
    let events: [ProposedEvent]
}

/// Commits appends: an append that finds the journal idle, and no contention lately, commits at once on its
/// caller's thread (sparing a lone writer two thread hand-offs per append); appends that arrive while a commit runs
/// queue up, and a writer thread commits all that queued together, one write transaction and one fsync per batch,
/// then acknowledges each caller. Either way a write transaction begins and
/// commits on one thread, inside one synchronous call, never across an `await`.
///
/// In relaxed mode (no fsync at commit) the writer thread syncs the environment `syncInterval` after the first
/// unsynced commit.
///
/// `@unchecked Sendable`: `pending`, `committing`, `stopping`, `unsyncedSince`, `gatherTarget` and `thread` are read
/// and written only with `condition` locked (`thread` is set once, before the thread starts); `store`,
/// `syncInterval` and `finished` are immutable.
final class GroupCommitter: @unchecked Sendable {
    /// The most events one commit takes, so that one enormous queue does not become one enormous transaction.
    static let maximumBatchEvents = 100_000
    /// The longest the writer waits for the callers in flight at the last batch to queue again.
    static let gatherWindow = Duration.microseconds(250)

    private struct Waiting {
        let request: AppendRequest
        let completion: @Sendable (Result<AppendResult, Error>) -> Void
    }

    private let store: JournalStore
    private let syncInterval: Duration?
    private let condition = NSCondition()
    private var pending: [Waiting] = []
    /// True while a commit runs, on the writer thread or a caller's.
    private var committing = false
    private var stopping = false
    private var unsyncedSince: ContinuousClock.Instant?
    private var gatherTarget = 0
    /// Weak: the running thread keeps its `Thread` alive.
    private weak var thread: Thread?
    private let finished = DispatchSemaphore(value: 0)

    init(store: JournalStore, syncInterval: Duration?) {
        self.store = store
        self.syncInterval = syncInterval
        // The block holds this object weakly, so that once `run` returns nothing but the journal keeps it (and the
        // environment) alive: `stop` then returns with the environment released as soon as the journal is.
        let finished = finished
        let thread = Thread { [weak self] in
            self?.run()
            finished.signal()
        }
        thread.name = "liftledger-journal-writer"
        self.thread = thread
        thread.start()
    }

    /// Commits `request` on the calling thread if no other commit runs, none is queued, and the last batch did not
    /// find several callers in flight (under contention every append queues, so that batches stay full); nil
    /// otherwise.
    func commitIfIdle(_ request: AppendRequest) -> Result<AppendResult, Error>? {
        condition.lock()
        guard !stopping, !committing, pending.isEmpty, gatherTarget <= 1 else {
            condition.unlock()
            return nil
        }
        committing = true
        condition.unlock()
        let result = store.commit([request])[0]
        condition.lock()
        finishCommit()
        condition.unlock()
        return result
    }

    /// Queues `request` for the writer thread, which calls `completion` once it is committed (or has failed).
    func submit(_ request: AppendRequest, completion: @escaping @Sendable (Result<AppendResult, Error>) -> Void) {
        condition.lock()
        defer { condition.unlock() }
        guard !stopping else {
            completion(.failure(JournalError(.storage, "the journal is closed", remedy: "open the journal again")))
            return
        }
        pending.append(Waiting(request: request, completion: completion))
        // Wake the writer only when it has something to act on: the first request of an idle spell, or as many as
        // it is gathering for. Waking it for every request would steal the CPU the other callers need to queue.
        if pending.count == 1 || pending.count >= gatherTarget { condition.signal() }
    }

    /// Finishes the queued appends, syncs in relaxed mode, ends the writer thread, and waits for it, so that the
    /// environment is released when this returns.
    func stop() {
        condition.lock()
        stopping = true
        condition.signal()
        let onWriterThread = Thread.current == thread
        condition.unlock()
        if !onWriterThread { finished.wait() }
    }

    /// Ends a commit (with `condition` locked): lets the next one start, and in relaxed mode starts the sync clock.
    private func finishCommit() {
        committing = false
        if syncInterval != nil && unsyncedSince == nil { unsyncedSince = .now }
        if !pending.isEmpty || syncInterval != nil { condition.signal() }
    }

    private func run() {
        while let batch = nextBatch() {
            if !batch.isEmpty {
                let results = store.commit(batch.map(\.request))
                condition.lock()
                finishCommit()
                condition.unlock()
                for (waiting, result) in zip(batch, results) { waiting.completion(result) }
            }
            if let syncInterval {
                condition.lock()
                let due = unsyncedSince.map { ContinuousClock.now - $0 >= syncInterval } ?? false
                condition.unlock()
                if due { syncNow() }
            }
        }
        if syncInterval != nil { syncNow() }
    }

    /// Waits for work. Returns the next batch (marking a commit as running), an empty batch when a relaxed-mode sync
    /// is due, or nil to stop. When several callers were in flight at the last batch, it gives them up to
    /// `gatherWindow` to queue again before committing fewer.
    private func nextBatch() -> [Waiting]? {
        condition.lock()
        defer { condition.unlock() }
        while pending.isEmpty || committing {
            if stopping && pending.isEmpty && !committing { return nil }
            if let syncInterval, let since = unsyncedSince {
                let due = since + syncInterval
                if ContinuousClock.now >= due { return [] }
                _ = condition.wait(until: Self.date(after: ContinuousClock.now.duration(to: due)))
            } else {
                condition.wait()
            }
        }
        if gatherTarget > 1 && pending.count < gatherTarget {
            let gatherUntil = Self.date(after: Self.gatherWindow)
            while pending.count < gatherTarget && !stopping && condition.wait(until: gatherUntil) {}
        }
        var events = 0
        var count = 0
        for waiting in pending {
            if count > 0 && events + waiting.request.events.count > Self.maximumBatchEvents { break }
            events += waiting.request.events.count
            count += 1
        }
        // The callers in this batch will likely append again, and the rest are waiting already: gather for all.
        gatherTarget = pending.count
        let batch = Array(pending.prefix(count))
        pending.removeFirst(count)
        committing = true
        return batch
    }

    /// Syncs; after a failure the sync stays due and is tried again one interval later.
    private func syncNow() {
        let synced = (try? store.environment.sync()) != nil
        condition.lock()
        unsyncedSince = synced ? nil : .now
        condition.unlock()
    }

    private static func date(after duration: Duration) -> Date {
        let (seconds, attoseconds) = duration.components
        return Date.now.addingTimeInterval(TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18)
    }
}
