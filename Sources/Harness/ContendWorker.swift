import ArgumentParser
import EventJournal

/// Appends events one at a time to one stream with an exact expected version, re-reading the version and retrying
/// whenever another writer got there first. Used by the two-process concurrency test.
struct ContendWorker: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "contend", abstract: "Append to a shared stream with expected versions, retrying on conflict.")

    @Option(help: "The journal directory (must exist).")
    var journal: String

    @Option(help: "The stream both writers append to.")
    var stream: String

    @Option(help: "How many events this process appends.")
    var count = 1_000

    @Option(help: "A name for this writer, stored in each payload.")
    var writer: String

    func run() async throws {
        let journal = try Journal.open(at: journal)
        var conflicts = 0
        var appended = 0
        while appended < count {
            let version = try journal.version(of: stream)
            let payload = #"{"writer":"\#(writer)","sequence":\#(appended)}"#
            do {
                _ = try await journal.append(
                    [ProposedEvent(type: "Contended", encoding: .json, payload: Array(payload.utf8))], to: stream,
                    expectedVersion: version == 0 ? .noStream : .exact(version))
                appended += 1
            } catch let error as JournalError where error.code == .wrongExpectedVersion {
                conflicts += 1
            }
        }
        print(#"{"writer":"\#(writer)","appended":\#(appended),"conflicts":\#(conflicts)}"#)
    }
}
