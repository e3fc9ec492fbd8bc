import ArgumentParser
import EventJournal
import Interchange

struct StatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats", abstract: "Print the journal's size, counts and head.")

    @OptionGroup var location: JournalLocation

    @Flag(help: "Print the figures as JSON.")
    var json = false

    func run() async throws {
        let statistics = try location.open().statistics()
        let fields: [(String, JSON, String)] = [
            ("journalId", .string(statistics.journalID.uuidString.lowercased()), "journal id"),
            ("formatVersion", .unsigned(UInt64(statistics.formatVersion)), "format version"),
            ("createdAt", .string(statistics.createdAt.description), "created"),
            ("events", .unsigned(statistics.events), "events"),
            ("streams", .integer(Int64(statistics.streams)), "streams"),
            ("headPosition", .unsigned(statistics.headPosition), "head position"),
            ("headHash", .string(statistics.headHash.hexString), "head hash"),
            ("fileBytes", .integer(Int64(statistics.fileBytes)), "size on disk (bytes)"),
            ("usedBytes", .integer(Int64(statistics.usedBytes)), "pages in use (bytes)"),
            ("mapSize", .integer(Int64(statistics.mapSize)), "map size (bytes)"),
        ]
        if json {
            Terminal.write(JSON.object(fields.map { ($0.0, $0.1) }).rendered + "\n")
        } else {
            for (_, value, label) in fields {
                let text: String
                if case .string(let string) = value { text = string } else { text = value.rendered }
                Terminal.write(label.padding(toLength: 22, withPad: " ", startingAt: 0) + text + "\n")
            }
        }
    }
}
