import ArgumentParser
import Crypto
import EventJournal
import Foundation
import Projections
import Training

/// Brings a journal's training read models up to date, a chunk of events per transaction (1: event by event).
struct ProjectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "project", abstract: "Catch the read models up, a given number of events per transaction.")

    @Option(help: "The journal directory.")
    var journal: String

    @Option(help: "Events folded per transaction.")
    var chunk = 16_384

    func run() async throws {
        let target = try Journal.open(at: journal, options: JournalOptions(durability: .relaxed))
        try TrainingReadModels(journal: target).catchUp(chunkSize: chunk)
        writeLine(#"{"position":\#(try target.head().position)}"#)
    }
}

/// Prints a SHA-256 digest of every table of the live read models, so that two journals' read models can be
/// compared byte for byte.
struct ReadModelDigestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "read-model-digest",
        abstract: "Print a digest of each live read-model table (its keys and values, in order), as JSON.")

    @Option(help: "The journal directory.")
    var journal: String

    func run() async throws {
        let target = try Journal.open(at: journal)
        let store = try ReadModelStore(environment: target.environment, projections: TrainingReadModels.descriptors)
        writeLine(Self.json(try Self.digests(of: store)))
    }

    /// The digests as the command prints them: one JSON object, by table.
    static func json(_ digests: [(table: String, entries: Int, bytes: Int, sha256: String)]) -> String {
        "{"
            + digests.map { #""\#($0.table)":{"entries":\#($0.entries),"sha256":"\#($0.sha256)"}"# }
            .joined(separator: ",") + "}"
    }

    /// Each live table's entry count, the bytes of its pages (which depend on the order of the writes, so the command
    /// leaves them out), and SHA-256 over its keys and values (each length-prefixed), in key order.
    static func digests(of store: ReadModelStore) throws -> [(table: String, entries: Int, bytes: Int, sha256: String)]
    {
        try store.read { snapshot in
            try store.projections.flatMap { descriptor in
                guard let model = try snapshot.model(descriptor.name) else {
                    return [(table: String, entries: Int, bytes: Int, sha256: String)]()
                }
                return try descriptor.tables.indices.map { index in
                    let statistics = try model.table(index).statistics()
                    let pages = statistics.branchPages + statistics.leafPages + statistics.overflowPages
                    var hash = SHA256()
                    var entries = 0
                    try model.table(index).scan { key, value in
                        for bytes in [key, value] {
                            var length = UInt32(bytes.count).bigEndian
                            withUnsafeBytes(of: &length) { hash.update(bufferPointer: $0) }
                            hash.update(bufferPointer: bytes)
                        }
                        entries += 1
                        return true
                    }
                    let digest = hash.finalize().map { String(format: "%02x", $0) }.joined()
                    return (
                        "\(descriptor.name).\(descriptor.tables[index])", entries, pages * statistics.pageSize, digest
                    )
                }
            }
        }
    }
}

/// Folds a journal's events into a scratch store, chunk by chunk, each projection preparing each chunk's fold first
/// as a rebuild's reading thread does, and prints the read models' digest as `read-model-digest` does. The same digest
/// as the journal's rebuilt read models shows that the preparation, whole or cut short, changes nothing.
struct PreparedFoldDigestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prepared-fold-digest",
        abstract: "Fold with each chunk's fold prepared first; print the read models' digest, as JSON.")

    @Option(help: "The journal directory.")
    var journal: String

    @Option(help: "Events folded per transaction.")
    var chunk = 4_096

    @Option(
        help: """
            How many times each chunk's preparation may ask whether the fold waits for it before the answer is yes \
            (it asks once per 1,024 events while finding the workouts, then once per workout); by default the answer \
            is always no, and it prepares everything.
            """)
    var checks: Int?

    func run() async throws {
        let source = try Journal.open(at: journal)
        let rules = try TrainingReadModels(journal: source).currentRules()
        let projections: [any Projection<RecordedTrainingEvent>] = [
            PlanProjection(),
            TrainingProjection(rules: rules, workoutEvents: JournalWorkoutEvents(source, isBesideModel: false)),
        ]
        let store = try ReadModelStore.scratch(projections: TrainingReadModels.descriptors)
        var next: UInt64 = 1
        while true {
            let records = try source.records(from: next, limit: chunk)
            guard let last = records.last?.position else { break }
            let events = try records.compactMap { record in try record.withView { try RecordedTrainingEvent($0) } }
            var checked = 0
            try store.fold(projections, events[...], through: last) {
                checked += 1
                return checks.map { checked > $0 } ?? false
            }
            next = last + 1
        }
        writeLine(ReadModelDigestCommand.json(try ReadModelDigestCommand.digests(of: store)))
    }
}
