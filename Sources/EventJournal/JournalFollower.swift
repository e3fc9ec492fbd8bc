/// The records of a journal from a position on, waiting for new ones as they are committed by any process.
/// Polls the head every `pollInterval` once caught up; ends when its task is cancelled.
public struct JournalFollower: AsyncSequence, Sendable {
    public typealias Element = EventRecord

    let journal: Journal
    let next: UInt64
    let pollInterval: Duration

    public func makeAsyncIterator() -> Iterator {
        Iterator(journal: journal, next: next, pollInterval: pollInterval)
    }

    public struct Iterator: AsyncIteratorProtocol {
        let journal: Journal
        var next: UInt64
        let pollInterval: Duration
        var buffer: [EventRecord] = []
        var index = 0

        public mutating func next() async throws -> EventRecord? {
            while index == buffer.count {
                if Task.isCancelled { return nil }
                buffer = try journal.records(from: next, limit: 1_024)
                index = 0
                if buffer.isEmpty {
                    do { try await Task.sleep(for: pollInterval) } catch { return nil }
                }
            }
            let record = buffer[index]
            index += 1
            next = record.position + 1
            return record
        }
    }
}
