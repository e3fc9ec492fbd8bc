import ArgumentParser
import EventJournal

struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Write a compact, consistent copy of the journal into a new or empty directory.",
        discussion: "Writers may keep appending meanwhile. The copy is a journal: open it with --journal DEST.")

    @OptionGroup var location: JournalLocation

    @Argument(help: ArgumentHelp("The new or empty directory to write the copy into.", valueName: "dest"))
    var destination: String

    func run() async throws {
        let journal = try location.open()
        try journal.backup(to: destination)
        let copy = try Journal.open(at: destination)
        let statistics = try copy.statistics()
        Terminal.write(
            "backed up \(statistics.events) events to \(destination) (\(statistics.fileBytes) bytes), "
                + "head hash \(statistics.headHash.hexString)\n")
    }
}
