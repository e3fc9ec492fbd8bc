import EventJournal
import Foundation
import TestSupport

/// A journal in a temporary directory, removed with the value.
struct TestJournal {
    let directory: TemporaryDirectory
    let journal: Journal

    init(options: JournalOptions = .init()) throws {
        directory = try TemporaryDirectory()
        journal = try Journal.open(at: directory.child("journal"), options: options, create: true)
    }

    var path: String { journal.path }
}

/// A JSON event whose payload names `marker`, so that a test can find it again.
func event(_ marker: String, type: String = "Probe", id: UUID = .timeOrdered()) -> ProposedEvent {
    ProposedEvent(id: id, type: type, encoding: .json, payload: Array(#"{"marker":"\#(marker)"}"#.utf8))
}

/// The error `body` throws, as a `JournalError`, or nil.
func journalError(_ body: () async throws -> Void) async -> JournalError? {
    do {
        try await body()
        return nil
    } catch {
        return error as? JournalError
    }
}
