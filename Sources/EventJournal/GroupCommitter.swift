import Foundation

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
/// unsynced commit.
///
/// `@unchecked Sendable`: `pending`, `stopping` and `unsyncedSince` are read and written only with `condition`
/// locked; `store` and `syncInterval` are immutable.
final class GroupCommitter: @unchecked Sendable {
    /// The most events one commit takes, so that one enormous queue does not become one enormous transaction.
    static let maximumBatchEvents = 100_000

    private let store: JournalStore
    private let syncInterval: Duration?
    private let condition = NSCondition()
    private var pending: [AppendRequest] = []
    private var stopping = false
    private var unsyncedSince: ContinuousClock.Instant?

    init(store: JournalStore, syncInterval: Duration?) {
        self.store = store
        self.syncInterval = syncInterval
        let thread = Thread { [self] in run() }
        thread.name = "liftledger-journal-writer"
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
        condition.signal()
    }

    /// Finishes the queued appends, syncs in relaxed mode, and ends the writer thread.
    func stop() {
        condition.lock()
        stopping = true
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while let batch = nextBatch() {
            if batch.isEmpty {
                syncNow()
                continue
            }
            let results = store.commit(batch)
            if syncInterval != nil {
                condition.lock()
                if unsyncedSince == nil { unsyncedSince = .now }
                condition.unlock()
            }
            for (request, result) in zip(batch, results) { request.completion(result) }
        }
        syncNow()
    }

    /// Waits for work. Returns the next batch, an empty batch when a relaxed-mode sync is due, or nil to stop.
    private func nextBatch() -> [AppendRequest]? {
        condition.lock()
        defer { condition.unlock() }
        while pending.isEmpty {
            if stopping { return nil }
            if let syncInterval, let since = unsyncedSince {
                let due = since + syncInterval
                if ContinuousClock.now >= due { return [] }
                _ = condition.wait(until: Date.now.addingTimeInterval(Self.seconds(ContinuousClock.now.duration(to: due))))
            } else {
                condition.wait()
            }
        }
        var events = 0
        var count = 0
        for request in pending {
            if count > 0 && events + request.events.count > Self.maximumBatchEvents { break }
            events += request.events.count
            count += 1
        }
        let batch = Array(pending.prefix(count))
        pending.removeFirst(count)
        return batch
    }

    private func syncNow() {
        condition.lock()
        let due = unsyncedSince != nil
        unsyncedSince = nil
        condition.unlock()
        if due { try? store.environment.sync() }
    }

    private static func seconds(_ duration: Duration) -> TimeInterval {
        let (seconds, attoseconds) = duration.components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
