import ArgumentParser
import EventJournal

struct InitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init", abstract: "Create an empty journal (directory mode 0700, files 0600).")

    @OptionGroup var location: JournalLocation

    func run() async throws {
        let existed = Journal.exists(at: location.path)
        let journal = try location.open(create: true)
        let verb = existed ? "already holds" : "created"
        Terminal.write("\(location.path): \(verb) journal \(journal.id.uuidString.lowercased())\n")
    }
}
