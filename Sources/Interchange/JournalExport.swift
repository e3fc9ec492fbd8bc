import EventJournal
import Foundation
import Training

/// Every record of a journal as JSON Lines (the `events --json` objects, with each payload's exact bytes), and back:
/// restored into an empty journal, an export gives the same records, positions, ids and chain hashes.
public enum JournalExport {
    /// Writes every record, oldest first, one JSON object per line; `progress` gets the position reached.
    public static func write(
        _ journal: Journal, to output: (String) throws -> Void, progress: (UInt64) -> Void = { _ in }
    ) throws {
        try journal.forEachRecord { record in
            try output(record.json(keepingBytes: true).rendered + "\n")
            progress(record.position)
        }
    }

    /// Restores the export at `path` into `journal`, which must be empty: all of it, or, on any error, nothing.
    /// Returns the number of records.
    @discardableResult
    public static func restore(from path: String, into journal: Journal) async throws -> Int {
        guard try journal.head().position == 0 else {
            throw ImportError(
                .file, "the journal at \(journal.path) is not empty",
                remedy: "import an export into a new journal: liftledger init --journal NEW, then import-journal there")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ImportError(.file, "cannot read \(path)", remedy: "check the path and that you may read the file")
        }
        var records: [ExportedRecord] = []
        var line = 0
        for text in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            line += 1
            guard !text.isEmpty else { continue }
            records.append(try record(Data(text), line: line))
        }
        guard !records.isEmpty else {
            throw ImportError(.empty, "\(path) holds no records", remedy: "export a journal with liftledger export")
        }
        try await journal.restore(records)
        return records.count
    }

    /// One line of an export, checked field by field.
    private static func record(_ text: Data, line: Int) throws(ImportError) -> ExportedRecord {
        func bad(_ what: String) -> ImportError {
            ImportError(
                .malformed, "line \(line): \(what)",
                remedy: "import the file liftledger export --format jsonl wrote, unchanged")
        }
        guard let object = try? JSONSerialization.jsonObject(with: text) as? [String: Any] else {
            throw bad("not a JSON object")
        }
        func integer(_ key: String) throws(ImportError) -> UInt64 {
            guard let number = object[key] as? NSNumber, NSNumber(value: number.uint64Value) == number else {
                throw bad("no whole number \(key)")
            }
            return number.uint64Value
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
        func canonical(_ value: Any) -> Data? {
            try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
        }
        func canonical(json: Data) -> Data? {
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
            let encoded = decoded.flatMap { try? JSONEncoder().encode($0.payload) }
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
