/// Waits, a little at a time, for read models that are not at the journal's head when a command would decide on them:
/// a writer just got in ahead, or another process is rebuilding them after a rule change. 1, 2, 4 ... ms, then a
/// tenth of a second at a time, up to half a minute in all.
public struct CatchUpWait: Sendable {
    private var waits = 0
    private let deadline = ContinuousClock.now + .seconds(30)

    public init() {}

    /// Waits once; false, without waiting, once the half minute is over.
    public mutating func next() async throws -> Bool {
        guard ContinuousClock.now < deadline else { return false }
        try await Task.sleep(for: .milliseconds(min(100, 1 << min(waits, 7))))
        waits += 1
        return true
    }

    /// What a command says when the half minute is over.
    public static let expired = TrainingError(
        .contention, "the read models were not at the journal's head for half a minute",
        remedy: "another process may be rebuilding them (see liftledger projections); run the command again then")
}
