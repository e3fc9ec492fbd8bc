import ArgumentParser
import EventJournal
import Foundation
import Interchange
import Training

struct HistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history", abstract: "List finished workouts, oldest first.",
        discussion: "Deleted and discarded workouts are left out. Volume follows the rule volume.warmups.")

    @OptionGroup var location: JournalLocation
    @OptionGroup var asOf: AsOfOption
    @OptionGroup var output: OutputOptions

    @Option(help: ArgumentHelp("The first local date (YYYY-MM-DD).", valueName: "date"))
    var from: String?

    @Option(help: ArgumentHelp("The last local date (YYYY-MM-DD).", valueName: "date"))
    var to: String?

    @Option(help: "Only workouts with this exercise.")
    var exercise: String?

    @Option(help: "Only workouts that followed this routine.")
    var routine: String?

    @Option(parsing: .unconditional, help: "Only the last N workouts (1 or more).")
    var last: Int?

    func validate() throws {
        if let last, last < 1 { throw ValidationError("--last takes 1 or more workouts") }
    }

    func run() async throws {
        let from = try from.map { try DateArgument.parse($0, option: "--from") }
        let to = try to.map { try DateArgument.parse($0, option: "--to") }
        if let from, let to, to < from {
            throw CLIError(message: "--from \(from) is after --to \(to)", remedy: "give --from on or before --to")
        }
        try location.query(asOf: asOf) { context in
            // A deleted routine's workouts are still found by it.
            let found = try routine.flatMap { try context.snapshot.routine(named: $0, includingDeleted: true) }
            if let routine, found == nil {
                let known = try context.snapshot.routines().map(\.name)
                throw CLIError(
                    message: "no routine \(routine.debugDescription)",
                    remedy: known.isEmpty
                        ? "there are no routines yet" : "the routines are: \(known.joined(separator: ", "))")
            }
            let exercise = try exercise.map { try context.exercise($0) }
            let filter = HistoryFilter(from: from, to: to, exerciseId: exercise?.id, routineId: found?.id)
            var workouts = try context.snapshot.history(filter)
            if let last { workouts = Array(workouts.suffix(last)) }
            if output.json {
                for workout in workouts { Terminal.write(Self.json(workout, context).rendered + "\n") }
            } else if output.csv {
                Terminal.write(
                    CSV.line([
                        "date", "workout", "name", "duration_seconds", "sets", "working_sets", "volume_kg",
                        "routine_id", "exercises",
                    ]))
                for workout in workouts {
                    Terminal.write(
                        CSV.line([
                            context.date(workout.startedAt).description, workout.workoutId, workout.name,
                            String(workout.durationSeconds), String(workout.sets), String(workout.workingSets),
                            kilograms(workout.volume), workout.routineId ?? "",
                            // In workout order, as the table lists them (for the ids, see --json).
                            workout.exercises.map(\.name).joined(separator: "; "),
                        ]))
                }
            } else if workouts.isEmpty {
                // What the filters asked for, so that an empty answer is not read as an empty history.
                var asked = ""
                if let exercise { asked += " with \(exercise.name)" }
                if let found { asked += " of routine \(found.name)" }
                if let from { asked += " from \(from)" }
                if let to { asked += " to \(to)" }
                Terminal.write("no finished workouts\(asked)\n")
            } else {
                // As wide as the longest id and name (`workout-10000` and on took the column's last space; a name
                // past 17 columns moved the columns after it), a name past 32 columns cut.
                let idWidth = columnWidth(workouts.map(\.workoutId), least: 12)
                let nameWidth = columnWidth(workouts.map(\.name), least: 18, most: 34)
                Terminal.write(
                    padded("date", 12) + padded("workout", idWidth) + padded("name", nameWidth) + padded("time", 12)
                        + padded("sets", 6) + padded("volume \(context.unit.rawValue)", 11) + "exercises\n")
                for workout in workouts {
                    Terminal.write(
                        padded(context.date(workout.startedAt).description, 12) + padded(workout.workoutId, idWidth)
                            + padded(fitted(workout.name, nameWidth - 2), nameWidth)
                            + padded(TrainingFormat.workoutDuration(workout), 12)
                            + padded(String(workout.sets), 6) + padded(context.mass(workout.volume), 11)
                            + workout.exercises.map(\.name).joined(separator: ", ") + "\n")
                }
            }
        }
    }

    static func json(_ workout: WorkoutSummary, _ context: QueryContext) -> JSON {
        .object([
            ("workoutId", .string(workout.workoutId)),
            ("name", .string(workout.name)),
            ("routineId", workout.routineId.map(JSON.string) ?? .null),
            ("date", .string(context.date(workout.startedAt).description)),
            ("startedAt", .string(workout.startedAt.description)),
            ("finishedAt", .string(workout.finishedAt.description)),
            ("durationSeconds", .integer(workout.durationSeconds)),
            ("note", workout.note.map(JSON.string) ?? .null),
            ("sets", .unsigned(UInt64(workout.sets))),
            ("workingSets", .unsigned(UInt64(workout.workingSets))),
            ("volumeKilograms", .string(kilograms(workout.volume))),
            ("implausibleSets", .unsigned(UInt64(workout.implausibleSets))),
            (
                "exercises",
                .array(
                    workout.exercises.map { line in
                        .object([
                            ("exerciseId", .string(line.exerciseId)), ("name", .string(line.name)),
                            ("sets", .unsigned(UInt64(line.sets))), ("reps", .unsigned(UInt64(line.reps))),
                            ("volumeKilograms", .string(kilograms(line.volume))),
                        ])
                    })
            ),
            ("finishedPosition", .unsigned(workout.finishedPosition)),
        ])
    }
}

struct ShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show one workout: its sets, in order, and what they add up to.")

    @OptionGroup var location: JournalLocation
    @OptionGroup var asOf: AsOfOption

    @Argument(help: "The workout: its number (7) or stream (workout-7).")
    var workout: String

    @Flag(help: "Print JSON (fields documented in docs/JSON.md).")
    var json = false

    func run() async throws {
        let id = Workout.streamID(reference: workout)
        let notFound = TrainingError(
            .notFound, "no workout \(workout)", remedy: "see the workouts with liftledger history")
        do {
            try show(id, notFound: notFound)
        } catch let error as TrainingError where error.description == notFound.description {
            // As of a past point, the workouts started by then: not this one yet, maybe, though it is there now.
            guard let then = asOf.asOf, try location.trainingLog().query({ try $0.workout(id) }) != nil else {
                throw error
            }
            throw TrainingError(
                .notFound, "there was no workout \(workout) as of \(then)",
                remedy: "give a later --as-of, or leave it out to see it as it is now")
        }
    }

    /// Shows the workout `id` as of `--as-of`, or throws `notFound`.
    private func show(_ id: String, notFound: TrainingError) throws {
        try location.query(asOf: asOf) { context in
            guard let workout = try context.snapshot.workout(id) else { throw notFound }
            let status: String
            switch workout.status {
            case .active: status = "active"
            case .finished: status = "finished"
            case .discarded: status = "discarded"
            }
            let shown = workout.isDeleted ? "deleted" : status
            let summary = try context.snapshot.summary(of: workout)
            if json {
                var members: [(String, JSON)] = [
                    ("workoutId", .string(workout.id)), ("name", .string(workout.name)),
                    ("status", .string(shown)), ("startedAt", .string(workout.startedAt.description)),
                    ("finishedAt", workout.finishedAt.map { .string($0.description) } ?? .null),
                    ("note", workout.note.map(JSON.string) ?? .null),
                    (
                        "exercises",
                        .array(
                            workout.exercises.map { exercise in
                                .object([
                                    ("exerciseId", .string(exercise.exerciseId)), ("name", .string(exercise.name)),
                                    (
                                        "sets",
                                        .array(
                                            workout.countedSets.filter { $0.details.exerciseId == exercise.exerciseId }
                                                .map(TrainingFormat.json))
                                    ),
                                ])
                            })
                    ),
                ]
                members.append(("summary", summary.map { HistoryCommand.json($0, context) } ?? .null))
                Terminal.write(JSON.object(members).rendered + "\n")
                return
            }
            var lines = [
                "\(workout.name) (\(workout.id)), \(shown), "
                    + "\(TrainingFormat.localTime(workout.startedAt, in: context.timeZone))"
            ]
            if let summary {
                // A workout with no time trained (of an export of dates alone) is shown without one.
                let time =
                    summary.hasNoTimeTrained ? "" : TrainingFormat.duration(seconds: summary.durationSeconds) + ", "
                lines.append(
                    "\(time)\(summary.sets) set\(summary.sets == 1 ? "" : "s"), "
                        + "\(context.mass(summary.volume)) \(context.unit.rawValue) volume")
            }
            if let note = workout.note { lines.append("note: \(note)") }
            for exercise in workout.exercises {
                let sets = workout.countedSets.filter { $0.details.exerciseId == exercise.exerciseId }
                // A finished workout shows what was done, as `history` does: not a routine's exercise left out, nor
                // one whose sets were removed or moved (its JSON still lists it, with no sets).
                if sets.isEmpty && !workout.isActive { continue }
                lines.append(exercise.name)
                // A set kept out of the figures above is marked: its line alone would not tell why they leave it out.
                let mark =
                    context.snapshot.rules.excludeImplausible
                    ? "  (implausible: kept out of records and volume)" : "  (implausible)"
                lines += sets.map { set in
                    "  " + TrainingFormat.set(set, context.unit)
                        + (workout.isImplausible(set, timeZone: context.timeZone) ? mark : "")
                }
            }
            Terminal.write(lines.joined(separator: "\n") + "\n")
        }
    }
}

struct CalendarCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calendar", abstract: "Show the days trained in a month (local days).")

    @OptionGroup var location: JournalLocation
    @OptionGroup var asOf: AsOfOption
    @OptionGroup var output: OutputOptions

    @Argument(help: ArgumentHelp("The month, YYYY-MM (default: this month).", valueName: "month"))
    var month: String?

    func run() async throws {
        try location.query(asOf: asOf) { context in
            let first: LocalDate
            if let month {
                guard let date = LocalDate(month + "-01") else {
                    throw CLIError(message: "cannot read the month \(month.debugDescription)", remedy: "give YYYY-MM")
                }
                first = date
            } else {
                first = LocalDate(dayNumber: context.today.dayNumber - context.today.day + 1)
            }
            let length = LocalDate.days(inMonth: first.month, year: first.year)
            let days = try context.snapshot.trainingDays()
            let trained = (0..<length).map { first.dayNumber + $0 }.filter { days[$0] != nil }
            let label = String(first.description.prefix(7))
            if output.json {
                Terminal.write(
                    JSON.object([
                        ("month", .string(label)),
                        (
                            "days",
                            .array(
                                trained.map { day in
                                    .object([
                                        ("date", .string(LocalDate(dayNumber: day).description)),
                                        ("workouts", .integer(Int64(days[day]!))),
                                    ])
                                })
                        ),
                    ]).rendered + "\n")
            } else if output.csv {
                Terminal.write(CSV.line(["date", "workouts"]))
                for day in trained {
                    Terminal.write(CSV.line([LocalDate(dayNumber: day).description, String(days[day]!)]))
                }
            } else {
                // Weeks as the rules start them (week.start). A day takes four columns, its mark the last, so that
                // the mark never meets the next day's number (`25*26` read as one).
                let weekStart = context.snapshot.rules.weekStart
                var lines = [
                    (0..<7).map { " " + LocalDate.weekdayNames[(weekStart + $0) % 7].prefix(2) + " " }.joined()
                ]
                var line = String(repeating: "    ", count: (first.weekdayIndex - weekStart + 7) % 7)
                for offset in 0..<length {
                    let day = first.dayNumber + offset
                    let number = String(offset + 1)
                    line += (number.count == 1 ? "  " : " ") + number + (days[day] != nil ? "*" : " ")
                    if LocalDate(dayNumber: day).weekdayIndex == (weekStart + 6) % 7 || offset == length - 1 {
                        lines.append(line)
                        line = ""
                    }
                }
                let trimmed = lines.map { String($0.reversed().drop { $0 == " " }.reversed()) }
                Terminal.write(
                    "\(label): \(counted(trained.count, "day")) trained\n" + trimmed.joined(separator: "\n")
                        + "\n* trained\n")
            }
        }
    }
}
