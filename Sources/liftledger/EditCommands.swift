import ArgumentParser
import EventJournal
import Foundation
import Interchange
import Training

struct CorrectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "correct", abstract: "Correct a logged set (the original stays in the journal).")

    @OptionGroup var location: JournalLocation

    @Argument(help: "The set's number in its workout.")
    var set: UInt32

    @Option(parsing: .unconditional, help: "The workout (default: the one in progress, else the last finished one).")
    var workout: String?

    @Option(parsing: .unconditional, help: "The weight, such as 100kg, 225lb, 100 (in the profile's unit) or bw.")
    var weight: String?

    @Option(parsing: .unconditional, help: "The reps.")
    var reps: String?

    @Option(parsing: .unconditional, help: "Rate of perceived exertion, 1 to 10 in half steps.")
    var rpe: String?

    @Option(name: .customLong("type"), help: "The kind of set: normal, warmup, drop or failure.")
    var kind: SetKindChoice?

    @Option(help: "A note on the set; --note \"\" clears it.")
    var note: String?

    @Option(help: "The exercise.")
    var exercise: String?

    @Flag(help: "Accept a weight more than five times the previous one for the exercise, or over 100 reps with one.")
    var confirm = false

    @OptionGroup var timeAndDistance: SetTimeOptions

    @Option(help: ArgumentHelp("Take a value off the set (repeat for more than one).", valueName: "value"))
    var clear: [ClearableChoice] = []

    func validate() throws {
        try requireValues(["--workout": workout, "--weight": weight, "--reps": reps, "--rpe": rpe])
        // Nothing to change is a command line to complete, as for profile set and routine edit.
        let texts = [weight, reps, rpe, note, exercise, timeAndDistance.time, timeAndDistance.distance]
        if texts.allSatisfy({ $0 == nil }) && kind == nil && clear.isEmpty {
            throw ValidationError(
                "nothing to correct; give what changes, such as --reps 6 or --weight 100kg (see --help)")
        }
        let given: [ClearableChoice: Bool] = [
            .rpe: rpe != nil, .time: timeAndDistance.time != nil, .distance: timeAndDistance.distance != nil,
        ]
        if let both = clear.first(where: { given[$0] == true }) {
            throw ValidationError(
                "--\(both.rawValue) and --clear \(both.rawValue) cannot be used together; give a new value or clear it")
        }
    }

    func run() async throws {
        let log = try location.trainingLog()
        var correction = SetCorrection(
            kind: kind?.kind, rpe: try rpe.map(RPEArgument.parse), note: note,
            exercise: try exercise.map(log.exerciseReference), confirmed: confirm)
        if let weight { correction.weight = .some(try WeightArgument.parse(weight, log: log)) }
        if let reps { correction.reps = try SetEntry.reps(reps) }
        correction.durationSeconds = try timeAndDistance.seconds()
        correction.distanceMeters = try timeAndDistance.metres()
        correction.clearing = Set(clear.map(\.value))
        let (id, changed, was, now) = try await log.correctSet(set, in: workout, correction)
        guard changed else {
            Terminal.write("set \(set) of \(id) has that already; nothing was written\n")
            return
        }
        // What it was and is, as `log` shows a set: a slip in the correction is seen at once.
        let (unit, catalog) = try log.query { (try $0.profileFields().unit ?? .kilograms, try $0.catalog()) }
        func shown(_ details: SetDetails) -> String {
            let name = catalog.exercise(id: details.exerciseId)?.name ?? details.exerciseId
            return "\(name) \(TrainingFormat.details(details, unit))"
        }
        Terminal.write("corrected set \(set) of \(id): \(shown(now)) (was \(shown(was)))\n")
    }
}

enum ClearableChoice: String, ExpressibleByArgument, CaseIterable {
    case rpe, time, distance

    var value: ClearableSetValue { ClearableSetValue(rawValue: rawValue)! }
}

enum WeightArgument {
    /// `100kg`, `225 lb`, `100` (in `unit`, else the profile's) or `bw`.
    static func parse(_ text: String, unit: MassUnit? = nil, log: TrainingLog) throws -> Weight? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        for unit in ["kgs", "kg", "lbs", "lb"] where trimmed.lowercased().hasSuffix(unit) {
            let number = trimmed.dropLast(unit.count).trimmingCharacters(in: .whitespaces)
            return try SetEntry.weight(number, unit: MassUnit(parsing: unit)!)
        }
        let unit = try unit ?? log.query { try $0.profileFields().unit } ?? .kilograms
        return try SetEntry.weight(trimmed, unit: unit, explicitUnit: false)
    }
}

struct RemoveSetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove-set", abstract: "Remove a logged set (the original stays in the journal).")

    @OptionGroup var location: JournalLocation

    @Argument(help: "The set's number in its workout.")
    var set: UInt32

    @Option(parsing: .unconditional, help: "The workout (default: the one in progress, else the last finished one).")
    var workout: String?

    func validate() throws { try requireValues(["--workout": workout]) }

    func run() async throws {
        let workout = try await location.trainingLog().removeSet(set, in: workout)
        Terminal.write("removed set \(set) of \(workout)\n")
    }
}

struct RemoveExerciseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove-exercise",
        abstract: "Take an exercise out of a workout (the events stay in the journal).",
        discussion: """
            An exercise with sets is taken out only with --with-sets, which removes its sets too (as remove-set does), \
            and never the last sets of a finished workout: delete the workout instead.
            """)

    @OptionGroup var location: JournalLocation

    @Argument(help: "The exercise.")
    var exercise: [String] = []

    @Option(parsing: .unconditional, help: "The workout (default: the one in progress, else the last finished one).")
    var workout: String?

    @Flag(help: "Take the exercise out with its sets, when it has some.")
    var withSets = false

    func validate() throws {
        try requireValues(["--workout": workout])
        if exercise.isEmpty { throw ValidationError("name the exercise to take out") }
    }

    func run() async throws {
        let log = try location.trainingLog()
        let exercise = try log.exerciseReference(exercise.joined(separator: " "))
        let name = try log.catalogName(exercise)
        let removed = try await log.removeExercise(exercise, in: workout, withSets: withSets)
        let sets = removed.sets == 0 ? "" : " and its \(counted(removed.sets, "set"))"
        Terminal.write("removed \(name)\(sets) from \(removed.workoutId)\n")
    }
}

struct MoveExerciseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "move-exercise", abstract: "Move an exercise of a workout to another place in its order.")

    @OptionGroup var location: JournalLocation

    @Argument(help: "The exercise, then its new place counted from 1: 'bench press 1'.")
    var words: [String] = []

    @Option(parsing: .unconditional, help: "The workout (default: the one in progress, else the last finished one).")
    var workout: String?

    func validate() throws {
        try requireValues(["--workout": workout])
        try ExercisePlaceWords.validate(words, example: "move-exercise bench press 1")
    }

    func run() async throws {
        let log = try location.trainingLog()
        let position = Int(words.last!)!
        let reference = try log.exerciseReference(words.dropLast().joined(separator: " "))
        let (id, moved) = try await log.moveExercise(reference, to: position, in: workout)
        let exercise = try log.catalogName(reference)
        Terminal.write(
            moved
                ? "moved \(exercise) to place \(position) of \(id)\n"
                : "\(exercise) is in place \(position) of \(id) already; nothing was written\n")
    }
}

struct EditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit", abstract: "Edit a finished workout: its date, note or name.")

    @OptionGroup var location: JournalLocation

    @Argument(help: "The workout: its number or id (workout-7).")
    var workout: String

    @Option(
        help: ArgumentHelp(
            "The new start: YYYY-MM-DD (keeps the time of day), 'YYYY-MM-DD HH:MM' in the profile's time zone, or "
                + "RFC 3339. The whole workout moves with it."))
    var date: String?

    @Option(help: "A new note; --note \"\" clears it.")
    var note: String?

    @Option(help: "A new name.")
    var name: String?

    func validate() throws {
        // Nothing to change is a command line to complete, as for profile set and routine edit.
        if date == nil && note == nil && name == nil {
            throw ValidationError("nothing to edit; give --date, --note or --name")
        }
    }

    func run() async throws {
        let log = try location.trainingLog()
        var start: Timestamp?
        if let date {
            let (zone, current) = try log.query { snapshot in
                (
                    snapshot.rules.timeZone,
                    try snapshot.workout(Workout.streamID(reference: workout))
                )
            }
            if let day = LocalDate(date) {
                // The same local time of day, to the microsecond (noon for a workout not found, refused below), read
                // as a local time given in full is: refused where the clocks skip it, its first pass where they pass
                // it twice.
                var calendar = Calendar(identifier: .gregorian)
                calendar.timeZone = zone
                var time = (hour: 12, minute: 0, second: 0, microsecond: Int64(0))
                if let current {
                    let parts = calendar.dateComponents([.hour, .minute, .second], from: current.startedAt.date)
                    time = (
                        parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0,
                        ((current.startedAt.microsecondsSinceEpoch % 1_000_000) + 1_000_000) % 1_000_000
                    )
                }
                let local = String(
                    format: "%04d-%02d-%02d %02d:%02d:%02d", day.year, day.month, day.day, time.hour, time.minute,
                    time.second)
                let whole = try Timestamp.parse(
                    local, in: zone, option: "--date", forms: "YYYY-MM-DD, 'YYYY-MM-DD HH:MM' or an RFC 3339 time")
                let moved = Timestamp(microsecondsSinceEpoch: whole.microsecondsSinceEpoch + time.microsecond)
                // A start in the second pass of the hour the clocks go back over keeps to the second pass where the
                // day has one (its own day: the workout stays where it was).
                let isSecondPass = current.map { zone.firstPass(of: $0.startedAt) != $0.startedAt } ?? false
                let second = zone.secondPass(of: moved)
                start = isSecondPass ? second ?? moved : moved
                // The time comes twice that day: which pass was taken is said, as for a time given in full.
                if let second {
                    TrainingFormat.noteTwice(
                        local, in: zone, taken: isSecondPass ? second : moved, other: isSecondPass ? moved : second,
                        tookSecond: isSecondPass)
                }
            } else {
                start = try Timestamp.parseNotingRepeats(
                    date, in: zone, option: "--date", forms: "YYYY-MM-DD, 'YYYY-MM-DD HH:MM' or an RFC 3339 time")
            }
        }
        let id = Workout.streamID(reference: workout)
        let was = try log.query { try $0.workout(id) }
        let changed = try await log.editWorkout(workout, startedAt: start, note: note, name: name)
        guard changed else {
            Terminal.write("\(id) has that already; nothing was written\n")
            return
        }
        // What changed, from what: a date mistyped (day and month swapped) is seen at once, not when the workout is
        // missing from the history.
        let (zone, now) = try log.query { ($0.rules.timeZone, try $0.workout(id)) }
        var changes: [String] = []
        if let was, let now {
            if now.startedAt != was.startedAt {
                // A local time the clocks pass twice is given with its offset: the two passes read alike without it.
                func shown(_ time: Timestamp) -> String {
                    zone.secondPass(of: zone.firstPass(of: time)) == nil
                        ? TrainingFormat.localTime(time, in: zone) : TrainingFormat.withOffset(time, in: zone)
                }
                changes.append("starts \(shown(now.startedAt)) (was \(shown(was.startedAt)))")
            }
            if now.name != was.name { changes.append("name \(now.name) (was \(was.name))") }
            if now.note != was.note { changes.append(now.note.map { "note \($0)" } ?? "no note") }
        }
        Terminal.write("edited \(id)" + (changes.isEmpty ? "" : ": " + changes.joined(separator: "; ")) + "\n")
    }

}

struct DeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete a finished workout (a tombstone; its events stay in the journal; restore brings it back).")

    @OptionGroup var location: JournalLocation

    @Argument(help: "The workout: its number or id (workout-7).")
    var workout: String

    @Option(help: "Why, for the record.")
    var reason: String?

    func run() async throws {
        try await location.trainingLog().deleteWorkout(workout, reason: reason)
        Terminal.write("deleted \(Workout.streamID(reference: workout))\n")
    }
}

struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore", abstract: "Bring back a deleted workout, or a discarded one with sets.",
        discussion: """
            A deleted workout counts again as it did before, its records with it. A discarded one is finished when \
            finish --at last would have finished it as it was discarded (its last set, or, if later, its last pause's \
            end or its running rest's start or change), and joins the history. As of a time before the restore, the \
            workout is still gone. With no workout given, it lists those it brings back.
            """)

    @OptionGroup var location: JournalLocation

    @Argument(help: "The workout: its number or id (workout-7); none to list the workouts it brings back.")
    var workout: String?

    @Flag(help: "With no workout given: print JSON (fields documented in docs/JSON.md).")
    var json = false

    func validate() throws {
        if json && workout != nil { throw ValidationError("--json goes with the list: leave the workout out") }
    }

    func run() async throws {
        let log = try location.trainingLog()
        guard let workout else {
            let (workouts, zone) = try (log.restorableWorkouts(), log.query { $0.rules.timeZone })
            if json {
                for workout in workouts { Terminal.write(Self.entry(workout, zone).rendered + "\n") }
            } else if workouts.isEmpty {
                Terminal.write("no workout to restore: none is deleted, nor discarded with sets\n")
            } else {
                Terminal.write("workouts restore brings back, the latest first:\n")
                let idWidth = columnWidth(workouts.map(\.id), least: 12)
                for workout in workouts {
                    Terminal.write(
                        padded(TrainingFormat.localTime(workout.startedAt, in: zone), 18) + padded(workout.id, idWidth)
                            + padded(Self.state(workout), 11) + padded(counted(workout.countedSets.count, "set"), 9)
                            + workout.name + "\n")
                }
            }
            return
        }
        let id = Workout.streamID(reference: workout)
        switch try await log.restoreWorkout(workout) {
        case .undeleted:
            Terminal.write("restored \(id): it counts again\n")
        case .finished(let end):
            let zone = try log.query { $0.rules.timeZone }
            let time = TrainingFormat.localTime(end, in: zone)
            Terminal.write("restored \(id): finished at \(time), as finish --at last would have\n")
        }
    }

    /// How the workout went: `deleted` or `discarded`.
    static func state(_ workout: Workout) -> String { workout.isDeleted ? "deleted" : "discarded" }

    static func entry(_ workout: Workout, _ zone: TimeZone) -> JSON {
        .object([
            ("workoutId", .string(workout.id)), ("name", .string(workout.name)),
            ("date", .string(LocalDate(dayNumber: LocalDate.dayNumber(of: workout.startedAt, in: zone)).description)),
            ("startedAt", .string(workout.startedAt.description)), ("state", .string(state(workout))),
            ("sets", .unsigned(UInt64(workout.countedSets.count))),
        ])
    }
}
