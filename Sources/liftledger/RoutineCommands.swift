import ArgumentParser
import EventJournal
import Foundation
import Interchange
import Training

struct RoutineCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "routine", abstract: "Routines: exercises in order, with target sets, reps and rest.",
        subcommands: [
            RoutineShowCommand.self, RoutineAddCommand.self, RoutineEditCommand.self, RoutineRemoveCommand.self,
            RoutineMoveCommand.self, RoutineDeleteCommand.self,
        ],
        defaultSubcommand: RoutineShowCommand.self)
}

struct RoutineShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one routine, or all.")

    @OptionGroup var location: JournalLocation

    @Argument(help: "The routine (default: all).")
    var words: [String] = []

    @Flag(help: "Print one JSON object per routine, one per line.")
    var json = false

    func run() async throws {
        let routines = try location.trainingLog().query { snapshot in
            guard !words.isEmpty else { return try snapshot.routines() }
            guard let found = try snapshot.routine(named: words.joined(separator: " ")) else {
                throw Self.noRoutine(words)
            }
            return [found]
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

extension RoutineShowCommand {
    /// The refusal of words that name no routine. `routine` runs `show` when its first word is no subcommand, so a
    /// subcommand mistyped (`routine remvoe Push dips`) reaches here too, when `show` is not typed: a word a letter from
    /// a subcommand's name (two, past four letters) is pointed to it.
    static func noRoutine(_ words: [String]) -> TrainingError {
        let names = RoutineCommand.configuration.subcommands.map { $0.configuration.commandName! }
        let first = Array(words[0].lowercased())
        let arguments = CommandLine.arguments
        let showTyped = zip(arguments, arguments.dropFirst()).contains { $0 == ("routine", "show") }
        if !showTyped, first.count > 2,
            let meant = names.min(by: { editDistance(first, Array($0)) < editDistance(first, Array($1)) }),
            editDistance(first, Array(meant)) <= (first.count > 4 ? 2 : 1)
        {
            let rest = words.dropFirst().map(Shell.word).joined(separator: " ")
            return TrainingError(
                .notFound, "no routine \"\(words.joined(separator: " "))\"",
                remedy: "did you mean liftledger routine \(meant)\(rest.isEmpty ? "" : " " + rest)?")
        }
        return TrainingError(
            .notFound, "no routine \"\(words.joined(separator: " "))\"",
            remedy: "see them all with liftledger routine show; change one with liftledger routine add, edit, remove, "
                + "move or delete")
    }
}

/// A routine's targets as `routine add` and `routine edit` read them.
enum RoutineTargets {
    static let repsHelp = ArgumentHelp("Target reps: a number or a range such as 8-12.", valueName: "reps")
    static let restHelp = ArgumentHelp(
        "Rest between sets: seconds, or a time as log --time reads one (90, 1:30, 2m), up to an hour.",
        valueName: "time")

    /// `--reps`: a number or a range such as 8-12.
    static func reps(_ text: String) throws -> ClosedRange<UInt32> {
        // Digits alone on each side of at most one hyphen: `5-`, `-5`, `5--8` and `+5` are typing slips, not targets.
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        let bounds = parts.compactMap { UInt32(digits: $0) }
        guard (1...2).contains(bounds.count), bounds.count == parts.count else {
            if let (sets, reps) = setsTimesReps(text) {
                throw CLIError(
                    message: "--reps \(text.debugDescription) gives sets as well as reps",
                    remedy: "give them apart: --sets \(sets) --reps \(reps)")
            }
            throw CLIError(
                message: "cannot read reps \(text.debugDescription)", remedy: "give a number or a range such as 8-12")
        }
        let (fewest, most) = (bounds[0], bounds[bounds.count - 1])
        guard fewest <= most else {
            // Swapped, when that gives reps the targets take (1 to 100).
            let swaps = (1...100).contains(fewest) && (1...100).contains(most)
            throw CLIError(
                message: "reps \(text.debugDescription) run from more to fewer",
                remedy: swaps
                    ? "give the fewer first: --reps \(most)-\(fewest)" : "give reps from 1 to 100, such as 8-12")
        }
        return fewest...most
    }

    /// `--rest`: seconds, or a time as `log --time` reads one.
    static func restSeconds(_ text: String) throws -> UInt32 {
        let remedy = "give 1 to 3600 seconds or a time up to an hour, such as 90, 1:30 or 2m"
        // Read as seconds, but none, or more than an hour: said so, not that it cannot be read.
        let plain = text.trimmingCharacters(in: .whitespaces)
        if plain.allSatisfy(\.isASCII), let seconds = UInt64(plain), seconds == 0 || seconds > 3_600 {
            throw CLIError(
                message: "--rest \(text.debugDescription) is \(seconds == 0 ? "no rest" : "more than an hour")",
                remedy: remedy)
        }
        guard let seconds = try? TimeAndDistance.seconds(text) else {
            throw CLIError(message: "cannot read --rest \(text.debugDescription)", remedy: remedy)
        }
        return seconds
    }

    /// `3x5`, `3 × 8-12`: sets times reps, as a lifter writes targets, and the two read apart.
    static func setsTimesReps(_ text: String) -> (sets: String, reps: String)? {
        guard let match = text.wholeMatch(of: /\s*(\d{1,3})\s*[xX×*]\s*(\d{1,3}(?:-\d{1,3})?)\s*/) else { return nil }
        return (String(match.1), String(match.2))
    }

    /// Refuses an exercise whose last word is targets (`routine add Push bench press 3x5`), with the options that
    /// give them; not one whose name ends so (a custom `Squat 5x5`), which `catalog` knows.
    static func refuseTargetsAmong(_ exercise: [String], command: String, catalog: ExerciseCatalog) throws {
        guard exercise.count > 1, let (sets, reps) = setsTimesReps(exercise.last!),
            catalog.lookup(exercise.joined(separator: " ")) == nil
        else { return }
        let name = exercise.dropLast().joined(separator: " ")
        throw CLIError(
            message: "\(exercise.last!.debugDescription) reads as sets × reps, not as part of the exercise",
            remedy:
                "give them as options: liftledger routine \(command) \(Shell.word(name)) --sets \(sets) --reps \(reps)")
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

    @Option(parsing: .unconditional, help: "Target sets, 1 to 20.")
    var sets: UInt32 = 3

    @Option(parsing: .unconditional, help: RoutineTargets.repsHelp)
    var reps = "8-12"

    @Option(parsing: .unconditional, help: RoutineTargets.restHelp)
    var rest = "120"

    func validate() throws { try requireValues(["--reps": reps, "--rest": rest]) }

    func run() async throws {
        let log = try location.trainingLog()
        try RoutineTargets.refuseTargetsAmong(
            exercise, command: "add \(Shell.word(routine))", catalog: try log.query { try $0.catalog() })
        let reps = try RoutineTargets.reps(reps)
        let restSeconds = try RoutineTargets.restSeconds(rest)
        let (name, added, created) = try await log.addToRoutine(
            routine, exercise: try log.exerciseReference(exercise.joined(separator: " ")), sets: sets, reps: reps,
            restSeconds: restSeconds)
        // A routine made by a name mistyped is seen at once, and so is the exercise a name was taken for.
        Terminal.write(created ? "created routine \(name) with \(added)\n" : "added \(added) to \(name)\n")
    }
}

struct RoutineEditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit", abstract: "Change an exercise's targets in a routine, keeping its place.")

    @OptionGroup var location: JournalLocation

    @Argument(help: "The routine's name.")
    var routine: String

    @Argument(help: "The exercise.")
    var exercise: [String]

    @Option(parsing: .unconditional, help: "Target sets, 1 to 20.")
    var sets: UInt32?

    @Option(parsing: .unconditional, help: RoutineTargets.repsHelp)
    var reps: String?

    @Option(parsing: .unconditional, help: RoutineTargets.restHelp)
    var rest: String?

    func validate() throws {
        guard sets != nil || reps != nil || rest != nil else {
            throw ValidationError("nothing to change; give --sets, --reps or --rest")
        }
        try requireValues(["--reps": reps, "--rest": rest])
    }

    func run() async throws {
        let log = try location.trainingLog()
        try RoutineTargets.refuseTargetsAmong(
            exercise, command: "edit \(Shell.word(routine))", catalog: try log.query { try $0.catalog() })
        let reps = try reps.map(RoutineTargets.reps)
        let restSeconds = try rest.map(RoutineTargets.restSeconds)
        let exerciseReference = try log.exerciseReference(exercise.joined(separator: " "))
        let (name, changed) = try await log.editRoutineExercise(
            routine, exercise: exerciseReference, sets: sets, reps: reps, restSeconds: restSeconds)
        let exerciseName = try log.catalogName(exerciseReference)
        Terminal.write(
            changed
                ? "changed \(exerciseName) in \(name)\n"
                : "\(exerciseName) has these targets in \(name) already; nothing was written\n")
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
        let exerciseReference = try log.exerciseReference(exercise.joined(separator: " "))
        let (name, left) = try await log.removeFromRoutine(routine, exercise: exerciseReference)
        Terminal.write("removed \(try log.catalogName(exerciseReference)) from \(name)\n")
        // A routine of no exercises is gone, as one deleted is: said, rather than found out at the next start.
        guard left == 0 else { return }
        Terminal.write("\(name) has no exercises left, so it is gone; routine add makes it again\n")
        try RoutineDeleteCommand.noteScheduleNaming(name, log)
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
        let exerciseName = try log.catalogName(exercise)
        Terminal.write(
            moved
                ? "moved \(exerciseName) to place \(position) of \(name)\n"
                : "\(exerciseName) is in place \(position) of \(name) already; nothing was written\n")
    }
}

struct RoutineDeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete a routine: every exercise taken out of it (workouts done from it keep its name).",
        discussion: "Added to again with 'routine add', it has only the exercises added since.")

    @OptionGroup var location: JournalLocation

    @Argument(help: "The routine's name.")
    var routine: String

    func run() async throws {
        let log = try location.trainingLog()
        let (name, exercises) = try await log.deleteRoutine(routine)
        Terminal.write("deleted \(name) (\(exercises) exercise\(exercises == 1 ? "" : "s") taken out)\n")
        try Self.noteScheduleNaming(name, log)
    }

    /// Notes that the schedule names a routine that is gone: its days are left without one, and `today` offers to make
    /// it again then.
    static func noteScheduleNaming(_ name: String, _ log: TrainingLog) throws {
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
            on --start (default today). The schedule is in force from today: days before keep the plan they had. \
            The schedule in force given again writes nothing.
            """)

    @OptionGroup var location: JournalLocation

    @Option(help: "Seven routines (or 'rest'), Monday first, comma-separated.")
    var weekdays: String?

    @Option(help: "Routines (or 'rest') that repeat, comma-separated.")
    var split: String?

    @Option(
        help: ArgumentHelp(
            "The date of day 1 of a split: YYYY-MM-DD (default: today, or the day 1 of the split in force when it "
                + "has the same days)."))
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
            let (zone, inForce) = try log.query { ($0.rules.timeZone, try $0.schedule()) }
            // The split in force given again keeps its day 1: a day 1 moved to today is given with --start.
            var keptStart: LocalDate?
            if start == nil, inForce.isRecorded, case .split(list, let start) = inForce.plan { keptStart = start }
            let first =
                try start.map { try DateArgument.parse($0, option: "--start") } ?? keptStart
                ?? LocalDate(Date(), in: zone)
            plan = .split(list, start: first)
        }
        guard try await log.setSchedule(Schedule(plan)) else {
            Terminal.write("this schedule is in force already; nothing was written\n")
            return
        }
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
                "note: no routine \"\(name)\" yet; create it with liftledger routine add "
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
        let (day, today, due, routine, trained, active) = try location.trainingLog().query { snapshot in
            let today = LocalDate(Date(), in: snapshot.rules.timeZone)
            let day = try date.map { try DateArgument.parse($0, option: "--date") } ?? today
            let due = try snapshot.schedule(on: day).due(on: day)
            return (
                day, today, due, try due.flatMap { try snapshot.routine(named: $0) },
                try snapshot.history(HistoryFilter(from: day, to: day)), try snapshot.activeWorkout()
            )
        }
        let known = routine != nil
        // A routine due and done already: the day's workout of it, not "start it".
        let done = routine.flatMap { routine in trained.first { $0.routineId == routine.id } }
        // The day's other workouts, done instead or besides: a past day's were left out.
        let others = trained.filter { $0.workoutId != done?.workoutId }.map { "\($0.workoutId) (\($0.name))" }
        let besides = others.isEmpty ? "" : "; trained \(others.joined(separator: ", "))"
        if json {
            Terminal.write(
                JSON.object([
                    ("date", .string(day.description)), ("weekday", .string(day.weekdayName)),
                    ("routine", due.map(JSON.string) ?? .null), ("rest", .bool(due == nil)),
                    ("workouts", .array(trained.map { .string($0.workoutId) })),
                ]).rendered + "\n")
        } else if let due, let done {
            Terminal.write("\(day.weekdayName) \(day): \(due); done (\(done.workoutId))\(besides)\n")
        } else if let due, day < today {
            // Past: not to be started now.
            Terminal.write("\(day.weekdayName) \(day): \(due); not done\(besides)\n")
        } else if let due {
            // A name an older version took that begins with -, after `--`, so that it is not read as an option.
            let word = (due.hasPrefix("-") ? "-- " : "") + Shell.word(due)
            let hint: String
            if !known {
                hint =
                    " (no such routine yet; create it with liftledger routine add \(word) EXERCISE)"
                    + (day == today ? active.map { "; \($0.id) (\($0.name)) is in progress" } ?? "" : "")
            } else if day > today {
                // A day still to come: a workout started now would be today's.
                hint = ""
            } else if let active, active.routineId == routine?.id {
                hint = "; in progress (\(active.id))"
            } else if let active {
                // Another workout in progress, which a second start would be refused beside.
                hint = "; \(active.id) (\(active.name)) is in progress: finish it, then liftledger start \(word)"
            } else {
                hint = "; start it with liftledger start \(word)"
            }
            Terminal.write("\(day.weekdayName) \(day): \(due)\(known ? besides + hint : hint + besides)\n")
        } else {
            let inProgress = day == today ? active.map { "; \($0.id) (\($0.name)) is in progress" } ?? "" : ""
            Terminal.write("\(day.weekdayName) \(day): rest day\(besides)\(inProgress)\n")
        }
    }
}
