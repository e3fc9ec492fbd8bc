import ArgumentParser
import EventJournal
import Interchange
import Training

struct StartCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "start", abstract: "Start a workout, empty or following a routine.")

    @OptionGroup var location: JournalLocation

    @Argument(help: "The routine to follow, by its name (no quotes needed); its exercises are added in order.")
    var routine: [String] = []

    @Option(help: "The workout's name (default: the routine's name, else Workout).")
    var name: String?

    func run() async throws {
        let log = try location.trainingLog()
        let id = try await log.start(routine: routine.isEmpty ? nil : routine.joined(separator: " "), name: name)
        Terminal.write("started \(id)\n")
    }
}

struct AddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add an exercise to the workout in progress.")

    @OptionGroup var location: JournalLocation

    @Argument(help: "The exercise: a catalog name, id or alias, or a custom exercise.")
    var exercise: [String]

    func run() async throws {
        let log = try location.trainingLog()
        let exercise = try log.exerciseReference(exercise.joined(separator: " "))
        try await log.addExercise(exercise)
        Terminal.write("added \(try log.catalogName(exercise))\n")
    }
}

struct LogCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log", abstract: "Log a set: EXERCISE WEIGHT x REPS, or EXERCISE --time/--distance.",
        discussion: """
            Forms people type are accepted: 'bench press 100kg x 5', 'squat 225lb x 5', 'deadlift 100 5' (in the \
            profile's unit), 'pull up bw x 12'. A weight more than five times the last one for the exercise, or more \
            than 100 reps with a weight (the weight and the reps the other way round?), needs --confirm. A timed or \
            distance set names the exercise alone, or with a weight and reps: 'plank --time 60s', 'running treadmill \
            --distance 5km --time 25m', 'farmers walk 40kg x 1 --distance 50m'. A set logged while the workout is \
            paused resumes its clock. A set of an exercise of the workout's routine starts the rest the routine gives \
            it (rest skip stops it; --no-rest starts none).
            """)

    @OptionGroup var location: JournalLocation

    @Argument(parsing: .allUnrecognized, help: "The exercise, the weight and the reps.")
    var words: [String] = []

    @OptionGroup var timeAndDistance: SetTimeOptions

    @Option(parsing: .unconditional, help: "Rate of perceived exertion, 1 to 10 in half steps.")
    var rpe: String?

    @Option(name: .customLong("type"), help: "The kind of set: normal, warmup, drop or failure.")
    var kind: SetKindChoice = .normal

    @Option(help: "A note on the set.")
    var note: String?

    @Flag(help: "Accept a weight more than five times the previous one for the exercise, or over 100 reps with one.")
    var confirm = false

    @Flag(
        name: .customLong("continue"),
        help: "Log into the workout in progress even when it is stale (idle past the rule session.stale-after).")
    var continuesStale = false

    @Option(
        parsing: .unconditional,
        help: "Add the set to this finished workout (a late set) instead of the one in progress.")
    var workout: String?

    @Flag(
        name: .customLong("no-rest"),
        help: ArgumentHelp(
            "Start no rest timer (by default, a set of a routine's exercise starts the rest the routine gives it); a "
                + "set still ends the one running."))
    var noRest = false

    func validate() throws {
        try requireValues(["--rpe": rpe, "--workout": workout])
        try LiftLedger.rejectUnknownOptions(in: words)
    }

    func run() async throws {
        let log = try location.trainingLog()
        let (unit, catalog, paused, late) = try log.query { snapshot in
            // The set goes to the workout in progress unless --workout names another.
            let active = try snapshot.activeWorkout()
            let target = workout.map(Workout.streamID(reference:)) ?? active?.id
            return (
                try snapshot.profileFields().unit ?? .kilograms, try snapshot.catalog(),
                active?.pausedAt != nil && target == active?.id, target != active?.id ? target : nil
            )
        }
        try Self.checkForgottenParts(
            words, unit: unit, catalog: catalog, time: timeAndDistance.time, distance: timeAndDistance.distance,
            note: note)
        let seconds = try timeAndDistance.seconds()
        let metres = try timeAndDistance.metres()
        // A timed or distance set of the exercise alone (words the catalog knows, or with no number): no load, no reps.
        let known = catalog.lookup(words.joined(separator: " ")) != nil
        let exerciseAlone =
            (seconds != nil || metres != nil) && !words.isEmpty
            && (known || !words.joined().contains(where: \.isNumber))
        let entry =
            exerciseAlone
            ? SetEntry(exercise: words.joined(separator: " "), weight: nil, reps: 0)
            : try Self.entry(words, unit: unit, catalog: catalog)
        let exercise = catalog.reference(entry.exercise)
        let request = SetRequest(
            exercise: exercise, weight: entry.weight, reps: entry.reps, kind: kind.kind,
            rpe: try rpe.map(RPEArgument.parse), note: note, confirmed: confirm, workout: workout,
            durationSeconds: seconds, distanceMeters: metres, continuesStale: continuesStale,
            startsRoutineRest: !noRest)
        let logged = try await log.logSet(request)
        let number = logged.number
        // The exercise as the catalog names it, so that an alias or a near spelling shows what it was taken for.
        let name = catalog.lookup(exercise)?.name ?? exercise
        let details = SetDetails(
            exerciseId: "", weight: entry.weight, reps: entry.reps, kind: request.kind, rpe: request.rpe,
            durationSeconds: seconds, distanceMeters: metres)
        // In the order of the events: the clock runs again, then the set, then the rest it starts.
        if paused { Terminal.write("the workout was paused: its clock runs again\n") }
        // A set added to a finished workout names it: it is not the set of a workout in progress.
        let into = late.map { " of \($0), finished" } ?? ""
        Terminal.write("set \(number)\(into): \(name) \(TrainingFormat.details(details, unit))\n")
        if let rest = logged.restSeconds {
            let duration = TrainingFormat.duration(seconds: Int64(rest))
            Terminal.write("rest: \(duration) started (the routine's; liftledger rest skip stops it)\n")
        }
        // A number typed in the other unit (185 meant as pounds after 82.5 kg) makes a record no lifter made: said,
        // with the correction, though the set stands as given.
        let slip = try log.query { snapshot in
            try (workout.map { try snapshot.workout(Workout.streamID(reference: $0)) } ?? snapshot.activeWorkout())
                .flatMap { try snapshot.weightMeantInTheOtherUnit(by: number, of: $0) }
        }
        if let (meant, previous) = slip {
            let relation =
                meant.unit == .pounds
                ? "2.2 times the \(previous) before it, as pounds read as kilograms are"
                : "a 2.2th of the \(previous) before it, as kilograms read as pounds are"
            let given = Weight(meant.value, meant.unit == .pounds ? .kilograms : .pounds)
            Terminal.write(
                "note: \(given) is \(relation); if you meant \(meant), correct it: liftledger correct \(number) "
                    + "--weight \(meant.value)\(meant.unit.rawValue)" + (workout.map { " --workout \($0)" } ?? "")
                    + "\n")
        }
    }

    /// The set `words` give. An exercise named in one word that holds a blank or a digit (quoted), that the catalog
    /// knows as it is, such as a custom `"Kettlebell Swing 24kg"`, is taken whole when the words after it are a set
    /// alone: splitting the words would cut `24kg` off its name as a weight.
    static func entry(_ words: [String], unit: MassUnit, catalog: ExerciseCatalog) throws -> SetEntry {
        let placeholder = "exercise"
        if words.count >= 2, words[0].contains(where: { $0 == " " || $0.isNumber }), catalog.lookup(words[0]) != nil,
            let set = try? SetEntry(words: [placeholder] + words.dropFirst(), defaultUnit: unit),
            set.exercise == placeholder
        {
            return SetEntry(exercise: words[0], weight: set.weight, reps: set.reps)
        }
        return try SetEntry(words: words, defaultUnit: unit)
    }

    /// Refuses, saying what is missing, a set typed without a part: after `--time`, `--distance` or `--note`, more
    /// words of its value (`--time 1h 5m`, `--distance 5 km` or `--note felt heavy`, unquoted, leave `5m`, `km` or
    /// `heavy` among the words); an exercise the catalog knows and a weight alone (`bench press 100`, `pull up bw`); an
    /// exercise and `x 5`, with no weight; a weight and `x`, with no reps; an RPE among the words. A number alone is a
    /// weight in `unit`.
    static func checkForgottenParts(
        _ words: [String], unit: MassUnit, catalog: ExerciseCatalog, time: String?, distance: String?,
        note: String? = nil
    ) throws {
        // An RPE among the words (`x 5 @8`), which a note's other words would otherwise be taken for.
        try SetEntry.refuseRPE(among: words, defaultUnit: unit)
        let typed = "\"\(words.joined(separator: " "))\""
        /// The words typed, as a shell takes them back.
        func command(_ words: some Sequence<String>) -> String {
            words.map(Shell.word).joined(separator: " ")
        }
        // Not when the words are an exercise's name (a custom "Sprint 100m"), which the set is then of.
        let isName = catalog.lookup(words.joined(separator: " ")) != nil
        // The trailing words that, put after the value given, still read as one: `--time 1h 5m` or `--time 1 min`
        // unquoted, `--distance 5 km`.
        for (option, value, reads) in [
            ("--time", time, { (text: String) in (try? TimeAndDistance.seconds(text)) != nil }),
            ("--distance", distance, { (text: String) in (try? TimeAndDistance.metres(text)) != nil }),
        ] {
            guard let value, !isName else { continue }
            var count = 0
            while count < words.count - 1,
                reads(([value] + words.suffix(count + 1)).joined(separator: " ")),
                ExactDecimal(words[words.count - 1 - count]) == nil
            {
                count += 1
            }
            guard count > 0 else { continue }
            let trailing = words.suffix(count)
            throw CLIError(
                message: "\"\(trailing.joined(separator: " "))\" follows the set in \(typed)",
                remedy:
                    "quote a value of more than one word: \(option) \"\(([value] + trailing).joined(separator: " "))\"")
        }
        // With --time or --distance, a note's other words after the exercise's name (`plank --time 60s --note felt
        // good`): the words name no exercise with them, one without.
        if let note, time != nil || distance != nil, !isName,
            let count = (1..<max(words.count, 1)).first(where: { count in
                catalog.lookup(words.dropLast(count).joined(separator: " ")) != nil
            }),
            words.suffix(count).allSatisfy({ !$0.contains(where: \.isNumber) })
        {
            let trailing = words.suffix(count)
            throw CLIError(
                message: "\"\(trailing.joined(separator: " "))\" follows the exercise in \(typed)",
                remedy: "quote a note of more than one word: --note \"\(([note] + trailing).joined(separator: " "))\"")
        }
        // A note's other words after the set (`x 5 --note felt heavy`): the words are no set with them, one without.
        if let note, (try? SetEntry(words: words, defaultUnit: unit)) == nil {
            var count = 1
            while count < words.count - 2, words[words.count - count].first?.isNumber == false,
                (try? SetEntry(words: Array(words.dropLast(count)), defaultUnit: unit)) == nil
            {
                count += 1
            }
            if count < words.count - 2, words.suffix(count).allSatisfy({ $0.first?.isNumber == false }),
                (try? SetEntry(words: Array(words.dropLast(count)), defaultUnit: unit)) != nil
            {
                let trailing = words.suffix(count)
                throw CLIError(
                    message: "\"\(trailing.joined(separator: " "))\" follows the set in \(typed)",
                    remedy:
                        "quote a note of more than one word: --note \"\(([note] + trailing).joined(separator: " "))\"")
            }
        }
        guard time == nil, distance == nil, words.count >= 2, let last = words.last else { return }
        func known(_ count: Int) -> Bool {
            words.count > count && catalog.lookup(words.dropLast(count).joined(separator: " ")) != nil
        }
        let lowered = last.lowercased()
        if known(1), ExactDecimal(last) != nil || SetEntry.isBodyWeight(last) {
            throw CLIError(
                message: "no reps after the weight in \(typed)",
                remedy: "give the reps after it: liftledger log \(command(words)) x 5")
        }
        if known(2), words[words.count - 2].lowercased() == "x", UInt32(last) != nil {
            throw CLIError(
                message: "no weight before x \(last) in \(typed)",
                remedy:
                    "give it: liftledger log \(command(words.dropLast(2))) 100kg x \(last) (or bw x \(last))"
            )
        }
        if lowered == "x", words.count >= 3 {
            // "100kg 5 x": the reps before the x, as in "5 x 100kg" read backwards.
            let beforeX = words.dropLast()
            if let reps = beforeX.last, UInt32(reps) != nil, beforeX.count >= 3,
                SetEntry.isLoad(beforeX[beforeX.count - 2])
            {
                throw CLIError(
                    message: "no reps after the x in \(typed)",
                    remedy: "put the reps after it: liftledger log \(command(beforeX.dropLast())) x \(reps)")
            }
            throw CLIError(
                message: "no reps after the x in \(typed)", remedy: "give them: liftledger log \(command(words)) 5")
        }
    }
}

enum SetKindChoice: String, ExpressibleByArgument, CaseIterable {
    case normal, warmup, drop, failure

    var kind: SetKind { SetKind(rawValue: rawValue)! }
}

enum RPEArgument {
    static func parse(_ text: String) throws -> RPE {
        guard let value = ExactDecimal(text), let rpe = RPE(value) else {
            throw TrainingError(
                .invalidValue, "RPE \(text.debugDescription) is not 1 to 10 in half steps",
                remedy: "give an RPE such as 8 or 8.5")
        }
        return rpe
    }
}

struct RestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rest", abstract: "Start, extend or skip the rest timer.",
        subcommands: [RestStartCommand.self, RestExtendCommand.self, RestSkipCommand.self],
        defaultSubcommand: RestStartCommand.self)
}

struct RestStartCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "start", abstract: "Start a rest timer (the default of 'rest').",
        discussion: "It ends at a wall-clock instant, so it keeps counting while nothing runs.")

    @OptionGroup var location: JournalLocation

    // Unrecognized arguments are taken too, so that a negative number is refused as a length rather than as an option.
    @Argument(
        parsing: .allUnrecognized,
        help: ArgumentHelp(
            "How long: seconds, or a time as log --time reads one (1:30, 2m), up to an hour (default: the routine's "
                + "rest for the last set's exercise, or before any set the first exercise's, else 120).",
            valueName: "seconds"))
    var words: [String] = []

    func validate() throws { try LiftLedger.rejectUnknownOptions(in: words) }

    func run() async throws {
        let words = RestLength.words(words)
        let given = try words.first.map { first in
            if ["start", "extend", "skip"].contains(first) {
                throw CLIError(
                    message: "\(first) came after an option",
                    remedy: "name it first: liftledger rest \(first) ... --journal DIR")
            }
            let text = words.joined(separator: " ")
            guard let length = try? TimeAndDistance.seconds(text), length <= 3_600 else {
                throw CLIError(
                    message: "a rest of \(text.debugDescription)",
                    remedy: "give 1 to 3600 seconds or a time up to an hour, such as liftledger rest 90, 1:30 or 2m")
            }
            return length
        }
        let log = try location.trainingLog()
        let length = try given ?? log.query(defaultRest)
        try await log.startRest(seconds: length)
        Terminal.write("resting \(TrainingFormat.duration(seconds: Int64(length)))\n")
    }

    /// The routine's rest for the exercise of the last set that counts (before any, the first exercise: the one to
    /// begin with), else two minutes.
    private func defaultRest(_ snapshot: TrainingSnapshot) throws -> UInt32 {
        guard let workout = try snapshot.activeWorkout(),
            let routine = try workout.routineId.flatMap({ try snapshot.routine(id: $0) }),
            let exerciseId = workout.lastCountedSet?.details.exerciseId ?? workout.exercises.first?.exerciseId,
            let target = routine.exercises.first(where: { $0.exerciseId == exerciseId }), target.restSeconds > 0
        else { return 120 }
        return target.restSeconds
    }
}

/// The words `rest` and `rest extend` take for a length, read whatever comes after the options: a `--` that ends the
/// options is not one of them.
enum RestLength {
    static func words(_ words: [String]) -> [String] { words.first == "--" ? Array(words.dropFirst()) : words }
}

struct RestExtendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extend", abstract: "Lengthen the running rest timer (a negative number shortens it).")

    @OptionGroup var location: JournalLocation

    // Unrecognized arguments are taken too, so that a negative number is read as one rather than as an option.
    @Argument(
        parsing: .allUnrecognized,
        help: ArgumentHelp(
            "Seconds to add, or a time as log --time reads one (30s, 1:00); negative to take off.",
            valueName: "seconds"))
    var words: [String] = []

    func validate() throws { try LiftLedger.rejectUnknownOptions(in: words) }

    func run() async throws {
        let text = RestLength.words(words).joined(separator: " ")
        let isShortening = text.hasPrefix("-")
        let magnitude = isShortening ? String(text.dropFirst()) : text
        let amount: Int32
        if let seconds = try? TimeAndDistance.seconds(magnitude), let signed = Int32(exactly: seconds) {
            amount = isShortening ? -signed : signed
        } else if UInt32(digits: magnitude) == 0 {
            amount = 0
        } else {
            throw CLIError(
                message: "cannot read a rest's change from \(text.debugDescription)",
                remedy: "write liftledger rest extend 30 (or 1:00, or -15 to shorten the rest)")
        }
        guard amount != 0 else {
            throw CLIError(
                message: "extending a rest by 0 s changes nothing", remedy: "give 30 to add, -15 to take off")
        }
        let left = try await location.trainingLog().extendRest(by: amount)
        Terminal.write(left > 0 ? "rest: \(TrainingFormat.duration(seconds: Int64(left))) left\n" : "rest over\n")
    }
}

struct RestSkipCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "skip", abstract: "Stop the running rest timer.")

    @OptionGroup var location: JournalLocation

    func run() async throws {
        try await location.trainingLog().skipRest()
        Terminal.write("rest skipped\n")
    }
}

struct PauseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pause", abstract: "Pause the workout's clock (paused time does not count).")

    @OptionGroup var location: JournalLocation

    func run() async throws {
        try await location.trainingLog().pause()
        Terminal.write("paused\n")
    }
}

struct ResumeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "resume", abstract: "Resume a paused workout.")

    @OptionGroup var location: JournalLocation

    @Flag(
        name: .customLong("continue"),
        help: "Resume the workout even when it is stale (paused past the rule session.stale-after).")
    var continuesStale = false

    func run() async throws {
        try await location.trainingLog().resume(continuesStale: continuesStale)
        Terminal.write("resumed\n")
    }
}

struct FinishCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "finish", abstract: "Finish the workout in progress; it joins the history.",
        discussion: """
            A workout with no sets is not finished: log a set, or discard it. One left running finishes as of its last \
            set with --at last, so that the time it stood idle does not count; a stale one (idle past the rule \
            session.stale-after) is finished now only with --at now.
            """)

    @OptionGroup var location: JournalLocation

    @Option(help: "A note on the workout.")
    var note: String?

    @Option(
        help: ArgumentHelp(
            "When it ended: last (its last set, or, if later, its last pause's end or its running rest's start or "
                + "change), now, "
                + "'YYYY-MM-DD HH:MM' in the "
                + "profile's time zone, or an RFC 3339 time; from then to now (default: now, unless it is stale).",
            valueName: "time"))
    var at: String?

    func run() async throws {
        let log = try location.trainingLog()
        var time = TrainingLog.FinishTime.now
        if let at {
            if at == "last" {
                time = .lastSet
            } else if at == "now" {
                time = .at(Timestamp.now())
            } else {
                let zone = try log.query { $0.rules.timeZone }
                let passes = try Timestamp.passes(
                    at, in: zone, option: "--at", forms: "last, now, 'YYYY-MM-DD HH:MM' or an RFC 3339 time")
                time = .at(passes.first, orSecondPass: passes.second)
            }
        }
        let id = try await log.finish(note: note, at: time)
        Terminal.write("finished \(id)\n")
    }
}

struct DiscardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "discard",
        abstract: "Discard the workout in progress (its events stay in the journal; restore brings it back).")

    @OptionGroup var location: JournalLocation

    func run() async throws {
        let id = try await location.trainingLog().discard()
        Terminal.write("discarded \(id)\n")
    }
}
