import ArgumentParser
import EventJournal
import Foundation
import Interchange
import Training

struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Import a Strong, Hevy or FitNotes export (CSV).",
        discussion: """
            The layout is read from the header (--format overrides it). Each workout becomes the events a live \
            workout would have written, dated when it happened; the import writes all of them or nothing. Importing \
            a file again, or a later export holding the same workouts, adds nothing; a workout that now reads \
            differently (a better exercise mapping, say) is corrected through events. Rows that parse but are \
            implausible are imported and listed, and kept out of records and volume by the rule \
            records.exclude-implausible. Docs: docs/IMPORT.md.
            """)

    @OptionGroup var location: JournalLocation

    @Argument(help: "The export file.")
    var file: String

    @Option(help: "The app the file comes from: strong, hevy or fitnotes (default: read from the header).")
    var format: ExportFormat?

    @Option(help: "The unit of weights the file gives no unit for (Strong's comma layouts): kg or lb.")
    var unit: String?

    @Option(help: "The time zone of the file's local times, an IANA name (default: the profile's).")
    var timeZone: String?

    @Option(
        help: ArgumentHelp("A JSON object mapping the app's exercise names to catalog names or ids.", valueName: "file")
    )
    var map: String?

    @Flag(help: "Print the report as JSON (fields documented in docs/JSON.md).")
    var json = false

    @Flag(help: "Print what the import would add and correct, and write nothing.")
    var dryRun = false

    func validate() throws {
        try requireMassUnit(unit)
    }

    func run() async throws {
        var options = ImportOptions(format: format, mappingFile: map, isDryRun: dryRun)
        options.unit = unit.flatMap(MassUnit.init(parsing:))
        if let timeZone { options.timeZone = try TimeZone.named(timeZone) }
        let log = try location.trainingLog()
        let report: ImportReport
        do {
            report = try await Importer(log: log).importFile(at: file, options: options)
        } catch let error as ImportError where error.message.hasPrefix("line ") {
            // Named, so that a script importing several files says which one failed: `strong.csv: line 12: …`.
            throw ImportError(error.code, "\(file): \(error.message)", remedy: error.remedy)
        }
        // The import is recorded: read models that a full disk keeps from following it are told of, not an error.
        var cannotFollow = false
        if !dryRun {
            var bar = ProgressBar(label: "catching up")
            do {
                try log.readModels.catchUp { _, done, total in bar.update(done, of: total) }
            } catch  where TrainingReadModels.cannotFollow(error) {
                cannotFollow = true
            }
            bar.finish()
        }
        if json {
            Terminal.write(Self.json(report, dryRun: dryRun).rendered + "\n")
        } else {
            let profile = try Profile.recorded(in: log.journal)
            Terminal.write(Self.text(report, dryRun: dryRun, unit: profile.unit, timeZone: profile.timeZone))
        }
        if cannotFollow {
            Terminal.writeError(
                "liftledger: warning: the import is recorded, but the disk is full and the read models could not "
                    + "follow it; free space on it (until then, queries answer from a replay of the journal)\n")
        }
    }

    /// The report for people, its volume in `unit`, the days of workouts it corrects in `timeZone`.
    static func text(_ report: ImportReport, dryRun: Bool, unit: MassUnit, timeZone: TimeZone) -> String {
        let mapped = report.exercises.filter { !$0.isCustom }.count
        var lines = [
            "\(dryRun ? "would import" : "imported") \(report.file) (\(report.layout)): \(counted(report.rows, "row"))",
            "  workouts: \(report.workouts) (\(report.workoutsAdded) added, \(report.workoutsAlreadyImported) already "
                + "imported, \(report.workoutsCorrected) corrected"
                + (report.workoutsWithoutSets == 0
                    ? ")" : ", \(report.workoutsWithoutSets) of rest rows alone, passed over)"),
        ]
        if report.workoutsLeftDeleted > 0 {
            lines.append(
                "  of those already imported, \(report.workoutsLeftDeleted) deleted in LiftLedger: left so, whatever "
                    + "the file says of them (liftledger restore brings one back)")
        }
        // A file cut short removes the sets it lacks, as one edited in the app does: each change is named.
        for correction in report.corrections {
            let counts = [
                (correction.setsAdded, "set", "added"), (correction.setsCorrected, "set", "corrected"),
                (correction.setsRemoved, "set", "removed"), (correction.exercisesAdded, "exercise", "added"),
                (correction.exercisesRemoved, "exercise", "removed"), (correction.exercisesMoved, "exercise", "moved"),
            ]
            let changes =
                counts.filter { $0.0 > 0 }.map { "\(counted($0.0, $0.1)) \($0.2)" }
                + (correction.isStartChanged ? ["start changed"] : [])
                + (correction.isNoteChanged ? ["note changed"] : [])
            lines.append(
                "    \(correction.workoutId) (\(LocalDate(correction.startedAt.date, in: timeZone)) "
                    + "\(correction.name)): \(changes.joined(separator: ", "))")
        }
        // Another app's copy of a workout (Hevy gives minutes, Strong seconds), one renamed, or one changed since an
        // earlier export reads as a new workout: added, and named, so that a double can be found.
        if !report.nearlyHeld.isEmpty {
            let listed = report.nearlyHeld.prefix(5).map { "line \($0.line) beside \($0.workoutId)" }
            let more = report.nearlyHeld.count > 5 ? ", and \(report.nearlyHeld.count - 5) more" : ""
            lines.append(
                "  note: \(counted(report.nearlyHeld.count, "workout")) \(dryRun ? "to add" : "added") "
                    + "\(report.nearlyHeld.count == 1 ? "starts" : "start") within a minute of one the journal holds "
                    + "(\(listed.joined(separator: ", "))\(more)): the same workout from another app or an earlier "
                    + "export? compare them with liftledger show, and delete a copy with liftledger delete")
        }
        lines.append("  local times read in \(report.timeZone) (--time-zone reads them in another)")
        lines += [
            "  sets: \(report.sets) (\(counted(report.warmupSets, "warm-up"))), rest rows: \(report.restRows), "
                + "volume with warm-ups: \(unit.text(milligrams: Double(report.volumeMilligrams), digits: 1)) "
                + unit.rawValue,
            "  exercises: \(counted(report.exercises.count, "name")), \(mapped) mapped to the catalog, "
                + "\(report.exercises.count - mapped) custom (\(report.customExercisesAdded.count) new)",
        ]
        for entry in report.exercises {
            lines.append(
                "    \(entry.appName) -> \(entry.isCustom ? "custom: " : "")\(entry.name) "
                    + "(\(counted(entry.sets, "set")))")
        }
        if !report.unusedMappings.isEmpty {
            lines.append(
                "  note: the mapping file maps \(report.unusedMappings.map(\.debugDescription).joined(separator: ", ")), "
                    + "which no row of the file names: check the spelling against the names above")
        }
        lines.append("  rows skipped: none")
        if report.implausible.isEmpty {
            lines.append("  rows flagged: none")
        } else {
            lines.append("  rows flagged (imported, kept out of records and volume by rule):")
            lines += report.implausible.map { "    line \($0.line): \($0.why)" }
        }
        lines.append(
            dryRun
                ? "  dry run: nothing was written (journal head \(report.headBefore))"
                : "  journal head: \(report.headBefore) -> \(report.headAfter)")
        return lines.joined(separator: "\n") + "\n"
    }

    static func json(_ report: ImportReport, dryRun: Bool) -> JSON {
        .object([
            ("file", .string(report.file)), ("layout", .string(report.layout)), ("digest", .string(report.digest)),
            ("dryRun", .bool(dryRun)),
            ("rows", .integer(Int64(report.rows))), ("workouts", .integer(Int64(report.workouts))),
            ("workoutsAdded", .integer(Int64(report.workoutsAdded))),
            ("workoutsAlreadyImported", .integer(Int64(report.workoutsAlreadyImported))),
            ("workoutsLeftDeleted", .integer(Int64(report.workoutsLeftDeleted))),
            ("workoutsCorrected", .integer(Int64(report.workoutsCorrected))),
            (
                "corrections",
                .array(
                    report.corrections.map { correction in
                        .object([
                            ("workoutId", .string(correction.workoutId)), ("name", .string(correction.name)),
                            ("startedAt", .string(correction.startedAt.description)),
                            ("setsAdded", .integer(Int64(correction.setsAdded))),
                            ("setsCorrected", .integer(Int64(correction.setsCorrected))),
                            ("setsRemoved", .integer(Int64(correction.setsRemoved))),
                            ("exercisesAdded", .integer(Int64(correction.exercisesAdded))),
                            ("exercisesRemoved", .integer(Int64(correction.exercisesRemoved))),
                            ("exercisesMoved", .integer(Int64(correction.exercisesMoved))),
                            ("startChanged", .bool(correction.isStartChanged)),
                            ("noteChanged", .bool(correction.isNoteChanged)),
                        ])
                    })
            ),
            (
                "nearlyHeld",
                .array(
                    report.nearlyHeld.map {
                        .object([("line", .integer(Int64($0.line))), ("workoutId", .string($0.workoutId))])
                    })
            ),
            ("timeZone", .string(report.timeZone)),
            ("workoutsWithoutSets", .integer(Int64(report.workoutsWithoutSets))),
            ("sets", .integer(Int64(report.sets))), ("warmupSets", .integer(Int64(report.warmupSets))),
            ("restRows", .integer(Int64(report.restRows))),
            ("volumeKilograms", .string(kilograms(report.volumeMilligrams))),
            (
                "exercises",
                .array(
                    report.exercises.map { entry in
                        .object([
                            ("appName", .string(entry.appName)), ("exerciseId", .string(entry.exerciseId)),
                            ("name", .string(entry.name)), ("custom", .bool(entry.isCustom)),
                            ("sets", .integer(Int64(entry.sets))),
                        ])
                    })
            ),
            ("customExercisesAdded", .array(report.customExercisesAdded.map(JSON.string))),
            ("unusedMappings", .array(report.unusedMappings.map(JSON.string))),
            (
                "flagged",
                .array(
                    report.implausible.map { .object([("line", .integer(Int64($0.line))), ("why", .string($0.why))]) })
            ),
            ("skipped", .array([])),
            ("headBefore", .unsigned(report.headBefore)), ("headAfter", .unsigned(report.headAfter)),
        ])
    }
}

extension ExportFormat: ExpressibleByArgument {}

struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Export the journal (JSON Lines) or the history (Strong's CSV layout).",
        discussion: """
            jsonl: every record, oldest first, as events --json shows it with each payload's exact bytes, then an \
            end line that counts them; liftledger import-journal turns it into the same journal, hash for hash. \
            strong-csv: the finished workouts in Strong's comma layout, weights in the profile's unit or --unit's \
            (import it back with the same --unit).
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case jsonl
        case strongCSV = "strong-csv"
    }

    @OptionGroup var location: JournalLocation

    @Option(help: "jsonl or strong-csv.")
    var format: Format

    @Option(help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file"))
    var output: String?

    @Option(help: "With strong-csv: the unit of the weights, kg or lb (default: the profile's).")
    var unit: String?

    func validate() throws {
        if let output, output.isEmpty || output.hasSuffix("/") {
            throw ValidationError("--output \"\(output)\" names no file; give the path of a file to write")
        }
        if unit != nil && format != .strongCSV { throw ValidationError("--unit is for --format strong-csv") }
        try requireMassUnit(unit)
    }

    func run() async throws {
        let sink = try OutputSink(path: output, sparing: ["data.mdb", "lock.mdb"].map { location.path + "/" + $0 })
        var mergings: [StrongExport.Merging] = []
        switch format {
        case .jsonl:
            let journal = try location.open()
            var bar = ProgressBar(label: "exporting")
            let head = try journal.head().position
            try JournalExport.write(journal, to: sink.write) { bar.update($0, of: head) }
            bar.finish()
        case .strongCSV:
            mergings = try location.trainingLog().query { snapshot in
                let unit = try unit.flatMap(MassUnit.init(parsing:)) ?? snapshot.profileFields().unit ?? .kilograms
                return try StrongExport.write(snapshot, unit: unit, to: sink.write)
            }
        }
        try sink.finish()
        // Said on standard error, where the file is not: the export is whole, but one of its readings is not.
        if let first = mergings.first {
            let others = mergings.count > 1 ? " (and \(counted(mergings.count - 1, "other pair")))" : ""
            Terminal.writeError(
                Terminal.inert(
                    "liftledger: note: \(first.second) starts in the second \(first.first) starts in (\(first.start)) "
                        + "and has its name (\(first.name.debugDescription))\(others): Strong's layout tells workouts "
                        + "apart by start and name alone, so an import reads each such pair back as one workout; "
                        + "liftledger edit --date can set one apart\n"))
        }
    }
}

struct ImportJournalCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-journal",
        abstract: "Restore a JSON Lines export into an empty journal: the same records, positions, ids and hashes.")

    @OptionGroup var location: JournalLocation

    @Argument(help: "The file liftledger export --format jsonl wrote.")
    var file: String

    @Flag(
        help: ArgumentHelp(
            "Restore the records of a file that lacks the end line an export closes with.",
            discussion: "Such a file was cut short (a full disk, an interrupted copy), so records may be missing."))
    var allowCut = false

    func run() async throws {
        let path = location.path
        let fileManager = FileManager.default
        let created = (
            directory: !fileManager.fileExists(atPath: path),
            files: !fileManager.fileExists(atPath: path + "/data.mdb")
        )
        let outcome: Result<(count: Int, position: UInt64, hash: [UInt8]), any Error>
        do {
            let journal = try location.open(create: true)
            do {
                let count = try await JournalExport.restore(from: file, into: journal, allowingCut: allowCut)
                let head = try journal.head()
                outcome = .success((count, head.position, head.hash))
            } catch {
                outcome = .failure(error)
            }
        }
        switch outcome {
        case .success(let restored):
            Terminal.write(
                "restored \(restored.count) records; head \(restored.position), hash \(restored.hash.hexString)\n")
        case .failure(let error):
            // A restore that fails writes nothing, and leaves no journal where there was none: what this command
            // created goes, unless another process made it a journal meanwhile (it holds records, or is open).
            if created.directory || created.files {
                Self.removeIfUnusedAndEmpty(path) {
                    if created.directory {
                        try? fileManager.removeItem(atPath: path)
                    } else {
                        for name in ["data.mdb", "lock.mdb"] { try? fileManager.removeItem(atPath: path + "/" + name) }
                    }
                }
            }
            throw error
        }
    }

    /// Runs `remove` when the journal at `path` holds no record (or is none: the files of a journal being made that
    /// failed) and no other process has it open (see ``Journal/unlessOpenElsewhere(at:_:)``).
    static func removeIfUnusedAndEmpty(_ path: String, remove: () -> Void) {
        // Read first: the environment this opens is closed before the lock is taken, which its closing would drop.
        let holdsRecords = { () -> Bool in
            guard let journal = try? Journal.open(at: path, options: JournalOptions(), create: false) else {
                return false
            }
            return (try? journal.head().position) != 0
        }()
        guard !holdsRecords else { return }
        Journal.unlessOpenElsewhere(at: path, remove)
    }
}
