import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One caller's append, waiting for the writer thread.
struct AppendRequest: Sendable {
    let stream: String
    let expectedVersion: ExpectedVersion
    let events: [ProposedEvent]
    let completion: @Sendable (Result<AppendResult, Error>) -> Void
}

/// The journal's single writer: a thread that takes every append queued while the previous commit ran and commits
/// them together, one write transaction and one fsync per batch, then acknowledges each caller. Write
/// transactions therefore begin and commit on this one thread, never across an `await`.
///
/// In relaxed mode (no fsync at commit) the same thread syncs the environment `syncInterval` after the first
/// unsynced commit, between batches or while idle.
///
/// `@unchecked Sendable`: `pending`, `stopping`, `unsyncedSince`, `gatherTarget` and `thread` are read and written
/// only with `condition` locked (`thread` is set once, before the thread starts); `store`, `syncInterval` and
/// `finished` are immutable.
final class GroupCommitter: @unchecked Sendable {
    /// The most events one commit takes, so that one enormous queue does not become one enormous transaction.
    static let maximumBatchEvents = 100_000

    private let store: JournalStore
    private let syncInterval: Duration?
    private let condition = NSCondition()
    private var pending: [AppendRequest] = []
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

    func submit(_ request: AppendRequest) {
        condition.lock()
        defer { condition.unlock() }
        guard !stopping else {
            request.completion(
                .failure(JournalError(.storage, "the journal is closed", remedy: "open the journal again")))
            return
        }
        pending.append(request)
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

    private func run() {
        while let batch = nextBatch() {
            if !batch.isEmpty {
                let results = store.commit(batch)
                for (request, result) in zip(batch, results) { request.completion(result) }
            }
            if let syncInterval {
                condition.lock()
                let since = unsyncedSince ?? .now
                unsyncedSince = since
                condition.unlock()
                if ContinuousClock.now - since >= syncInterval { syncNow() }
            }
        }
        if syncInterval != nil { syncNow() }
    }

    /// Waits for work. Returns the next batch, an empty batch when a relaxed-mode sync is due, or nil to stop.
    ///
    /// Two waits keep batches full without slowing a lone writer: after a commit the thread spins briefly before it
    /// sleeps (a lone caller that appends again at once then pays no wake-up), and when several callers were in
    /// flight at the last batch it gives them up to `gatherWindow` to queue again before committing fewer.
    private func nextBatch() -> [AppendRequest]? {
        spinForWork()
        condition.lock()
        defer { condition.unlock() }
        while pending.isEmpty {
            if stopping { return nil }
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
        for request in pending {
            if count > 0 && events + request.events.count > Self.maximumBatchEvents { break }
            events += request.events.count
            count += 1
        }
        // The callers in this batch will likely append again, and the rest are waiting already: gather for all.
        gatherTarget = pending.count
        let batch = Array(pending.prefix(count))
        pending.removeFirst(count)
        return batch
    }

    /// The longest the writer waits for the callers in flight at the last batch to queue again.
    static let gatherWindow = Duration.microseconds(250)
    /// How long the writer polls for new work before it sleeps.
    static let spinWindow = Duration.microseconds(300)

    private func spinForWork() {
        condition.lock()
        let lone = gatherTarget <= 1
        condition.unlock()
        guard lone else { return }
        let until = ContinuousClock.now + Self.spinWindow
        while ContinuousClock.now < until {
            condition.lock()
            let ready = !pending.isEmpty || stopping
            condition.unlock()
            if ready { return }
            sched_yield()
        }
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
