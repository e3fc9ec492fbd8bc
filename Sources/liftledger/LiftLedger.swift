import ArgumentParser
import EventJournal
import Interchange
import Projections
import Training

#if canImport(Glibc)
    import Glibc
#endif

@main
struct LiftLedger: AsyncParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "liftledger",
        abstract: "An event-sourced training log on LMDB.",
        discussion: """
            The journal directory is --journal, else $LIFTLEDGER_JOURNAL, else $XDG_DATA_HOME/liftledger (when \
            absolute), else ~/.local/share/liftledger.
            """,
        version: version,
        subcommands: [
            InitCommand.self, StartCommand.self, AddCommand.self, LogCommand.self, RestCommand.self,
            PauseCommand.self, ResumeCommand.self, FinishCommand.self, DiscardCommand.self, StatusCommand.self,
            CorrectCommand.self, RemoveSetCommand.self, RemoveExerciseCommand.self, MoveExerciseCommand.self,
            EditCommand.self, DeleteCommand.self, RestoreCommand.self, TodayCommand.self,
            ProfileCommand.self, ExerciseCommand.self, RoutineCommand.self, ScheduleCommand.self,
            HistoryCommand.self, ShowCommand.self, CalendarCommand.self, RecordsCommand.self, WhyCommand.self,
            StreakCommand.self, BalanceCommand.self, ProgressCommand.self, InsightsCommand.self, RulesCommand.self,
            RebuildCommand.self, ProjectionsCommand.self, ImportCommand.self, ExportCommand.self,
            ImportJournalCommand.self, AppendCommand.self, EventsCommand.self, VerifyCommand.self, BackupCommand.self,
            StatsCommand.self,
            DemoCommand.self,
        ]
    )

    /// Runs the command, printing journal and CLI errors as one line on standard error with a non-zero status.
    static func main() async {
        Terminal.occupyClosedStandardDescriptors()
        refuseArgumentsNotInUTF8()
        LongWaitNotice.install()
        Journal.reportStorageCrashes(
            message: "liftledger: error: LMDB crashed reading the journal's file, a page of which is damaged; run "
                + "liftledger verify with the same --journal to find the damage and what to do\n",
            status: 1, beforeExit: SignalCleanup.removePaths)
        let arguments = journalOptionAfterCommand(Array(CommandLine.arguments.dropFirst()))
        // `help NAME` of no command printed the whole help, with status 0.
        if arguments.first == "help", let unknown = unknownCommand(in: Array(arguments.dropFirst())) {
            Terminal.fail("\(unknown); see liftledger --help", status: ExitCode.validationFailure.rawValue)
        }
        do {
            var command = try parseAsRoot(arguments)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let error where JournalError.from(error) != nil {
            // The journal's own errors, and the storage's, which they name.
            Terminal.fail(JournalError.from(error)!.description)
        } catch let error as CLIError {
            Terminal.fail(error.description)
        } catch let error as TrainingError where error.code == .alreadyDone {
            // What was asked holds already: no mistake, as for every command that finds nothing to write.
            Terminal.write("\(error.message); nothing was written\n")
        } catch let error as TrainingError {
            Terminal.fail(error.description)
        } catch let error as CatalogError {
            Terminal.fail(error.description)
        } catch let error as ProjectionError {
            Terminal.fail(error.description)
        } catch let error as ImportError {
            Terminal.fail(error.description)
        } catch {
            // --help and --version end here too; argument errors become one line like every other error.
            let status = exitCode(for: error)
            if status == .success { exit(withError: error) }
            var text = message(for: error)
            if text.hasSuffix(".") { text.removeLast() }
            // A first word that names no command is the mistake, whatever the parser met after it.
            text =
                unknownCommand(in: arguments) ?? dashedArgumentGiven(for: text, in: arguments)
                ?? wordsAfterAValueGiven(for: text, in: arguments) ?? text
            Terminal.fail("\(text); see \(commandPath(arguments)) --help", status: status.rawValue)
        }
    }

    /// Ends the process with status 64 when an argument is not UTF-8: Swift reads each of its bad bytes as U+FFFD, so
    /// a path given so would name another file (`j_\xe9` and `j_\xe8` opened one journal, made under a third name),
    /// and a name or a note would be stored with U+FFFD.
    static func refuseArgumentsNotInUTF8() {
        for index in 1..<Int(CommandLine.argc) {
            guard let argument = CommandLine.unsafeArgv[index], String(validatingCString: argument) == nil else {
                continue
            }
            Terminal.fail(
                "argument \(index) (\(String(cString: argument).debugDescription)) is not UTF-8 (read so, a path "
                    + "would name another file, a name or note would be stored otherwise); give it in UTF-8, and "
                    + "rename a file or directory whose name is not", status: 64)
        }
    }

    /// The argument parser reads a word that begins with `-` (`remove-set -1`, `routine add -Legs squat`, `schedule set
    /// --split -Legs`) as an option, and then says that an argument, or the option before it, has no value: the account
    /// of what was given instead of `message`, when that is what happened (a word that follows a long option, `--workout
    /// -1`, is that option's value, unless the message is about that option).
    static func dashedArgumentGiven(for message: String, in arguments: [String]) -> String? {
        func isDashed(_ word: String) -> Bool { word.count > 1 && word.hasPrefix("-") && !word.hasPrefix("--") }
        let argumentPrefix = "Missing expected argument '"
        let valuePrefix = "Missing value for '"
        if message.hasPrefix(argumentPrefix), message.hasSuffix("'"),
            let given = arguments.indices.first(where: { isDashed(arguments[$0]) && !isOptionValue($0, in: arguments) })
                .map({ arguments[$0] })
        {
            let argument = message.dropFirst(argumentPrefix.count).dropLast()
            // The arguments that take a number: a set's, a workout's.
            if ["<set>", "<workout>"].contains(argument) && ExactDecimal(given) != nil {
                return "'\(argument)' was given \(given): give a number of 1 or more"
            }
            return "\(given) was read as an option, so '\(argument)' is missing: a name cannot begin with -"
        }
        if message.hasPrefix(valuePrefix), message.hasSuffix("'"),
            let option = message.dropFirst(valuePrefix.count).split(separator: " ").first,
            let index = arguments.firstIndex(of: String(option)), index + 1 < arguments.count,
            isDashed(arguments[index + 1])
        {
            return
                "\(arguments[index + 1]) was read as an option, so \(option) has no value (a value that begins with - "
                + "is given as \(option)=VALUE)"
        }
        return nil
    }

    /// The options whose value is free text, often of several words: an exercise's name, a note.
    static let textOptions: Set<String> = ["--exercise", "--note", "--name", "--routine", "--reason"]

    /// The argument parser reads the second word of an unquoted value (`correct 1 --exercise bench press`) as an
    /// argument of its own, and says only that it did not expect it: the account of what was given instead of
    /// `message`, when the first word it did not expect follows the value of an option that takes text.
    static func wordsAfterAValueGiven(for message: String, in arguments: [String]) -> String? {
        guard message.hasPrefix("Unexpected argument '") || message.contains("unexpected arguments: '"),
            let quote = message.firstIndex(of: "'")
        else { return nil }
        let first = message[message.index(after: quote)...].prefix { $0 != "'" }
        // The option and its value as two words (`--name Leg`), or as one (`--name=Leg`).
        func optionAndValue(before index: Int) -> (option: String, value: String)? {
            if index >= 2, textOptions.contains(arguments[index - 2]), !arguments[index - 1].hasPrefix("-") {
                return (arguments[index - 2], arguments[index - 1])
            }
            guard index >= 1, let equals = arguments[index - 1].firstIndex(of: "="),
                textOptions.contains(String(arguments[index - 1][..<equals]))
            else { return nil }
            return (String(arguments[index - 1][..<equals]), String(arguments[index - 1][equals...].dropFirst()))
        }
        guard
            let index = arguments.indices.first(where: { arguments[$0] == first && optionAndValue(before: $0) != nil }),
            let (option, value) = optionAndValue(before: index)
        else { return nil }
        let words = [value] + arguments[index...].prefix { !$0.hasPrefix("-") }
        return "unexpected \(words.dropFirst().joined(separator: " ").debugDescription) after the value of \(option) "
            + "(if it is part of the value, give that in quotes: \(option) "
            + "\(words.joined(separator: " ").debugDescription))"
    }

    /// Refuses, as the argument parser refuses an unknown option, the first of `words` (a command's arguments taken
    /// whatever they look like, for negative numbers) that is written as an option (`--confrim`, `-r`, but not `-15`)
    /// before a `--` that ends the options: it would be read as part of an exercise's name, a weight or a length.
    static func rejectUnknownOptions(in words: [String]) throws {
        for word in words.prefix(while: { $0 != "--" }) where word.hasPrefix("-") {
            let afterDashes = word.drop(while: { $0 == "-" })
            guard let first = afterDashes.first, !first.isNumber, first != "." else { continue }
            throw ValidationError("Unknown option '\(word)'")
        }
    }

    /// `arguments` with a `--journal DIR` (or `--journal=DIR`) given before the command moved after the command's
    /// names (`liftledger --journal DIR routine show` is `liftledger routine show --journal DIR`): the top-level help
    /// leads with the option, and every command takes it.
    static func journalOptionAfterCommand(_ arguments: [String]) -> [String] {
        let width: Int
        if arguments.first == "--journal", arguments.count > 1 {
            width = 2
        } else if arguments.first?.hasPrefix("--journal=") == true {
            width = 1
        } else {
            return arguments
        }
        var rest = Array(arguments.dropFirst(width))
        var names = commandNameCount(rest)
        // A first word that names no command is taken for a mistyped one, and said to be so.
        if names == 0, let first = rest.first, !first.hasPrefix("-") { names = 1 }
        rest.insert(contentsOf: arguments.prefix(width), at: names)
        return rest
    }

    /// What a first word that names no command is (`histroy`), with the command it comes nearest to when it is a slip
    /// of two edits at most; nil when it names one, or is an option.
    static func unknownCommand(in arguments: [String]) -> String? {
        let names = configuration.subcommands.map { $0._commandName }
        guard let first = arguments.first, !first.hasPrefix("-"), !names.contains(first), first != "help" else {
            return nil
        }
        // A command the word begins (`hist`), else one two edits away at most (`histroy`).
        let distance = { (name: String) in editDistance(Array(first), Array(name)) }
        let nearest =
            names.first { $0.hasPrefix(first) }
            ?? names.min { distance($0) < distance($1) }.flatMap {
                distance($0) <= 2 ? $0 : nil
            }
        return "unknown command '\(first)'" + (nearest.map { " (did you mean \($0)?)" } ?? "")
    }

    /// Whether the word at `index` of `arguments` is the value of the long option before it (`--workout -1`).
    static func isOptionValue(_ index: Int, in arguments: [String]) -> Bool {
        index > 0 && arguments[index - 1].hasPrefix("--")
    }

    /// The command that `arguments` name, as far as they name one: `liftledger routine add`.
    static func commandPath(_ arguments: [String]) -> String {
        ([configuration.commandName ?? "liftledger"] + arguments.prefix(commandNameCount(arguments)))
            .joined(separator: " ")
    }

    /// How many of the first `arguments` name a command and its subcommands (`routine add`: two).
    static func commandNameCount(_ arguments: [String]) -> Int {
        var commands = configuration.subcommands
        var count = 0
        while count < arguments.count, let command = commands.first(where: { $0._commandName == arguments[count] }) {
            count += 1
            commands = command.configuration.subcommands
        }
        return count
    }
}

/// A failure of the command line itself: what went wrong and how to fix it.
struct CLIError: Error, CustomStringConvertible {
    let message: String
    let remedy: String

    var description: String { "\(message); \(remedy)" }
}
