import ArgumentParser
import EventJournal
import Foundation
import Interchange
import Training

/// The import of the largest real export, in events written per second, beside the journal's own batched appends
/// (batches of 10,000 events, as `bench journal` measures them) in the same run; then the catch-up of the read
/// models that follows an import.
struct ImportBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Import the largest real export, beside batched appends.")

    @Flag(help: "One repetition: a smoke test, not a measurement.")
    var quick = false

    @Option(help: "The export to import (default: the largest in Fixtures/exports).")
    var file: String?

    @Option(help: "Its unit, when it carries none.")
    var unit: String = "lb"

    func run() async throws {
        let path = try file ?? Self.largestExport()
        let scratch = ScratchDirectory(given: nil, prefix: "liftledger-bench-import")
        defer { withExtendedLifetime(scratch) {} }
        try FileManager.default.createDirectory(atPath: scratch.path, withIntermediateDirectories: true)
        var imports: [Double] = []
        var catchUps: [Double] = []
        var batched: [Double] = []
        var events: UInt64 = 0
        var rows = 0
        for repetition in 0..<(quick ? 1 : 5) {
            let journal = try Journal.open(at: scratch.path + "/import-\(repetition)", create: true)
            let log = try TrainingLog(journal: journal)
            var report: ImportReport?
            let seconds = try await ProjectionsBench.seconds {
                report = try await Importer(log: log).importFile(
                    at: path, options: ImportOptions(unit: MassUnit(parsing: unit)))
            }
            events = try journal.head().position
            rows = report?.rows ?? 0
            imports.append(Double(events) / seconds)
            catchUps.append(Double(events) / (try ProjectionsBench.seconds { try log.readModels.catchUp() }))
            // The journal's batched appends of the same number of events, in batches of 10,000, in the same run.
            let peer = try Journal.open(at: scratch.path + "/batched-\(repetition)", create: true)
            let total = Int(events)
            batched.append(
                try await JournalBench.rate(events: total) {
                    for start in stride(from: 0, to: total, by: 10_000) {
                        let batch = (start..<min(total, start + 10_000)).map(JournalBench.event)
                        _ = try await peer.append(batch, to: "bench-batch-\(start / 10_000 % 4)")
                    }
                })
        }
        let median = { (values: [Double]) in values.sorted()[values.count / 2] }
        let ratio = median(zip(imports, batched).map(/))
        print(
            """
            {
              "file": "\(URL(fileURLWithPath: path).lastPathComponent)",
              "rows": \(rows),
              "eventsWritten": \(events),
              "importEventsPerSecond": \(Int(median(imports))),
              "importRowsPerSecond": \(Int(median(imports) * Double(rows) / Double(max(events, 1)))),
              "batchedAppendEventsPerSecond": \(Int(median(batched))),
              "importVsBatchedAppends": \((ratio * 1_000).rounded() / 1_000),
              "catchUpAfterImportEventsPerSecond": \(Int(median(catchUps))),
              "quick": \(quick)
            }
            """)
    }

    /// The largest file of Fixtures/exports in the source tree.
    static func largestExport() throws -> String {
        let directory = try sourceTree() + "/Fixtures/exports"
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        let sizes = files.filter { $0.hasSuffix(".csv") }.map { name -> (String, Int) in
            let size = (try? FileManager.default.attributesOfItem(atPath: directory + "/" + name))?[.size] as? Int
            return (directory + "/" + name, size ?? 0)
        }
        return sizes.max { $0.1 < $1.1 }?.0 ?? directory + "/strong-zh-2020-2023.csv"
    }

    /// The source tree this executable was built in: the nearest directory above it with a Package.swift.
    static func sourceTree() throws -> String {
        var directory = URL(fileURLWithPath: ownExecutablePath()).deletingLastPathComponent()
        while directory.path != "/" {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
                return directory.path
            }
            directory.deleteLastPathComponent()
        }
        throw HarnessError("no source tree above \(ownExecutablePath()); pass --file")
    }
}
