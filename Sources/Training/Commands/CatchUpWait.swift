import Synchronization

/// Waits, a little at a time, for read models that are not at the journal's head when a command would decide on them:
/// a writer just got in ahead, or another process is rebuilding them after a rule change. 1, 2, 4 ... ms, then a
/// tenth of a second at a time, up to half a minute in all.
public struct CatchUpWait: Sendable {
    private var waits = 0
    /// When the first wait began: the half minute and the delay of the notice count from it.
    private var started: ContinuousClock.Instant?
    private var hasNoticed = false

    /// What a wait longer than a delay calls (see ``noticeLongWaits(after:_:)``).
    private static let notice = Mutex<(delay: Duration, notify: @Sendable (Int32) -> Void)?>(nil)

    public init() {}

    /// Has every wait of this process that lasts longer than `delay` for another process's rebuild of the read
    /// models call `notify` once, with that process's id; the wait goes on.
    public static func noticeLongWaits(after delay: Duration, _ notify: @escaping @Sendable (Int32) -> Void) {
        notice.withLock { $0 = (delay, notify) }
    }

    /// Waits once; false, without waiting, once the half minute is over. `rebuilder` tells, for the notice of a long
    /// wait, which process is rebuilding the read models, if one is (a wait for a writer that got in ahead has no
    /// notice).
    public mutating func next(rebuilder: () throws -> Int32? = { nil }) async throws -> Bool {
        let now = ContinuousClock.now
        let started = self.started ?? now
        self.started = started
        guard now < started + .seconds(30) else { return false }
        // The notice is a courtesy: a failed look at who rebuilds is tried again at the next wait.
        if !hasNoticed, let (delay, notify) = Self.notice.withLock({ $0 }), now - started >= delay,
            let pid = (try? rebuilder()) ?? nil
        {
            hasNoticed = true
            notify(pid)
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
