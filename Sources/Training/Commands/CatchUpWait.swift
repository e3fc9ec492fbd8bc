import Synchronization

/// Waits, a little at a time, for read models that are not at the journal's head when a command would decide on them:
/// a writer just got in ahead, or another process is rebuilding them after a rule change. 1, 2, 4 ... ms, then a
/// tenth of a second at a time, up to half a minute in all.
public struct CatchUpWait: Sendable {
    private var waits = 0
    private let started = ContinuousClock.now
    private let deadline = ContinuousClock.now + .seconds(30)
    private var hasNoticed = false

    /// What a wait longer than a delay calls (see ``noticeLongWaits(after:_:)``).
    private static let notice = Mutex<(delay: Duration, notify: @Sendable (Int32?) -> Void)?>(nil)

    public init() {}

    /// Has every wait of this process that lasts longer than `delay` call `notify` once, with the id of the process
    /// rebuilding the read models where it is known; the wait goes on.
    public static func noticeLongWaits(after delay: Duration, _ notify: @escaping @Sendable (Int32?) -> Void) {
        notice.withLock { $0 = (delay, notify) }
    }

    /// Waits once; false, without waiting, once the half minute is over. `rebuilder` tells, for the notice of a long
    /// wait, which process is rebuilding the read models.
    public mutating func next(rebuilder: () throws -> Int32? = { nil }) async throws -> Bool {
        let now = ContinuousClock.now
        guard now < deadline else { return false }
        if !hasNoticed, let (delay, notify) = Self.notice.withLock({ $0 }), now - started >= delay {
            hasNoticed = true
            // The notice is a courtesy: a failed look at who rebuilds names no one.
            notify((try? rebuilder()) ?? nil)
        }
        try await Task.sleep(for: .milliseconds(min(100, 1 << min(waits, 7))))
        waits += 1
        return true
    }

    /// What a command says when the half minute is over.
    public static let expired = TrainingError(
        .contention, "the read models were not at the journal's head for half a minute",
        remedy: "another process may be rebuilding them (see liftledger projections); run the command again then")
}
