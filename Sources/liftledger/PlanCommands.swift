import ArgumentParser
import EventJournal
import Foundation
import Interchange
import Training

struct ProfileCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile", abstract: "Show or change the profile.",
        subcommands: [ProfileSetCommand.self, ProfileShowCommand.self, ProfileWeightsCommand.self],
        defaultSubcommand: ProfileShowCommand.self)
}

struct ProfileSetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "set", abstract: "Change the profile.")

    @OptionGroup var location: JournalLocation

    @Option(help: "Your name.")
    var name: String?

    // Signed, so that a negative age is refused with the range (by the training log), not as a value of no type.
    @Option(parsing: .unconditional, help: "Your age in years, 5 to 120.")
    var age: Int64?

    @Option(parsing: .unconditional, help: "Your height in centimetres, 50 to 272.")
    var height: String?

    @Option(help: "The unit weights without one are read in: kg or lb.")
    var unit: String?

    @Option(help: "Your time zone, an IANA name such as Europe/Berlin: days are counted in it.")
    var timeZone: String?

    @Option(parsing: .unconditional, help: "Record your body weight now (or --at), such as 80kg or 176lb.")
    var bodyWeight: String?

    @Option(
        help: ArgumentHelp(
            "When the body weight was taken, if not now: 'YYYY-MM-DD HH:MM' in the profile's time zone, or an RFC "
                + "3339 time; with --body-weight alone.",
            valueName: "time"))
    var at: String?

    func validate() throws {
        if at != nil, bodyWeight == nil {
            throw ValidationError("--at dates a body weight; give --body-weight with it")
        }
        // Refused as the command line is read, as `schedule set` with nothing to set is: status 64.
        guard [name, age.map(String.init), height, unit, timeZone, bodyWeight].contains(where: { $0 != nil }) else {
            throw ValidationError("nothing to change; give one or more options")
        }
        try requireValues(["--height": height, "--body-weight": bodyWeight, "--at": at])
        try requireMassUnit(unit)
        // The time of the whole change: the profile's fields are changed now.
        if at != nil,
            bodyWeight == nil || [name, age.map(String.init), height, unit, timeZone].contains(where: { $0 != nil })
        {
            throw ValidationError("--at dates a body weight; give it with --body-weight alone")
        }
    }

    func run() async throws {
        let log = try location.trainingLog()
        var update = ProfileUpdated(name: name, age: try age.map(Self.age), timeZone: timeZone)
        if let height {
            guard let value = ExactDecimal(height) else {
                throw CLIError(message: "height \(height.debugDescription)", remedy: "give centimetres, such as 180")
            }
            update.heightCentimeters = value
        }
        update.unit = unit.flatMap(MassUnit.init(parsing:))
        let weight = try bodyWeight.map { text -> Weight in
            // A body weight is a number: bw, which stands for one in a set, is none. A number alone is read in the
            // unit this command sets, if it sets one.
            guard let weight = try? WeightArgument.parse(text, unit: update.unit, log: log) else {
                throw CLIError(
                    message: "body weight \"\(text)\" is not a weight \(TrainingLog.bodyWeightRange)",
                    remedy: "give one such as 80kg or 176lb")
            }
            return weight
        }
        let taken = try at.map { at in
            try Timestamp.parseNotingRepeats(
                at, in: try log.query { $0.rules.timeZone }, option: "--at",
                forms: "'YYYY-MM-DD HH:MM' in the profile's time zone, or an RFC 3339 time")
        }
        let recorded = try await log.updateProfile(update, bodyWeight: weight, at: taken)
        // The time zone counts as a rule that rebuilds (docs/RULES.md): the read models follow it before this returns.
        if recorded, timeZone != nil { try log.rebuildAfter("the profile's change") }
        Terminal.write(recorded ? "profile updated\n" : "the profile holds these values already; nothing was written\n")
    }

    /// An age the profile can hold; the training log checks that it is a plausible one.
    private static func age(_ years: Int64) throws -> UInt32 {
        guard let age = UInt32(exactly: years) else {
            throw CLIError(message: "an age of \(years)", remedy: "give an age from 5 to 120")
        }
        return age
    }
}

struct ProfileShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show the profile.")

    @OptionGroup var location: JournalLocation

    @Flag(help: "Print JSON.")
    var json = false

    func run() async throws {
        let profile = try location.trainingLog().query { try $0.profile() }
        let latest = profile.bodyWeights.last
        if json {
            let body: JSON =
                latest.map {
                    .object([("at", .string($0.at.description)), ("weight", TrainingFormat.json($0.weight))])
                }
                ?? .null
            Terminal.write(
                JSON.object([
                    ("name", profile.name.map(JSON.string) ?? .null),
                    ("age", profile.age.map { .unsigned(UInt64($0)) } ?? .null),
                    ("heightCentimeters", profile.heightCentimeters.map { .verbatim($0.description) } ?? .null),
                    ("unit", .string(profile.unit.rawValue)),
                    ("timeZone", .string(profile.timeZoneIdentifier)),
                    ("bodyWeight", body),
                ]).rendered + "\n")
            return
        }
        Terminal.write(
            """
            name         \(profile.name ?? "-")
            age          \(profile.age.map(String.init) ?? "-")
            height       \(profile.heightCentimeters.map { "\($0) cm" } ?? "-")
            unit         \(profile.unit.rawValue)
            time zone    \(profile.timeZoneIdentifier)\(profile.timeZoneName == nil ? Self.systemZoneNote : "")
            body weight  \(latest.map { "\($0.weight)" } ?? "-")

            """)
    }

    /// What the profile's time zone is when none is set: the system's, and how `TZ` was read when it names no zone.
    static var systemZoneNote: String {
        guard let note = TimeZone.systemSettingNote else { return " (the system's; none set)" }
        return " (the system's: \(note); none set)"
    }
}

struct ProfileWeightsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "weights",
        abstract: "List the body weights recorded, oldest first, each with the change since the one before.")

    @OptionGroup var location: JournalLocation
    @OptionGroup var asOf: AsOfOption
    @OptionGroup var output: OutputOptions

    @Option(parsing: .unconditional, help: "Only the last N entries (1 or more).")
    var last: Int?

    func validate() throws {
        if let last, last < 1 { throw ValidationError("--last takes 1 or more entries") }
    }

    func run() async throws {
        try location.query(asOf: asOf) { context in
            let entries = try context.snapshot.profile().bodyWeights
            let shown = entries.indices.suffix(last ?? entries.count)
            // The change since the entry before, in milligrams: of the whole list, not only of those shown.
            func change(_ index: Int) -> Int64? {
                index > 0 ? entries[index].weight.milligrams - entries[index - 1].weight.milligrams : nil
            }
            if output.json {
                for index in shown {
                    Terminal.write(
                        JSON.object([
                            ("date", .string(context.date(entries[index].at).description)),
                            ("at", .string(entries[index].at.description)),
                            ("weight", TrainingFormat.json(entries[index].weight)),
                            ("changeKilograms", change(index).map { .string(kilograms($0)) } ?? .null),
                        ]).rendered + "\n")
                }
            } else if output.csv {
                Terminal.write(CSV.line(["date", "at", "weight", "unit", "weight_kg", "change_kg"]))
                for index in shown {
                    let weight = entries[index].weight
                    Terminal.write(
                        CSV.line([
                            context.date(entries[index].at).description, entries[index].at.description,
                            weight.value.description, weight.unit.rawValue, weight.kilograms.description,
                            change(index).map(kilograms) ?? "",
                        ]))
                }
            } else if entries.isEmpty {
                Terminal.write("no body weights yet; record one with liftledger profile set --body-weight 80kg\n")
            } else {
                Terminal.write(padded("date", 12) + padded("weight", 12) + "change \(context.unit.rawValue)\n")
                for index in shown {
                    // A change that rounds to nothing in the unit shown is 0, with no sign.
                    let difference =
                        change(index).map { change in
                            let text = context.mass(change)
                            let isNone = text.allSatisfy { "-0.".contains($0) }
                            return isNone ? "0" : (change > 0 ? "+" : "") + text
                        } ?? "-"
                    Terminal.write(
                        padded(context.date(entries[index].at).description, 12)
                            + padded(entries[index].weight.description, 12) + difference + "\n")
                }
            }
        }
    }
}

struct ExerciseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "exercise", abstract: "The exercise catalog: list, show, add and edit custom exercises.",
        subcommands: [
            ExerciseListCommand.self, ExerciseShowCommand.self, ExerciseAddCommand.self, ExerciseEditCommand.self,
        ])
}

struct ExerciseListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the catalog's exercises.")

    @OptionGroup var location: JournalLocation

    @Option(help: "Only exercises working this muscle (primary or secondary).")
    var muscle: String?

    @Option(
        help: ArgumentHelp(
            "Only exercises with a word in their name or an alias starting with each of these words (run: Running, "
                + "not Crunch); quote several: --search 'kettlebell swing'."))
    var search: String?

    @Flag(help: "Print one JSON object per line.")
    var json = false

    func validate() throws {
        if let muscle, !ExerciseCatalog.muscleNames.contains(muscle.lowercased()) {
            throw ValidationError(
                "unknown muscle \(muscle.debugDescription); name one of: "
                    + ExerciseCatalog.muscleNames.sorted().joined(separator: ", "))
        }
    }

    func run() async throws {
        let log = try location.trainingLog()
        let catalog = try log.query { try $0.catalog() }
        var exercises = catalog.exercises
        if let muscle {
            exercises = exercises.filter { ($0.primaryMuscles + $0.secondaryMuscles).contains(muscle.lowercased()) }
        }
        if let search {
            let found = Set(catalog.search(search).map(\.id))
            exercises = exercises.filter { found.contains($0.id) }
        }
        for exercise in exercises {
            if json {
                Terminal.write(ExerciseShowCommand.json(exercise).rendered + "\n")
            } else {
                Terminal.write(
                    "\(exercise.name)  [\(exercise.id)]  \(exercise.primaryMuscles.joined(separator: ", "))\n")
            }
        }
        if !json && exercises.isEmpty { Terminal.write("(no exercises match)\n") }
    }
}

struct ExerciseShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one exercise.")

    @OptionGroup var location: JournalLocation

    @Argument(help: "A name, id or alias.")
    var exercise: [String]

    @Flag(help: "Print JSON.")
    var json = false

    func run() async throws {
        let log = try location.trainingLog()
        let name = exercise.joined(separator: " ")
        let catalog = try log.query { try $0.catalog() }
        guard let found = catalog.lookup(catalog.reference(name)) else {
            let close = catalog.suggestions(for: name, limit: 3).map { "\"\($0.name)\"" }
            throw TrainingError(
                .unknownExercise, "unknown exercise \"\(name)\"",
                remedy: close.isEmpty
                    ? "see liftledger exercise list" : "did you mean \(close.joined(separator: ", "))?")
        }
        if json {
            Terminal.write(Self.json(found).rendered + "\n")
            return
        }
        Terminal.write(
            """
            \(found.name)\(found.isCustom ? " (custom)" : "")
            id                 \(found.id)
            primary muscles    \(found.primaryMuscles.joined(separator: ", "))
            secondary muscles  \(found.secondaryMuscles.isEmpty ? "-" : found.secondaryMuscles.joined(separator: ", "))
            equipment          \(found.equipment ?? "-")
            force              \(found.force ?? "-")
            mechanic           \(found.mechanic ?? "-")
            category           \(found.category ?? "-")

            """)
    }

    static func json(_ exercise: Exercise) -> JSON {
        func optional(_ text: String?) -> JSON { text.map(JSON.string) ?? .null }
        return .object([
            ("id", .string(exercise.id)),
            ("name", .string(exercise.name)),
            ("primaryMuscles", .array(exercise.primaryMuscles.map(JSON.string))),
            ("secondaryMuscles", .array(exercise.secondaryMuscles.map(JSON.string))),
            ("equipment", optional(exercise.equipment)),
            ("force", optional(exercise.force)),
            ("mechanic", optional(exercise.mechanic)),
            ("category", optional(exercise.category)),
            ("custom", .bool(exercise.isCustom)),
        ])
    }
}

struct ExerciseAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a custom exercise.")

    @OptionGroup var location: JournalLocation

    @Argument(help: "Its name.")
    var name: [String]

    @Option(help: "Primary muscles, comma-separated (such as chest,triceps).")
    var primary: String

    @Option(help: "Secondary muscles, comma-separated.")
    var secondary: String?

    @Option(
        help: ArgumentHelp(
            "Equipment: \(ExerciseCatalog.equipmentNames.dropLast().joined(separator: ", ")) or "
                + "\(ExerciseCatalog.equipmentNames.last!)."))
    var equipment: String?

    @Option(help: "push, pull or static.")
    var force: String?

    @Option(help: "compound or isolation.")
    var mechanic: String?

    @Flag(help: "Add it though an exercise is named all but as it is (one letter apart, such as a plural).")
    var new = false

    func run() async throws {
        let log = try location.trainingLog()
        // Another app's name for a catalog exercise, which imports and `log` take for it: a custom exercise of that
        // name would take its place there, and an import of the app's file would move its sets over.
        let typed = name.joined(separator: " ")
        let catalog = try log.query { try $0.catalog() }
        if catalog.lookup(typed) == nil, let mapped = catalog.exercise(appName: typed) {
            throw TrainingError(
                .notAllowed,
                "\"\(typed)\" is another app's name for \"\(mapped.name)\" (\(mapped.id)), which imports map it to",
                remedy: "log it by that name, or give the custom exercise another name")
        }
        // Its plural, or a letter mistyped: the sets of one exercise would be split between two.
        if !new, catalog.lookup(typed) == nil, let near = catalog.nearlyNamed(typed) {
            throw TrainingError(
                .notAllowed, "\"\(typed)\" is all but the name of \"\(near.name)\" (\(near.id))",
                remedy: "log it by that name, or add it anyway with --new")
        }
        let exercise = try await log.addCustomExercise(
            CustomExerciseAdded(
                exerciseId: "", name: typed, primaryMuscles: muscles(primary),
                secondaryMuscles: muscles(secondary ?? ""), equipment: equipment, force: force, mechanic: mechanic,
                category: "strength"))
        Terminal.write("added \(exercise.name) [\(exercise.id)]\n")
    }
}

struct ExerciseEditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit", abstract: "Change a custom exercise's muscles, equipment, force or mechanic.",
        discussion: """
            Every workout of the exercise counts again with them, whenever it was done: the weekly sets and volume \
            per muscle, and the push/pull split, as balance shows them. An import makes a custom exercise of a name \
            it does not know, with no muscles: give them here. The catalog's exercises keep theirs.
            """)

    @OptionGroup var location: JournalLocation

    @Argument(help: "The custom exercise: its name or id.")
    var name: [String]

    @Option(help: "Primary muscles, comma-separated (such as chest,triceps).")
    var primary: String?

    @Option(help: "Secondary muscles, comma-separated; --secondary \"\" clears them.")
    var secondary: String?

    @Option(help: "Equipment, as exercise add takes it; --equipment \"\" clears it.")
    var equipment: String?

    @Option(help: "push, pull or static; --force \"\" clears it.")
    var force: String?

    @Option(help: "compound or isolation; --mechanic \"\" clears it.")
    var mechanic: String?

    func validate() throws {
        guard [primary, secondary, equipment, force, mechanic].contains(where: { $0 != nil }) else {
            throw ValidationError(
                "nothing to change; give --primary, --secondary, --equipment, --force or --mechanic")
        }
    }

    func run() async throws {
        let log = try location.trainingLog()
        let (exercise, changed) = try await log.editCustomExercise(
            try log.exerciseReference(name.joined(separator: " ")),
            CustomExerciseChange(
                primaryMuscles: primary.map(muscles), secondaryMuscles: secondary.map(muscles), equipment: equipment,
                force: force, mechanic: mechanic))
        guard changed else {
            Terminal.write("\(exercise.name) has these facts already; nothing was written\n")
            return
        }
        // Its facts as they now stand, every one, `none` for one it lacks (a fact cleared, or one it never had): what
        // every workout of it counts for.
        let facts = [
            ("primary", exercise.primaryMuscles.joined(separator: ", ")),
            ("secondary", exercise.secondaryMuscles.joined(separator: ", ")), ("equipment", exercise.equipment ?? ""),
            ("force", exercise.force ?? ""), ("mechanic", exercise.mechanic ?? ""),
        ].map { "\($0.0) \($0.1.isEmpty ? "none" : $0.1)" }
        Terminal.write("changed \(exercise.name) [\(exercise.id)]: \(facts.joined(separator: "; "))\n")
        try log.rebuildAfter("the change of \(exercise.name)")
    }
}

/// The muscles of a comma-separated list, as `exercise add` and `exercise edit` take them: trimmed, in lower case.
private func muscles(_ text: String) -> [String] {
    text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
}
