import ArgumentParser
import EventJournal
import Interchange

struct EventsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events", abstract: "Print the journal's records, oldest first.")

    @OptionGroup var location: JournalLocation

    @Option(help: "Only this stream's events.")
    var stream: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Start at this global position (or stream version, with --stream).", valueName: "pos"))
    var from: UInt64 = 1

    @Option(parsing: .unconditional, help: "Print at most this many records.")
    var limit: Int?

    @Flag(
        help: ArgumentHelp(
            "Keep printing new records as they are committed, until interrupted or --limit records are printed; "
                + "of the whole journal, not with --stream."))
    var follow = false

    @Flag(help: "Print one JSON object per line (fields documented in docs/FORMAT.md).")
    var json = false

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more") }
        if follow, stream != nil { throw ValidationError("--follow reads the whole journal; leave out --stream") }
    }

    func run() async throws {
        let journal = try location.open()
        // Each record as it comes when following; else in blocks, and what was read before a failure too.
        var printer = RecordPrinter(
            json: json, flushingEachRecord: follow, positionWidth: String(try journal.head().position).count + 1)
        defer { printer.flush() }
        let limit = limit ?? .max
        if let stream {
            do {
                for record in try journal.readStream(stream, from: max(from, 1), limit: limit) { printer.print(record) }
            } catch {
                // A damaged record fails the read as a whole: the records before it are read again one by one and
                // printed, up to the one that fails.
                var version = max(from, 1)
                var printed = 0
                while printed < limit, let record = try journal.readStream(stream, from: version, limit: 1).first {
                    printer.print(record)
                    version += 1
                    printed += 1
                }
                throw error
            }
        } else if follow, limit > 0 {
            var printed = 0
            for try await record in journal.follow(from: from) {
                guard printed < limit else { break }
                printer.print(record)
                printed += 1
                if printed == limit { break }
            }
        } else {
            try journal.forEachRecord(from: from, limit: limit) { printer.print($0) }
        }
        printer.finish()
    }
}

/// Prints records as a table (for people) or as JSON lines (for programs).
struct RecordPrinter {
    let json: Bool
    /// Whether each record is written as it is printed, rather than with others in a block.
    let flushingEachRecord: Bool
    /// The columns of the position's column: at least six, and as wide as the head's position and a space.
    let positionWidth: Int
    private var printedHeader = false
    /// What is printed and not yet written: a write per record took a system call each.
    private var pending = ""

    init(json: Bool, flushingEachRecord: Bool = false, positionWidth: Int = 6) {
        self.json = json
        self.flushingEachRecord = flushingEachRecord
        self.positionWidth = max(6, positionWidth)
    }

    mutating func print(_ record: EventRecord) {
        if json {
            pending += record.json.rendered + "\n"
        } else {
            if !printedHeader {
                pending += row("POS", "OCCURRED (UTC)", "STREAM@VERSION", "TYPE", "PAYLOAD")
                printedHeader = true
            }
            let occurred = String(record.occurredAt.description.prefix(19)).replacingOccurrences(of: "T", with: " ")
            pending += row(String(record.position), occurred, streamColumn(record), record.type, summary(record))
        }
        if flushingEachRecord || pending.utf8.count >= 1 << 16 { flush() }
    }

    /// Writes what is pending.
    mutating func flush() {
        guard !pending.isEmpty else { return }
        Terminal.write(pending)
        pending = ""
    }

    mutating func finish() {
        if !json && !printedHeader { pending += "(no events)\n" }
        flush()
    }

    /// The stream and version, shortening a long stream id in the middle so that the table stays aligned.
    private func streamColumn(_ record: EventRecord) -> String {
        let version = "@\(record.streamVersion)"
        let room = 25 - version.count
        let stream = record.streamID
        guard stream.count > room else { return stream + version }
        return String(stream.prefix(room - 5)) + "…" + String(stream.suffix(4)) + version
    }

    private func summary(_ record: EventRecord) -> String {
        let text: String
        if record.encoding == .json, let payload = String(validating: record.payload, as: UTF8.self) {
            text = payload
        } else if let data = record.decodedTrainingData {
            text = data
        } else {
            text = "<\(record.payload.count) bytes, \(record.encoding.name)>"
        }
        return text.count > 60 ? String(text.prefix(59)) + "…" : text
    }

    private func row(_ position: String, _ time: String, _ stream: String, _ type: String, _ payload: String) -> String
    {
        func pad(_ text: String, _ width: Int) -> String {
            text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
        }
        return pad(position, positionWidth) + pad(time, 20) + pad(stream, 26) + pad(type, 18) + payload + "\n"
    }
}
