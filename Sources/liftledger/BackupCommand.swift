import ArgumentParser
import EventJournal
import Foundation
import Interchange

struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Write a compact, consistent copy of the journal into a new or empty directory.",
        discussion: """
            Writers may keep appending meanwhile. The copy is written into a staging directory inside DEST, \
            verified as verify does, and moved into place: a backup that fails leaves no data file in DEST, and a \
            damaged journal is refused. The copy is a journal: open it with --journal DEST.
            """)

    @OptionGroup var location: JournalLocation

    @Argument(help: ArgumentHelp("The new or empty directory to write the copy into.", valueName: "dest"))
    var destination: String

    func run() async throws {
        let journal = try location.open(checkingPagesFirst: true)
        let total = UInt64(try journal.statistics().usedBytes)
        let staging = Journal.backupStaging(for: destination)
        // Stopped (Ctrl-C), the backup leaves nothing it made: no copy half written, no directory it created (the
        // destination and those above it that are not there yet, deepest first; each removed only when empty).
        var made: [String] = []
        var directory = (destination as NSString).standardizingPath
        while !directory.isEmpty, directory != "/", directory != ".", !FileManager.default.fileExists(atPath: directory)
        {
            made.append(directory)
            directory = (directory as NSString).deletingLastPathComponent
        }
        SignalCleanup.removeOnSignal([staging + "/data.mdb", staging + "/lock.mdb", staging] + made)
        let progress = Task.detached {
            // The copy has no progress callback: follow the size of the file it writes, against the pages in use.
            var bar = ProgressBar(label: "backup")
            while !Task.isCancelled {
                let attributes = try? FileManager.default.attributesOfItem(atPath: staging + "/data.mdb")
                bar.update(min(total, UInt64((attributes?[.size] as? Int) ?? 0)), of: total)
                try? await Task.sleep(for: .milliseconds(100))
            }
            return bar
        }
        do {
            try journal.backup(to: destination)
        } catch {
            progress.cancel()
            await progress.value.finish()
            throw error
        }
        progress.cancel()
        var bar = await progress.value
        bar.update(total, of: total)
        bar.finish()
        let copy = try Journal.open(at: destination)
        let statistics = try copy.statistics()
        Terminal.write(
            "backed up \(statistics.events) events to \(destination) (\(statistics.fileBytes) bytes), "
                + "head hash \(statistics.headHash.hexString)\n")
    }
}
