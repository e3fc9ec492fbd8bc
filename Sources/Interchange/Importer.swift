import Crypto
import EventJournal
import Foundation
import Training

/// How to read an export.
public struct ImportOptions: Sendable {
    /// The app, when the header should not decide.
    public var format: ExportFormat?
    /// The unit of weights the file gives no unit for.
    public var unit: MassUnit?
    /// The time zone of the file's local times (default: the profile's).
    public var timeZone: TimeZone?
    /// A JSON file mapping app exercise names to catalog exercises.
    public var mappingFile: String?
    /// Work out what the import would add and correct, and write nothing.
    public var isDryRun: Bool

    public init(
        format: ExportFormat? = nil, unit: MassUnit? = nil, timeZone: TimeZone? = nil, mappingFile: String? = nil,
        isDryRun: Bool = false
    ) {
        self.format = format
        self.unit = unit
        self.timeZone = timeZone
        self.mappingFile = mappingFile
        self.isDryRun = isDryRun
    }
}

/// Imports an app's export into a journal: each workout becomes the events a live workout would have produced,
/// dated when it happened, in one append that writes all of them or none. Event ids come from the workouts
/// themselves, so importing a file again (or a later export holding the same workouts) adds nothing, and a workout
/// that now reads differently (a better exercise mapping, a fixed row) is corrected through events.
public struct Importer: Sendable {
    public let log: TrainingLog

    /// The largest file read: exports of decades of training are a few megabytes.
    static let maximumFileBytes = 64 << 20
    /// How much of a file may come before the end of its header line.
    static let maximumHeaderBytes = 64 << 10

    public init(log: TrainingLog) { self.log = log }

    /// Refuses, by the start of a file, a compressed archive, as an export may come from a download (gzip, zip, xz,
    /// Zstandard or 7-Zip, by magic numbers that no CSV begins with), and text that is not UTF-8 because it is UTF-16 or
    /// UTF-32, wide text: a byte-order mark, or NUL bytes among the first line's (which a file that is no text has
    /// too).
    static func refuseArchiveOrWideText(_ start: ArraySlice<UInt8>, _ path: String) throws(ImportError) {
        if start.starts(with: [0x50, 0x4B, 0x05, 0x06]) {
            throw ImportError(
                .malformed, "\(path) is an empty zip archive", remedy: "export the workouts again, then import that")
        }
        let archives: [(kind: String, magic: [UInt8])] = [
            ("gzip", [0x1F, 0x8B]), ("zip", [0x50, 0x4B, 0x03, 0x04]), ("xz", [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]),
            ("Zstandard", [0x28, 0xB5, 0x2F, 0xFD]), ("7-Zip", [0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C]),
        ]
        if let archive = archives.first(where: { start.starts(with: $0.magic) }) {
            throw ImportError(
                .malformed, "\(path) is a \(archive.kind) archive, not text",
                remedy: "take the export out of it (the file inside), then import that")
        }
        if start.starts(with: [0xFF, 0xFE]) || start.starts(with: [0xFE, 0xFF]) {
            throw ImportError(
                .malformed, "\(path) is UTF-16 or UTF-32 text (it begins with a byte-order mark), not UTF-8",
                remedy: "save it as UTF-8 (or export it again), then import it")
        }
        // Without a mark, NUL bytes are wide text or no text at all (a program, an image): which, is not told apart.
        if start.prefix(while: { $0 != UInt8(ascii: "\n") }).contains(0) {
            throw ImportError(
                .malformed, "\(path) has NUL bytes: it is UTF-16 or UTF-32 text, or no text at all, not UTF-8",
                remedy: "import the app's CSV export; if this is it, save it as UTF-8, then import it")
        }
    }

    /// Refuses, by the start of a file, an archive or wide text (``refuseArchiveOrWideText(_:_:)``), and a LiftLedger
    /// journal export (JSON Lines), which `import-journal` reads.
    private static func requireCSVText(_ start: ArraySlice<UInt8>, _ path: String) throws(ImportError) {
        try refuseArchiveOrWideText(start, path)
        let firstLine = start.prefix { $0 != UInt8(ascii: "\n") }
        if firstLine.starts(with: Array(#"{""#.utf8)) {
            throw ImportError(
                .unknownLayout, "\(path) is a LiftLedger journal export (JSON Lines), not an app's CSV",
                remedy: "import it into a new journal with liftledger import-journal FILE --journal NEW")
        }
    }

    /// Imports the export at `path`; throws, having written nothing, when it cannot be read whole.
    public func importFile(at path: String, options: ImportOptions = ImportOptions()) async throws -> ImportReport {
        // The header decides whether the file is an export at all, before the rest of it is read. The file is read
        // once, from one handle, so that a pipe (`import /dev/stdin`) reads as a file does.
        let handle = try Self.open(path)
        defer { try? handle.close() }
        let start = try Self.read(handle, path, upTo: Self.maximumHeaderBytes)
        // Blank lines before the header are passed over, as blank lines anywhere are.
        let headerStart = start.drop { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }
        try Self.requireCSVText(headerStart, path)
        let delimiter = CSVReader.delimiter(ofHeader: headerStart)
        func isLineEnd(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") }
        // Before the header is read: cut at the window's end, a quoted field in it would read as never closed.
        guard headerStart.contains(where: isLineEnd) || start.count < Self.maximumHeaderBytes else {
            throw ImportError(
                .unknownLayout, "\(path) has no header line in its first \(Self.maximumHeaderBytes / 1_024) KB",
                remedy: "export your workouts from the app as CSV and import that file, unchanged")
        }
        var headerReader = CSVReader(Array(headerStart.prefix { !isLineEnd($0) }), delimiter: delimiter)
        guard let header = try headerReader.next() else {
            throw ImportError(.empty, "\(path) is empty", remedy: "export your workouts from the app again")
        }
        let layout = try ExportLayout(header: header.fields, format: options.format)
        let bytes = start + (try Self.read(handle, path, upTo: Self.maximumFileBytes + 1 - start.count))
        guard bytes.count <= Self.maximumFileBytes else {
            throw ImportError(
                .file, "\(path) is over the \(Self.maximumFileBytes >> 20) MB an export can be",
                remedy: "import the CSV file the app exported, unchanged")
        }
        let digest = SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
        var reader = CSVReader(bytes, delimiter: delimiter)
        _ = try reader.next()
        var rows: [(line: Int, fields: [String])] = []
        while let row = try reader.next() { rows.append(row) }
        guard !rows.isEmpty else {
            throw ImportError(
                .empty, "\(path) has a header and no rows", remedy: "export your workouts from the app again")
        }
        // Read straight from the journal: a file refused while it is read leaves every byte as it was.
        let rules = try Rules.load(from: log.journal)
        let readIn = options.timeZone ?? rules.timeZone
        var exportReader = ExportReader(layout: layout, unit: options.unit, timeZone: readIn)
        let workouts = try exportReader.workouts(rows).sorted { ($0.start, $0.firstLine) < ($1.start, $1.firstLine) }
        // A header that names the weights' unit wins over --unit, which went unheeded when it named the other.
        if let given = options.unit, let named = layout.weightUnit, given != named {
            throw ImportError(
                .unit, "\(path)'s header gives its weights in \(named.rawValue), not in \(given.rawValue)",
                remedy: "leave --unit out, or give --unit \(named.rawValue)")
        }
        if options.unit != nil { try Self.checkUnit(options.unit!, exportReader.noisyWeights) }
        let plan = ImportPlan(
            workouts: workouts, format: layout.format, digest: digest,
            source: "\(ImportPlan.sourcePrefix)\(layout.format.rawValue):\(digest.prefix(16))",
            timeZone: rules.timeZone,
            correctsStarts: options.timeZone != nil)
        var conflicts = 0
        var wait = CatchUpWait()
        while conflicts < 8 {
            let headBefore = try log.journal.head().position
            let planned = try log.query { snapshot -> ([StreamAppend], PlanReport)? in
                // Decide only on read models that have folded every record, as the training commands do.
                guard try snapshot.isCaughtUp else { return nil }
                do {
                    return try plan.appends(
                        snapshot: snapshot, journal: log.journal,
                        mapper: ExerciseMapper(catalog: snapshot.catalog(), mappingFile: options.mappingFile))
                } catch is ImportPlan.SnapshotBehind {
                    return nil
                }
            }
            guard let (appends, report) = planned else {
                guard try await wait.next(rebuilder: log.readModels.trainingRebuilder) else {
                    throw CatchUpWait.expired
                }
                continue
            }
            if options.isDryRun {
                return ImportReport(
                    file: path, layout: layout.description, digest: digest, rows: rows.count, plan: report,
                    timeZone: readIn.identifier,
                    headBefore: headBefore, headAfter: headBefore)
            }
            let written: [UInt64]
            do {
                let results = try await log.journal.append(appends)
                // Another import of the same workouts wrote them all first (the same events, so the append wrote
                // nothing): decide again, so that the report says what this import did.
                if !results.isEmpty, results.allSatisfy(\.wasAlreadyStored) {
                    conflicts += 1
                    continue
                }
                written = results.filter { !$0.wasAlreadyStored }.flatMap(\.positions)
            } catch let error as JournalError
                where error.code == .wrongExpectedVersion || error.code == .duplicateEventID
            {
                conflicts += 1
                continue  // another writer (another import of the same workouts, say) got in between: decide again
            }
            // The head around this import's own records, which one transaction wrote: not what other processes
            // appended meanwhile.
            return ImportReport(
                file: path, layout: layout.description, digest: digest, rows: rows.count, plan: report,
                timeZone: readIn.identifier,
                headBefore: written.min().map { $0 - 1 } ?? headBefore, headAfter: written.max() ?? headBefore)
        }
        throw TrainingError(.contention, "other writers kept changing the same data", remedy: "import again")
    }

    /// The file at `path`, opened for reading.
    private static func open(_ path: String) throws(ImportError) -> FileHandle {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        if exists && isDirectory.boolValue {
            throw ImportError(.file, "\(path) is a directory", remedy: "give the export file itself")
        }
        guard exists, let handle = FileHandle(forReadingAtPath: path) else {
            throw ImportError(
                .file, path.isEmpty ? "no file is named by an empty path" : "cannot read \(path)",
                remedy: "check the path and that you may read the file")
        }
        return handle
    }

    /// At most `limit` bytes more from `handle`, fewer only at the end of the file.
    private static func read(_ handle: FileHandle, _ path: String, upTo limit: Int) throws(ImportError) -> [UInt8] {
        var bytes: [UInt8] = []
        do {
            // A pipe gives what it has at each read: read on to the limit or the end.
            while bytes.count < limit, let chunk = try handle.read(upToCount: limit - bytes.count), !chunk.isEmpty {
                bytes += chunk
            }
        } catch {
            throw ImportError(.file, "cannot read \(path): \(error)", remedy: "check that you may read the file")
        }
        return bytes
    }

    /// Refuses a `--unit` the numbers contradict: weights written with binary noise that are plain values only if
    /// the file is in the other unit (`44.09245243697551` read as pounds is 20 kg; read as kilograms, nothing plain).
    private static func checkUnit(
        _ unit: MassUnit, _ noisy: [(line: Int, value: ExactDecimal, cleanInOtherUnit: Bool)]
    ) throws(ImportError) {
        let other: MassUnit = unit == .kilograms ? .pounds : .kilograms
        let contradicting = noisy.filter { entry in
            !entry.cleanInOtherUnit && FieldParser.cleanConversion(entry.value, from: other, to: unit) != nil
        }
        guard let first = contradicting.first, contradicting.count * 2 > noisy.count else { return }
        let plain = FieldParser.cleanConversion(first.value, from: other, to: unit)!
        throw ImportError(
            .unit,
            "--unit \(unit.rawValue) does not fit the weights: line \(first.line) has \(first.value), which is "
                + "\(plain) \(unit.rawValue) written in \(other.rawValue), as are \(contradicting.count - 1) more",
            remedy: "import again with --unit \(other.rawValue)")
    }
}

/// Ids derived from content: the same workout always gets the same ids (UUID version 8, RFC 9562).
enum DerivedID {
    static func make(_ parts: [String]) -> UUID {
        var bytes = Array(SHA256.hash(data: Array(parts.joined(separator: "\u{0}").utf8)).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x80
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }
}
