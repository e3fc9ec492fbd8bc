import ArgumentParser
import EventJournal
import Foundation
import Interchange
import Training

struct RoutineCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "routine", abstract: "Routines: exercises in order, with target sets, reps and rest.",
        subcommands: [
            RoutineShowCommand.self, RoutineAddCommand.self, RoutineRemoveCommand.self, RoutineMoveCommand.self,
            RoutineDeleteCommand.self,
        ],
        defaultSubcommand: RoutineShowCommand.self)
}

struct RoutineShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one routine, or all.")

    @OptionGroup var location: JournalLocation

    @Argument(help: "The routine (default: all).")
    var routine: String?

    @Flag(help: "Print one JSON object per routine, one per line.")
    var json = false

    func run() async throws {
        var routines = try location.trainingLog().query { try $0.routines() }
        if let routine {
            guard let found = routines.first(where: { $0.id == Routine.id(forName: routine) }) else {
                // `routine edit` and the like reach here too: a word that is no subcommand is taken as a routine.
                throw TrainingError(
                    .notFound, "no routine \"\(routine)\"",
                    remedy: "see them all with liftledger routine show; change one with liftledger routine add, "
                        + "remove, move or delete")
            }
            routines = [found]
        }
        for routine in routines {
            if json {
                let exercises = routine.exercises.map { exercise -> JSON in
                    .object(
                        [("exerciseId", .string(exercise.exerciseId)), ("name", .string(exercise.exerciseName))]
                            + TrainingFormat.targetFields(exercise))
                }
                Terminal.write(
                    JSON.object([
                        ("id", .string(routine.id)), ("name", .string(routine.name)), ("exercises", .array(exercises)),
                    ]).rendered + "\n")
                continue
            }
            Terminal.write("\(routine.name)\n")
            for (index, exercise) in routine.exercises.enumerated() {
                Terminal.write(
                    "  \(index + 1). \(exercise.exerciseName): \(exercise.targetSets) × "
                        + TrainingFormat.repRange(exercise.minimumReps, exercise.maximumReps)
                        + ", rest \(exercise.restSeconds) s\n")
            }
        }
        if routines.isEmpty && !json {
            Terminal.write("no routines; add one with liftledger routine add NAME EXERCISE\n")
        }
    }
}

struct RoutineAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add an exercise to the end of a routine (creating the routine if needed).")

    @OptionGroup var location: JournalLocation

    @Argument(help: "The routine's name.")
    var routine: String

    @Argument(help: "The exercise.")
    var exercise: [String]

    @Option(parsing: .unconditional, help: "Target sets.")
    var sets: UInt32 = 3

    @Option(
        parsing: .unconditional, help: ArgumentHelp("Target reps: a number or a range such as 8-12.", valueName: "reps")
    )
    var reps = "8-12"

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Rest between sets: seconds, or a time as log --time reads one (90, 1:30, 2m), up to an hour.",
            valueName: "time"))
    var rest = "120"

    func validate() throws { try requireValues(["--reps": reps, "--rest": rest]) }

    func run() async throws {
        // Digits alone on each side of at most one hyphen: `5-`, `-5`, `5--8` and `+5` are typing slips, not targets.
        let parts = reps.split(separator: "-", omittingEmptySubsequences: false)
        let bounds = parts.compactMap { UInt32(digits: $0) }
        guard (1...2).contains(bounds.count), bounds.count == parts.count else {
            throw CLIError(
                message: "cannot read reps \(reps.debugDescription)", remedy: "give a number or a range such as 8-12")
        }
        let (fewest, most) = (bounds[0], bounds[bounds.count - 1])
        guard fewest <= most else {
            // Swapped, when that gives reps the targets take (1 to 100).
            let swaps = (1...100).contains(fewest) && (1...100).contains(most)
            throw CLIError(
                message: "reps \(reps.debugDescription) run from more to fewer",
                remedy: swaps
                    ? "give the fewer first: --reps \(most)-\(fewest)" : "give reps from 1 to 100, such as 8-12")
        }
        guard let restSeconds = try? TimeAndDistance.seconds(rest) else {
            throw CLIError(
                message: "cannot read --rest \(rest.debugDescription)",
                remedy: "give 1 to 3600 seconds or a time up to an hour, such as 90, 1:30 or 2m")
        }
        let log = try location.trainingLog()
        let name = try await log.addToRoutine(
            routine, exercise: try log.exerciseReference(exercise.joined(separator: " ")), sets: sets,
            reps: fewest...most, restSeconds: restSeconds)
        Terminal.write("added to \(name)\n")
    }
}

struct RoutineRemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Remove an exercise from a routine.")

    @OptionGroup var location: JournalLocation

    @Argument(help: "The routine's name.")
    var routine: String

    @Argument(help: "The exercise.")
    var exercise: [String]

    func run() async throws {
        let log = try location.trainingLog()
        let name = try await log.removeFromRoutine(
            routine, exercise: try log.exerciseReference(exercise.joined(separator: " ")))
        Terminal.write("removed from \(name)\n")
    }
}

struct RoutineMoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "move", abstract: "Move an exercise of a routine to another place.")

    @OptionGroup var location: JournalLocation

    @Argument(help: "The routine's name.")
    var routine: String

    @Argument(help: "The exercise, then its new place counted from 1: 'bench press 1'.")
    var words: [String] = []

    func validate() throws {
        try ExercisePlaceWords.validate(
            words, example: "routine move \(Shell.word(routine)) bench press 1")
    }

    func run() async throws {
        let log = try location.trainingLog()
        let position = Int(words.last!)!
        let exercise = try log.exerciseReference(words.dropLast().joined(separator: " "))
        let (name, moved) = try await log.moveInRoutine(routine, exercise: exercise, to: position)
        Terminal.write(
            moved
                ? "moved in \(name)\n"
                : "\(try log.catalogName(exercise)) is in place \(position) of \(name) already; nothing was written\n")
    }
}

struct RoutineDeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete a routine: every exercise taken out of it (workouts done from it keep its name).",
        discussion: "A routine added again with 'routine add' starts empty.")

    @OptionGroup var location: JournalLocation

    @Argument(help: "The routine's name.")
    var routine: String

    func run() async throws {
        let log = try location.trainingLog()
        let (name, exercises) = try await log.deleteRoutine(routine)
        Terminal.write("deleted \(name) (\(exercises) exercise\(exercises == 1 ? "" : "s") taken out)\n")
        // A schedule that names it leaves its days without a routine: `today` offers to make it again then.
        let id = Routine.id(forName: name)
        let scheduled = try log.query { snapshot in
            try snapshot.schedule().event.days.contains { !$0.isEmpty && Routine.id(forName: $0) == id }
        }
        if scheduled {
            Terminal.write(
                "note: the schedule still names \(name); change it with liftledger schedule set, or add the routine "
                    + "again with liftledger routine add\n")
        }
    }
}

struct ScheduleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schedule", abstract: "The training schedule: a weekday plan or an N-day split.",
        subcommands: [ScheduleShowCommand.self, ScheduleSetCommand.self], defaultSubcommand: ScheduleShowCommand.self)
}

struct ScheduleSetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set", abstract: "Replace the schedule.",
        discussion: """
            --weekdays takes seven comma-separated days, Monday first (for example \
            Legs,Push,Pull,Legs,Push,Pull,rest). --split takes N days that repeat, one per calendar day, starting \
            on --start (default today). The schedule is in force from today: days before keep the plan they had.
            """)

    @OptionGroup var location: JournalLocation

    @Option(help: "Seven routines (or 'rest'), Monday first, comma-separated.")
    var weekdays: String?

    @Option(help: "Routines (or 'rest') that repeat, comma-separated.")
    var split: String?

    @Option(help: "The date of day 1 of a split: YYYY-MM-DD (default today).")
    var start: String?

    func validate() throws {
        guard (weekdays == nil) != (split == nil) else {
            throw ValidationError("give either --weekdays or --split")
        }
        if weekdays != nil && start != nil {
            throw ValidationError("--start is the first day of a --split; a --weekdays plan has none")
        }
    }

    func run() async throws {
        let log = try location.trainingLog()
        func days(_ text: String, option: String) throws -> [String?] {
            try text.split(separator: ",", omittingEmptySubsequences: false).enumerated().map { index, entry in
                let day = entry.trimmingCharacters(in: .whitespaces)
                guard !day.isEmpty else {
                    throw CLIError(
                        message: "day \(index + 1) of \(option) is empty",
                        remedy: "name a routine for each day, or write rest for a rest day")
                }
                return day.lowercased() == "rest" ? nil : day
            }
        }
        let plan: Schedule.Plan
        if let weekdays {
            let list = try days(weekdays, option: "--weekdays")
            guard list.count == 7 else {
                throw CLIError(
                    message: "--weekdays has \(list.count) days",
                    remedy: "give seven, Monday first, such as Legs,Push,Pull,Legs,Push,Pull,rest")
            }
            plan = .weekdays(list)
        } else {
            let list = try days(split!, option: "--split")
            let zone = try log.query { $0.rules.timeZone }
            guard let first = start.map({ LocalDate($0) }) ?? LocalDate(Date(), in: zone) else {
                throw CLIError(message: "cannot read --start \(start!.debugDescription)", remedy: "give YYYY-MM-DD")
            }
            plan = .split(list, start: first)
        }
        try await log.setSchedule(Schedule(plan))
        Terminal.write("schedule set\n")
        // Routines it names that do not exist yet, which `today` then offers to create on their days: said once here.
        let named: [String?]
        switch plan {
        case .weekdays(let days): named = days
        case .split(let days, _): named = days
        }
        var seen: Set<String> = []
        let missing = try log.query { snapshot in
            try named.compactMap { $0 }.filter { name in
                guard seen.insert(name).inserted else { return false }
                return try snapshot.routine(named: name) == nil
            }
        }
        for name in missing {
            Terminal.write(
                "note: no routine \(name.debugDescription) yet; create it with liftledger routine add "
                    + "\(Shell.word(name)) EXERCISE\n")
        }
    }
}

struct ScheduleShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show the next seven days' plan.")

    @OptionGroup var location: JournalLocation

    @Flag(help: "Print JSON.")
    var json = false

    func run() async throws {
        let (zone, schedule) = try location.trainingLog().query { ($0.rules.timeZone, try $0.schedule()) }
        let today = LocalDate(Date(), in: zone)
        let week = (0..<7).map { LocalDate(dayNumber: today.dayNumber + $0) }
        if json {
            let kind: String
            switch schedule.plan {
            case .weekdays: kind = "weekdays"
            case .split: kind = "split"
            }
            Terminal.write(
                JSON.object([
                    ("kind", .string(kind)), ("default", .bool(!schedule.isRecorded)),
                    (
                        "days",
                        .array(
                            week.map { day in
                                .object([
                                    ("date", .string(day.description)), ("weekday", .string(day.weekdayName)),
                                    ("routine", schedule.due(on: day).map(JSON.string) ?? .null),
                                ])
                            })
                    ),
                ]).rendered + "\n")
            return
        }
        if !schedule.isRecorded {
            Terminal.write("(the default Push/Pull/Legs plan; change it with liftledger schedule set)\n")
        }
        for day in week {
            Terminal.write(
                "\(day) \(day.weekdayName.padding(toLength: 10, withPad: " ", startingAt: 0)) \(schedule.due(on: day) ?? "rest")\n"
            )
        }
    }
}

struct TodayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "today", abstract: "Say which routine is due today.")

    @OptionGroup var location: JournalLocation

    @Option(help: "Another day, YYYY-MM-DD: the routine the schedule in force that day names.")
    var date: String?

    @Flag(help: "Print JSON.")
    var json = false

    func run() async throws {
        // The schedule in force that day, as the streak reads it: a past day's may not be today's.
        let (day, schedule, routines) = try location.trainingLog().query { snapshot in
            guard let day = date.map({ LocalDate($0) }) ?? LocalDate(Date(), in: snapshot.rules.timeZone) else {
                throw CLIError(message: "cannot read --date \(date!.debugDescription)", remedy: "give YYYY-MM-DD")
            }
            return (day, try snapshot.schedule(on: day), try snapshot.routines())
        }
        let due = schedule.due(on: day)
        if json {
            Terminal.write(
                JSON.object([
                    ("date", .string(day.description)), ("weekday", .string(day.weekdayName)),
                    ("routine", due.map(JSON.string) ?? .null), ("rest", .bool(due == nil)),
                ]).rendered + "\n")
        } else if let due {
            let known = routines.contains { $0.id == Routine.id(forName: due) }
            // A name an older version took that begins with -, after `--`, so that it is not read as an option.
            let word = (due.hasPrefix("-") ? "-- " : "") + Shell.word(due)
            Terminal.write(
                "\(day.weekdayName) \(day): \(due)"
                    + (known
                        ? "; start it with liftledger start \(word)\n"
                        : " (no such routine yet; create it with liftledger routine add \(word) "
                            + "EXERCISE)\n"))
        } else {
            Terminal.write("\(day.weekdayName) \(day): rest day\n")
        }
    }
}
