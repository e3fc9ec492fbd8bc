import EventJournal
import Foundation
import Training

/// Every record of a journal as JSON Lines (the `events --json` objects, with each payload's exact bytes), then an end
/// line that counts them, and back: restored into an empty journal, an export gives the same records, positions, ids
/// and chain hashes. The end line tells a whole export from one cut short at a line's end, which reads as well.
public enum JournalExport {
    /// Writes every record, oldest first, one JSON object per line, then the end line; `progress` gets the position
    /// reached.
    public static func write(
        _ journal: Journal, to output: (String) throws -> Void, progress: (UInt64) -> Void = { _ in }
    ) throws {
        var count: UInt64 = 0
        // The head so far: an empty journal's is position 0 and the hash a first record chains from.
        var head = (position: UInt64(0), hash: [UInt8](repeating: 0, count: 32))
        try journal.forEachRecord { record in
            // Each record's checksum is checked as it is read; the chain is checked here, or the export would carry
            // hashes that its restore refuses.
            guard record.previousHash == head.hash else {
                throw ImportError(
                    .file, "the journal's hash chain is broken at position \(record.position)",
                    remedy: "run liftledger verify on it, and restore it from a backup")
            }
            let hash = record.hash
            try output(record.json(keepingBytes: true, knownHash: hash).rendered + "\n")
            count += 1
            head = (record.position, hash)
            progress(record.position)
        }
        let end = JSON.object([
            ("records", .unsigned(count)), ("headPosition", .unsigned(head.position)),
            ("headHash", .string(head.hash.hexString)),
        ])
        try output(JSON.object([(endKey, end)]).rendered + "\n")
    }

    /// The one member of an export's end line.
    static let endKey = "end"

    /// One encoder for every record's `data` a restore checks, not one each.
    private static let payloadEncoder = JSONEncoder()

    /// Restores the export at `path` into `journal`, which must be empty: all of it, or, on any error, nothing.
    /// Returns the number of records. An export without its end line (cut short, for all a reader can tell) is
    /// refused, unless `allowingCut`: its whole records are then restored, and a last line cut inside is left out.
    /// Each record is checked and written as its line is read, in one write transaction: the records are never held
    /// all at once.
    @discardableResult
    public static func restore(
        from path: String, into journal: Journal, allowingCut: Bool = false
    ) async throws
        -> Int
    {
        guard try journal.head().position == 0 else {
            throw ImportError(
                .file, "the journal at \(journal.path) is not empty",
                remedy: "import an export into a new journal: liftledger init --journal NEW, then import-journal there")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ImportError(
                .file, path.isEmpty ? "no file is named by an empty path" : "cannot read \(path)",
                remedy: "check the path and that you may read the file")
        }
        try Importer.refuseArchiveOrWideText(Array(data.prefix(Importer.maximumHeaderBytes))[...], path)
        // A journal takes less room than its export (whose payloads are in base64, beside readable forms): the map
        // grown to the file's size holds the restore in one pass.
        return try await journal.restore(expectedBytes: data.count) {
            var lines = ExportLines(data, path: path, allowingCut: allowingCut)
            return { try lines.next() }
        }
    }

    /// The records of an export's lines, read one line at a time, and the checks of its end.
    private struct ExportLines {
        let data: Data
        let path: String
        let allowingCut: Bool
        /// Where the next line begins, from the start of `data`; nil once the last line is read.
        private var offset: Int? = 0
        private var lineNumber = 0
        /// The number of the last line that is not blank.
        private var lastLine = 0
        private var end: (line: Int, records: UInt64, headPosition: UInt64, headHash: [UInt8])?
        private var count = 0
        private var last: (position: UInt64, hash: [UInt8])?

        init(_ data: Data, path: String, allowingCut: Bool) {
            self.data = data
            self.path = path
            self.allowingCut = allowingCut
        }

        /// The next record; nil after the last, once the end line is found to count the records read.
        mutating func next() throws -> ExportedRecord? {
            while let (range, isLast) = nextLine() {
                let text = data[range]
                let line = lineNumber
                // Blank: empty, or white space alone (a CRLF file's "\r").
                guard text.contains(where: { !" \t\r".utf8.contains($0) }) else { continue }
                lastLine = line
                if let end {
                    throw JournalExport.malformed(line, "a line after the end line (line \(end.line))")
                }
                guard let object = try? JSONSerialization.jsonObject(with: Data(text)) as? [String: Any] else {
                    // An app's export given here: a first line of columns, not an object.
                    if count == 0, text.first != UInt8(ascii: "{"), text.contains(where: { ",;\t".utf8.contains($0) }) {
                        throw ImportError(
                            .malformed, "\(path) is a table (an app's export?), not a journal export",
                            remedy: "import a Strong, Hevy or FitNotes export with liftledger import FILE")
                    }
                    // The last line, with no line end after it: a file cut inside it. What is left of it is no record.
                    guard isLast else { throw JournalExport.malformed(line, "not a JSON object") }
                    if allowingCut { break }
                    throw JournalExport.cutShort(path, "inside line \(line)", records: count)
                }
                if let closing = object[endKey] {
                    guard object.count == 1, let closing = closing as? [String: Any],
                        let records = wholeNumber(closing["records"]),
                        let position = wholeNumber(closing["headPosition"]),
                        let hash = (closing["headHash"] as? String).flatMap(bytes(hexadecimal:)), hash.count == 32
                    else {
                        throw JournalExport.malformed(line, "the end line is not records, headPosition and headHash")
                    }
                    end = (line, records, position, hash)
                    continue
                }
                let record = try JournalExport.record(object, line: line)
                count += 1
                last = (record.position, record.hash)
                return record
            }
            try checkEnd()
            return nil
        }

        /// The range of the next line in `data`, without its line feed, and whether it is the last (which runs to the
        /// end: empty after a final line feed); nil after the last. Found with `memchr`: Foundation's generic `split`
        /// took a tenth of a restore.
        private mutating func nextLine() -> (Range<Int>, isLast: Bool)? {
            guard let start = offset else { return nil }
            lineNumber += 1
            let lineEnd = data.withUnsafeBytes { bytes -> Int? in
                guard let base = bytes.baseAddress, start < bytes.count,
                    let found = memchr(base + start, 0x0A, bytes.count - start)
                else { return nil }
                return base.distance(to: UnsafeRawPointer(found))
            }
            offset = lineEnd.map { $0 + 1 }
            let range = (start + data.startIndex)..<((lineEnd ?? data.count) + data.startIndex)
            return (range, lineEnd == nil)
        }

        /// Checks, after the last record, that the end line counts the records read and gives the last one's hash, or
        /// that the export is allowed to be cut short without it.
        private func checkEnd() throws(ImportError) {
            // The export of an empty journal restores as one: nothing to write.
            if count == 0, let end, end.records == 0, end.headPosition == 0, end.headHash.allSatisfy({ $0 == 0 }) {
                return
            }
            guard let last else {
                throw ImportError(.empty, "\(path) holds no records", remedy: "export a journal with liftledger export")
            }
            if let end {
                guard end.records == count, end.headPosition == last.position else {
                    throw JournalExport.malformed(
                        end.line,
                        "the end line counts \(end.records) records up to position \(end.headPosition), and the file "
                            + "holds \(count) up to position \(last.position)")
                }
                guard end.headHash == last.hash else {
                    throw JournalExport.malformed(
                        end.line, "the end line's headHash is not the hash of the last record")
                }
            } else if !allowingCut {
                throw JournalExport.cutShort(path, "after line \(lastLine)", records: count)
            }
        }
    }

    /// An export without its end line, cut where `cut` says, holding `records` whole records.
    private static func cutShort(_ path: String, _ cut: String, records: Int) -> ImportError {
        ImportError(
            .malformed,
            "\(path) ends without the end line an export closes with: it was cut short \(cut), or is not a whole export",
            remedy: "export the journal again; to restore the \(records) whole records it holds, pass --allow-cut")
    }

    private static func malformed(_ line: Int, _ what: String) -> ImportError {
        ImportError(
            .malformed, "line \(line): \(what)",
            remedy: "import the file liftledger export --format jsonl wrote, unchanged")
    }

    /// One record's line of an export, checked field by field.
    private static func record(_ object: [String: Any], line: Int) throws(ImportError) -> ExportedRecord {
        func bad(_ what: String) -> ImportError { malformed(line, what) }
        func integer(_ key: String) throws(ImportError) -> UInt64 {
            guard let number = wholeNumber(object[key]) else { throw bad("no whole number \(key)") }
            return number
        }
        func string(_ key: String, in container: [String: Any]? = nil) throws(ImportError) -> String {
            guard let value = (container ?? object)[key] as? String else { throw bad("no text \(key)") }
            return value
        }
        let metadata = object["metadata"] as? [String: Any] ?? [:]
        guard let id = UUID(uuidString: try string("eventId")) else { throw bad("eventId is not a UUID") }
        guard let recordedAt = Timestamp(rfc3339: try string("recordedAt")),
            let occurredAt = Timestamp(rfc3339: try string("occurredAt"))
        else { throw bad("a time is not RFC 3339") }
        let encodings: [PayloadEncoding] = [.opaque, .json, .binary]
        guard let encoding = encodings.first(where: { $0.name == (object["encoding"] as? String) }) else {
            throw bad("unknown encoding")
        }
        guard let payload = Data(base64Encoded: try string("payloadBase64")) else {
            throw bad("payloadBase64 is not base64")
        }
        guard let hash = bytes(hexadecimal: try string("hash")), hash.count == 32 else {
            throw bad("hash is not 64 hexadecimal digits")
        }
        let schema = try integer("schemaVersion")
        guard let schemaVersion = UInt32(exactly: schema) else { throw bad("schemaVersion is out of range") }
        // The readable forms beside the bytes must say what the bytes say, or an edit of them would be restored as the
        // bytes say, unnoticed. JSON values are compared as the text they give with sorted keys, after the same parse.
        func canonical(_ value: Any) -> [UInt8]? { JSON(canonicalizing: value).map { Array($0.rendered.utf8) } }
        func canonical(json: Data) -> [UInt8]? {
            (try? JSONSerialization.jsonObject(with: json, options: [.fragmentsAllowed])).flatMap(canonical)
        }
        if let shown = object["payload"] {
            guard let stored = canonical(json: payload), stored == canonical(shown) else {
                throw bad("payload differs from payloadBase64")
            }
        }
        // `data` shows a payload upcast to the schema version of the build that wrote the export: only a record of
        // the version this build writes is shown the same way by both.
        let type = try string("type")
        if let shown = object["data"], TrainingEvent.currentSchemaVersion(of: type) == schemaVersion {
            let decoded = try? [UInt8](payload).withUnsafeBytes { bytes in
                try TrainingEvent.decode(type: type, schemaVersion: schemaVersion, payload: bytes)
            }
            let encoded = decoded.flatMap { try? payloadEncoder.encode($0.payload) }
            guard let stored = encoded.flatMap(canonical(json:)), stored == canonical(shown) else {
                throw bad("data differs from payloadBase64")
            }
        }
        let event = ProposedEvent(
            id: id, type: type, schemaVersion: schemaVersion, encoding: encoding,
            payload: [UInt8](payload),
            occurredAt: occurredAt,
            metadata: EventMetadata(
                correlationID: try string("correlationId", in: metadata),
                causationID: try string("causationId", in: metadata),
                source: try string("source", in: metadata)))
        return ExportedRecord(
            position: try integer("position"), streamID: try string("streamId"),
            streamVersion: try integer("streamVersion"),
            recordedAt: recordedAt, event: event, hash: hash)
    }
}

/// A JSON number that is a whole number from 0 to 2^64 − 1; nil for anything else.
private func wholeNumber(_ value: Any?) -> UInt64? {
    guard let number = value as? NSNumber, NSNumber(value: number.uint64Value) == number else { return nil }
    return number.uint64Value
}

/// The bytes hexadecimal digits stand for, two per byte; nil for anything else.
func bytes(hexadecimal text: String) -> [UInt8]? {
    let digits = Array(text.utf8)
    guard digits.count % 2 == 0 else { return nil }
    var bytes: [UInt8] = []
    for index in stride(from: 0, to: digits.count, by: 2) {
        guard let high = hexadecimalValue(digits[index]), let low = hexadecimalValue(digits[index + 1]) else {
            return nil
        }
        bytes.append(high << 4 | low)
    }
    return bytes
}

private func hexadecimalValue(_ digit: UInt8) -> UInt8? {
    switch digit {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
    default: nil
    }
}
