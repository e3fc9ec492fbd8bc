import ArgumentParser
import EventJournal

struct InitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init", abstract: "Create an empty journal (directory mode 0700, files 0600).")

    @OptionGroup var location: JournalLocation

    func run() async throws {
        let journal = try location.open(create: true)
        let verb = journal.wasMadeByThisOpen ? "created" : "already holds"
        Terminal.write("\(location.path): \(verb) journal \(journal.id.uuidString.lowercased())\n")
    }
}
