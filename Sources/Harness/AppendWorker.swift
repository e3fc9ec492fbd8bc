import ArgumentParser
import EventJournal
import Foundation
import Interchange

/// The crash test's child: appends batches of events forever, from one or more concurrent tasks, and prints an
/// `ack` line for each event only after its append has returned (is durable, in durable mode).
struct AppendWorker: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "append-worker", abstract: "Append batches forever, acknowledging each event on stdout.")

    @Option(help: "The journal directory (must exist).")
    var journal: String

    @Option(help: "A tag unique to this process, used in stream names and correlation ids.")
    var tag: String

    @Option(help: "Concurrent appending tasks in this process.")
    var tasks = 1

    @Option(help: "durable or relaxed.")
    var durability = "durable"

    func run() async throws {
        let options = JournalOptions(durability: durability == "relaxed" ? .relaxed : .durable)
        let journal = try Journal.open(at: journal, options: options)
        await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<tasks {
                group.addTask { try await appendForever(journal, task: task) }
            }
            while let result = await group.nextResult() {
                if case .failure(let error) = result { FileHandle.standardError.write(Data("\(error)\n".utf8)) }
            }
        }
    }

    private func appendForever(_ journal: Journal, task: Int) async throws {
        let stream = "crash-\(tag)-t\(task)"
        var version: UInt64 = 0
        var generator = SystemRandomNumberGenerator()
        for batch in 0... {
            let size = Int.random(in: 1...4, using: &generator)
            let correlation = "\(stream)-b\(batch)"
            let events = (0..<size).map { index in
                let filler = String(repeating: "x", count: Int.random(in: 0...300, using: &generator))
                let payload = #"{"batch":"\#(correlation)","size":\#(size),"index":\#(index),"filler":"\#(filler)"}"#
                return ProposedEvent(
                    type: "CrashProbe", encoding: .json, payload: Array(payload.utf8),
                    metadata: EventMetadata(correlationID: correlation, source: "crash-test"))
            }
            let result = try await journal.append(
                events, to: stream, expectedVersion: version == 0 ? .noStream : .exact(version))
            version = result.streamVersion
            for (event, position) in zip(events, result.positions) {
                writeLine("ack \(position) \(event.id.uuidString) \(event.payload.hexString)")
            }
        }
    }
}
