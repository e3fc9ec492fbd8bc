import ArgumentParser
import EventJournal
import Foundation
import Interchange

struct AppendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "append",
        abstract: "Append one event with a JSON payload (a low-level command for scripts and tests).",
        discussion: """
            The payload is stored as the JSON text given (without surrounding white space, its line breaks turned \
            into spaces), and shown by 'events'. The read models fold only training \
            events in the binary encoding the training commands write (start, log, schedule set and the others): an \
            appended event of a training type, such as SetLogged, is kept and shown but not folded.
            """)

    @OptionGroup var location: JournalLocation

    @Option(help: "The stream to append to, for example workout-42.")
    var stream: String

    @Option(help: "The event type, for example SetLogged.")
    var type: String

    @Option(help: "The payload: one JSON value.")
    var data: String

    @Option(
        help: ArgumentHelp(
            "Refuse the append unless the stream is at this version: 'any', 'no-stream', or a number.",
            valueName: "version"))
    var expectedVersion: ExpectedVersionArgument = .init(.any)

    @Option(help: "The event's id (a UUID). Repeating an append with the same id and content is a no-op.")
    var id: String?

    @Option(help: ArgumentHelp("When it happened, as RFC 3339 (default: now).", valueName: "time"))
    var occurredAt: String?

    @Option(help: "The schema version of the payload.")
    var schemaVersion: UInt32 = 1

    @Option(help: "Correlation id to record in the metadata.")
    var correlationId: String = ""

    @Option(help: "Causation id to record in the metadata.")
    var causationId: String = ""

    @Option(help: "The source to record in the metadata.")
    var source: String = "cli"

    @Flag(help: "Print the result as JSON.")
    var json = false

    func validate() throws {
        // An id not of the option's type, refused as the command line is read (status 64), with what one looks like.
        if let id, UUID(uuidString: id) == nil {
            throw ValidationError(
                "--id \(id.debugDescription) is not a UUID; pass one such as 0190f3c2-7a4e-7b1c-9d2e-3f4a5b6c7d8e")
        }
    }

    func run() async throws {
        let event = try proposedEvent()
        let journal = try location.open()
        let result = try await journal.append([event], to: stream, expectedVersion: expectedVersion.value)
        let position = result.positions[0]
        if json {
            Terminal.write(
                JSON.object([
                    ("position", .unsigned(position)), ("streamVersion", .unsigned(result.streamVersion)),
                    ("eventId", .string(event.id.uuidString.lowercased())),
                    ("alreadyStored", .bool(result.wasAlreadyStored)),
                ]).rendered + "\n")
        } else {
            let note = result.wasAlreadyStored ? " (already stored: nothing written)" : ""
            Terminal.write("appended at position \(position), \(stream) version \(result.streamVersion)\(note)\n")
        }
    }

    /// Checks every argument before the journal is opened, so that bad input writes nothing.
    private func proposedEvent() throws -> ProposedEvent {
        let payload = try Self.validatedJSON(data)
        // An id given is a UUID (see validate()).
        let eventID = id.flatMap(UUID.init(uuidString:)) ?? UUID.timeOrdered()
        return ProposedEvent(
            id: eventID, type: type, schemaVersion: schemaVersion, encoding: .json, payload: payload,
            occurredAt: try occurredAt.map(Self.parseTime),
            metadata: EventMetadata(correlationID: correlationId, causationID: causationId, source: source))
    }

    /// The payload bytes: the given text, checked to be JSON, on one line.
    static func validatedJSON(_ text: String) throws -> [UInt8] {
        guard JSONValidity.isValid(text.utf8) else {
            if JSONValidity.isNestedTooDeeply(text.utf8) {
                throw CLIError(
                    message: "--data nests objects and arrays more than \(JSONValidity.maximumDepth) deep, which the "
                        + "journal's JSON reader does not read",
                    remedy: "nest them at most \(JSONValidity.maximumDepth) deep")
            }
            throw CLIError(
                message: "--data is not valid JSON",
                remedy: #"pass one JSON value, for example --data '{"reps": 5, "weight": 100}'"#)
        }
        // In valid JSON, line breaks can only be whitespace between tokens: keep each record on one line.
        let oneLine = text.trimmingCharacters(in: .whitespacesAndNewlines)
            .replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
        return Array(oneLine.utf8)
    }

    static func parseTime(_ text: String) throws -> Timestamp {
        guard let time = Timestamp(rfc3339: text) else {
            throw CLIError(
                message: "--occurred-at \(text.debugDescription) is not an RFC 3339 time in the years 0001 to 9999",
                remedy: "write it like 2026-11-21T18:05:00Z or 2026-11-21T18:05:00.250+01:00")
        }
        return time
    }
}

/// `--expected-version`: `any`, `no-stream` or a version number.
struct ExpectedVersionArgument: ExpressibleByArgument {
    let value: ExpectedVersion

    init(_ value: ExpectedVersion) { self.value = value }

    init?(argument: String) {
        switch argument {
        case "any": value = .any
        case "no-stream": value = .noStream
        default:
            guard let version = UInt64(argument) else { return nil }
            value = version == 0 ? .noStream : .exact(version)
        }
    }

    var defaultValueDescription: String { "any" }
}
