import ArgumentParser
import EventJournal
import Foundation
import Interchange
import Projections
import Training

struct RulesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules", abstract: "Show or change the rules the analytics follow (docs/RULES.md).",
        subcommands: [RulesShowCommand.self, RulesSetCommand.self], defaultSubcommand: RulesShowCommand.self)
}

struct RulesShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show every rule and its value.")

    @OptionGroup var location: JournalLocation
    @OptionGroup var asOf: AsOfOption

    @Flag(help: "Print one JSON object per rule, one per line.")
    var json = false

    func run() async throws {
        try location.query(asOf: asOf) { context in
            let rules = context.rulesInForce
            for rule in Rules.keys {
                let value = rule.value(in: rules)
                if json {
                    Terminal.write(
                        JSON.object([
                            ("key", .string(rule.name)), ("value", .string(value)),
                            ("default", .string(rule.defaultValue)),
                            ("rebuilds", .bool(rule.affects == .fold)), ("summary", .string(rule.summary)),
                        ]).rendered + "\n")
                } else {
                    let marker = value == rule.defaultValue ? "" : " (default \(rule.defaultValue))"
                    Terminal.write(padded(rule.name, 29) + padded(value + marker, 28) + rule.summary + "\n")
                }
            }
            // The profile's time zone counts as a rule that rebuilds (docs/RULES.md); `profile set` changes it.
            if json {
                Terminal.write(
                    JSON.object([
                        ("key", .string(Rules.timeZoneKey)), ("value", .string(rules.timeZoneIdentifier)),
                        ("default", .string(Rules().timeZoneIdentifier)), ("rebuilds", .bool(true)),
                        ("summary", .string(Rules.timeZoneSummary)),
                    ]).rendered + "\n")
            } else {
                Terminal.write(padded("time zone (profile)", 29) + rules.timeZoneIdentifier + "\n")
            }
        }
    }
}

struct RulesSetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Change a rule: recorded in the journal, then the read models it affects rebuilt.",
        // One value: the argument takes every word after the rule only so that a negative value is not read as an
        // option, and the usage the parser makes of it read as several.
        usage: "liftledger rules set [--journal <dir>] [--durability <mode>] <key> <value> [--dry-run] [--json]",
        discussion: """
            With --dry-run, the rule is not recorded: the read models are replayed under the new rule in a scratch \
            store and the differences are printed (records that appear, disappear or change value; the streak; weekly \
            counts), which is what the change would do. The read models catch up first, as for any query.
            """)

    @OptionGroup var location: JournalLocation

    @Argument(help: "The rule, such as e1rm.formula (see liftledger rules show).")
    var key: String

    // Taken whatever it looks like, so that a negative value (-0.1) is refused by the rule, not taken for an option.
    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("Its new value, such as brzycki.", valueName: "value"))
    var values: [String] = []

    /// The values given, but `--`, which a shell user may write before a negative one.
    var given: [String] { values.filter { $0 != "--" } }

    /// The one value given.
    var value: String { given[0] }

    @Flag(help: "Print what the change would do, and record nothing (the read models catch up first, as for a query).")
    var dryRun = false

    @Flag(help: "With --dry-run: print the differences as JSON, one object per line (fields in docs/JSON.md).")
    var json = false

    func validate() throws {
        // A mistyped option (`--dryrun`) is not a value; after `--`, everything is.
        try LiftLedger.rejectUnknownOptions(in: values)
        guard given.count == 1 else {
            throw ValidationError(
                given.isEmpty
                    ? "give the rule's new value, such as liftledger rules set \(key) VALUE (see liftledger rules show)"
                    : "give one value after the rule, not \(given.count): \(given.joined(separator: " "))")
        }
        if json && !dryRun { throw ValidationError("--json prints the differences of a --dry-run; add --dry-run") }
    }

    func run() async throws {
        let log = try location.trainingLog()
        let (canonical, proposed, isChange) = try log.proposeRule(key, value)
        guard isChange else {
            // With --json, no line: no figure would change (the JSON Lines are the differences).
            let message = "\(key) is already \(canonical); nothing was written\n"
            if json { Terminal.writeError(message) } else { Terminal.write(message) }
            return
        }
        guard dryRun else {
            try await log.changeRule(key, to: canonical)
            try log.rebuildAfter("\(key) = \(canonical)")
            Terminal.write("\(key) = \(canonical)\n")
            return
        }
        let models = log.readModels
        // Rebuilt first when other code or another time zone built them, and said so: else the preview would be
        // compared, without a word, with read models this dry run had just rebuilt.
        _ = try models.catchUpSayingWhy()
        let (before, today) = try await models.caughtUpAnalytics()
        let after: AnalyticsView
        if Rules.key(key)?.affects == .fold {
            var bar = ProgressBar(label: "replaying")
            let preview = try models.preview(under: proposed) { _, done, total in bar.update(done, of: total) }
            bar.finish()
            after = try preview.read { try $0.analyticsView(today: today) }
        } else {
            after = try models.read(rules: proposed) { try $0.analyticsView(today: today) }
        }
        let changes = before.changes(to: after)
        if json {
            for change in changes { Terminal.write(Self.json(change).rendered + "\n") }
            return
        }
        // For people, the first of each read model's differences: a change of the week's start moves every week of
        // years of training (tens of thousands of lines); the JSON lists them all.
        var shown: [String: Int] = [:]
        var readModels: [String] = []
        let unit = try log.query { try $0.profileFields().unit ?? .kilograms }
        for change in changes {
            if shown[change.readModel] == nil { readModels.append(change.readModel) }
            shown[change.readModel, default: 0] += 1
            guard shown[change.readModel]! <= Self.linesPerReadModel else { continue }
            Terminal.write(
                "\(change.readModel) \(change.subject.filter { !$0.isEmpty }.joined(separator: " ")) "
                    + "\(change.figure): \(Self.text(change.before, change, unit)) -> "
                    + "\(Self.text(change.after, change, unit))\n")
        }
        for readModel in readModels where shown[readModel]! > Self.linesPerReadModel {
            Terminal.write(
                "\(readModel): \(shown[readModel]! - Self.linesPerReadModel) more (--json lists every difference)\n")
        }
        Terminal.write(
            "\(counted(changes.count, "difference")) in records, streaks and weekly counters "
                + "if \(key) were \(canonical); the rule was not recorded\n")
    }

    /// The differences of each read model a dry run lists for people; the rest are counted.
    static let linesPerReadModel = 50

    /// A figure of `change` for people: a mass in kilograms, labelled, as the figures are compared (exactly, as JSON
    /// gives them); in a profile in pounds, in pounds to two decimals first, the kilograms after it.
    static func text(_ value: String?, _ change: AnalyticsView.Change, _ unit: MassUnit) -> String {
        guard let value else { return "none" }
        guard change.isMass else { return value }
        guard unit == .pounds, let kilograms = Double(value) else { return "\(value) kg" }
        return "\(unit.text(milligrams: kilograms * 1_000_000, digits: 2)) lb (\(value) kg)"
    }

    static func json(_ change: AnalyticsView.Change) -> JSON {
        .object([
            ("readModel", .string(change.readModel)),
            ("subject", .array(change.subject.map(JSON.string))),
            ("figure", .string(change.figure)),
            ("before", change.before.map(JSON.string) ?? .null),
            ("after", change.after.map(JSON.string) ?? .null),
        ])
    }
}

struct RebuildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rebuild", abstract: "Rebuild read models from the first event, then swap them in.",
        discussion: """
            The rebuild fills spare tables while queries go on answering from the current ones, and swaps them in \
            one transaction. A rebuild that is killed resumes where it stopped the next time one runs. With \
            --dry-run, the read models are replayed into a scratch store and compared with the current ones: their \
            figures, and every row of every table.
            """)

    @OptionGroup var location: JournalLocation

    @Argument(help: "The projection: plan or training (default: both).")
    var projection: String?

    @Flag(
        help: ArgumentHelp(
            "Replay into a scratch store and print what differs from the current read models, as JSON objects "
                + "(docs/JSON.md); change nothing but bring the read models up to date, as any query does."))
    var dryRun = false

    func validate() throws {
        // As a value outside an option's choices is: status 64, before the journal is opened.
        if let projection, !TrainingReadModels.names.contains(projection) {
            // `rebuild --as-of 3`: the parser takes the value of an option `rebuild` does not have for the projection,
            // and asks for it to be checked before it reports the option.
            let arguments = CommandLine.arguments
            if let index = arguments.lastIndex(of: projection), index > 1 {
                let option = arguments[index - 1]
                let own = ["--dry-run", "--journal", "--durability", "--help", "-h"]
                if option.hasPrefix("-"), !option.contains("="), !own.contains(option) {
                    throw ValidationError("Unknown option '\(option)'")
                }
            }
            throw ValidationError(
                "no projection named \(projection.debugDescription); the projections are: "
                    + TrainingReadModels.names.joined(separator: ", "))
        }
    }

    func run() async throws {
        let models = try TrainingReadModels(journal: try location.open())
        var bar = ProgressBar(label: "rebuilding")
        if dryRun {
            // The read models and the replay compared as of one head: records appended meanwhile (by another process)
            // would show as differences, so the comparison is made again, a few times at most.
            var changes: [AnalyticsView.Change] = []
            var tables: [TableDifference] = []
            for attempt in 1...3 {
                let head = try models.journal.head().position
                let rules = try models.catchUpSayingWhy()
                let today = LocalDate(Date(), in: rules.timeZone)
                let before = try models.read(rules: rules) { try $0.analyticsView(today: today) }
                let replayed = try models.preview(under: rules) { _, done, total in bar.update(done, of: total) }
                bar.finish()
                changes = before.changes(to: try replayed.read { try $0.analyticsView(today: today) })
                // Every row of every table too: a history, calendar or progress row that differs is no figure above.
                tables = try models.tableDifferences(from: replayed)
                if try models.journal.head().position == head { break }
                if attempt == 3 {
                    Terminal.writeError(
                        "liftledger: note: the journal grew during each of 3 comparisons; what follows may count its "
                            + "new records as differences\n")
                }
            }
            for change in changes { Terminal.write(RulesSetCommand.json(change).rendered + "\n") }
            for table in tables {
                Terminal.write(
                    JSON.object([
                        ("table", .string(table.table)), ("rowsOnlyInCurrent", .unsigned(UInt64(table.rowsOnlyHere))),
                        ("rowsOnlyInReplay", .unsigned(UInt64(table.rowsOnlyThere))),
                        ("rowsChanged", .unsigned(UInt64(table.rowsChanged))),
                    ]).rendered + "\n")
            }
            // For people, on standard error: standard output stays JSON Lines, empty when nothing differs.
            Terminal.writeError(
                "\(counted(changes.count, "difference")) from a full replay, and "
                    + (tables.isEmpty
                        ? "every table's rows the same\n"
                        : "\(counted(tables.count, "table")) whose rows differ (liftledger rebuild writes them anew)\n")
            )
            // A difference is a read model that does not follow from the journal: a failed check, as verify's is.
            if !changes.isEmpty || !tables.isEmpty { Foundation.exit(1) }
            return
        }
        let takenOver: [String]
        do {
            takenOver = try models.rebuild(projection) { _, done, total in bar.update(done, of: total) }
        } catch  where TrainingReadModels.cannotFollow(error) {
            // The chunks folded before the disk filled are kept in the spare tables: not "nothing was written".
            bar.finish()
            throw JournalError(
                .outOfSpace, "the disk filled during the rebuild",
                remedy: "free space on the volume that holds the journal, then run liftledger rebuild again: it "
                    + "resumes from what this one folded, if anything (queries answer meanwhile, as they did before)")
        }
        bar.finish()
        let status = try models.status()
        for entry in status where projection == nil || entry.name == projection {
            guard !takenOver.contains(entry.name) else {
                // It said "rebuilt", of a read model another process was building, or had built.
                Terminal.write(
                    "\(entry.name): rebuilt by another process instead, which took the rebuild over under other "
                        + "rules or code"
                        + (entry.isRebuilding ? " (under way; see liftledger projections)" : "") + "\n")
                continue
            }
            Terminal.write("\(entry.name): rebuilt to position \(entry.checkpoint?.position ?? 0)\n")
        }
    }
}

struct ProjectionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "projections",
        abstract: "Show each projection's checkpoint, code version, rules digest and lag behind the journal.")

    @OptionGroup var location: JournalLocation

    @Flag(help: "Print one JSON object per projection, one per line.")
    var json = false

    func run() async throws {
        let status = try TrainingReadModels(journal: try location.open()).status()
        for entry in status {
            let digest = entry.rulesDigest.hexString
            let built = entry.checkpoint
            if json {
                Terminal.write(
                    JSON.object([
                        ("name", .string(entry.name)), ("version", .unsigned(UInt64(entry.codeVersion))),
                        ("rulesDigest", .string(digest)),
                        ("builtVersion", built.map { .unsigned(UInt64($0.version)) } ?? .null),
                        ("builtRulesDigest", built.map { .string($0.rulesDigest.hexString) } ?? .null),
                        ("position", entry.checkpoint.map { .unsigned($0.position) } ?? .null),
                        ("head", .unsigned(entry.head)), ("lag", .unsigned(entry.lag)),
                        ("slot", entry.checkpoint.map { .unsigned(UInt64($0.slot)) } ?? .null),
                        ("current", .bool(entry.isCurrent)), ("rebuilding", .bool(entry.isRebuilding)),
                        ("rebuildPosition", entry.rebuildPosition.map(JSON.unsigned) ?? .null),
                        ("rebuildCurrent", entry.rebuildPosition == nil ? .null : .bool(entry.rebuildIsCurrent)),
                    ]).rendered + "\n")
            } else {
                func short(_ digest: String) -> String { digest.isEmpty ? "none" : String(digest.prefix(12)) }
                // A stale read model's version and rules are what built it, beside those it will be rebuilt by.
                var version = "version \(entry.codeVersion)"
                var rules = "rules \(short(digest))"
                if let built, !entry.isCurrent {
                    if built.version != entry.codeVersion {
                        version = "version \(built.version) (code \(entry.codeVersion))"
                    }
                    let builtDigest = built.rulesDigest.hexString
                    if builtDigest != digest { rules = "rules \(short(builtDigest)) (in force \(short(digest)))" }
                }
                let state =
                    built == nil
                    ? "never built" : entry.isCurrent ? "current" : "built under other rules or code: rebuilt next"
                Terminal.write(
                    padded(entry.name, 10) + "\(version), position "
                        + "\(built?.position ?? 0) of \(entry.head) (lag \(entry.lag)), \(rules), \(state)"
                        + (entry.rebuildPosition.map {
                            entry.isRebuilding
                                ? ", rebuilding (at \($0))"
                                : entry.rebuildIsCurrent
                                    ? ", a rebuild cut short at \($0) (liftledger rebuild resumes it)"
                                    : ", a rebuild by other code or rules cut short at \($0) (liftledger rebuild "
                                        + "starts anew)"
                        } ?? "") + "\n")
            }
        }
    }
}
