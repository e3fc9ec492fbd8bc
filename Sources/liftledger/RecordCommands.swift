import ArgumentParser
import EventJournal
import Foundation
import Interchange
import Training

struct RecordsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prs", abstract: "Show personal records, with the set that made each and the previous record.",
        discussion: """
            From working sets (not warm-ups) of finished workouts, with at least one rep except for duration and \
            distance records; a record is strictly better than the one before it. For assisted exercises less \
            weight (assistance) is better. The estimated 1RM follows the rules e1rm.formula and e1rm.max-reps; \
            liftledger why EXERCISE KIND shows the events behind a record.
            """)

    @OptionGroup var location: JournalLocation
    @OptionGroup var asOf: AsOfOption
    @OptionGroup var output: OutputOptions

    @Argument(help: "An exercise (default: every exercise trained).")
    var exercise: [String] = []

    @Flag(help: "Also show the best weight for each rep count from 1 to 12.")
    var repMaxes = false

    func run() async throws {
        try location.query(asOf: asOf) { context in
            let ids: [String]
            if exercise.isEmpty {
                ids = try context.snapshot.exercisesTrained().sorted { context.name($0) < context.name($1) }
            } else {
                ids = [try context.exercise(exercise.joined(separator: " ")).id]
            }
            if output.csv {
                Terminal.write(
                    CSV.line([
                        "exercise_id", "exercise", "record", "value", "unit", "workout", "set", "date", "position",
                    ]))
            }
            for id in ids {
                let records = try context.snapshot.latestRecords(of: id)
                let kinds = records.keys.filter { repMaxes || !$0.isRepMaximum }.sorted()
                if output.json {
                    let list = kinds.map { kind -> JSON in
                        Self.json(records[kind]!.current, previous: records[kind]!.previous, context)
                    }
                    Terminal.write(
                        JSON.object([
                            ("exerciseId", .string(id)), ("name", .string(context.name(id))), ("records", .array(list)),
                        ]).rendered + "\n")
                } else if output.csv {
                    for kind in kinds {
                        let record = records[kind]!.current
                        Terminal.write(
                            CSV.line([
                                id, context.name(id), kind.description, record.valueText,
                                Self.unit(kind, mass: .kilograms),
                                record.workoutId, record.setNumber.map(String.init) ?? "",
                                context.date(record.startedAt).description, String(record.position),
                            ]))
                    }
                } else {
                    Terminal.write(context.name(id) + "\n")
                    if kinds.isEmpty { Terminal.write("  no records yet\n") }
                    for kind in kinds {
                        Terminal.write(
                            "  " + Self.line(records[kind]!.current, previous: records[kind]!.previous, context) + "\n")
                    }
                }
            }
            if ids.isEmpty && !output.json && !output.csv { Terminal.write("no records yet: finish a workout first\n") }
        }
    }

    /// The unit a record kind's value is given in: `mass` for a mass (JSON and CSV give kilograms), else reps,
    /// seconds or metres.
    static func unit(_ kind: RecordKind, mass: MassUnit) -> String {
        switch kind {
        case .heaviestWeight, .repMaximum, .estimatedOneRepMax, .bestSetVolume, .bestSessionVolume: mass.rawValue
        case .mostReps: "reps"
        case .longestDuration: "s"
        case .longestDistance: "m"
        }
    }

    /// `e1rm (epley)   123.45 kg     100 kg × 8, workout-12 set 3, 2026-11-20 (was 120 kg)`, masses in the profile's
    /// unit.
    static func line(_ record: RecordEntry, previous: RecordEntry?, _ context: QueryContext) -> String {
        func value(_ record: RecordEntry) -> String {
            if carriesItsUnit(record.kind) { return displayValue(record, context.unit) }
            let unit = unit(record.kind, mass: context.unit)
            // `1 rep`, not `1 reps`.
            let one = record.kind == .mostReps && record.value.numerator == 1
            return "\(displayValue(record, context.unit)) \(one ? String(unit.dropLast()) : unit)"
        }
        // An estimate names the formula in force, which made it: `e1rm (epley)`.
        let kind =
            record.kind == .estimatedOneRepMax
            ? "e1rm (\(context.snapshot.rules.estimateFormula.rawValue))" : record.kind.description
        return padded(kind, 15) + padded(value(record), 14) + detail(record, context)
            + (previous.map { " (was \(value($0)))" } ?? "")
    }

    /// What made a record: `100 kg × 8, workout-12 set 3, 2026-11-20`, the set alone for one of no load and no reps
    /// (a plank's time), the load alone for one of no reps (a weighted plank's), or the workout for a session record.
    static func detail(_ record: RecordEntry, _ context: QueryContext) -> String {
        let isUnloaded = (record.weight?.value.significand ?? 0) == 0 && record.reps == 0
        // Under the RPE chart, an estimate names the RPE it was read at, which the chart turns into effective reps.
        let readsRPE = record.kind == .estimatedOneRepMax && context.snapshot.rules.estimateFormula == .rpe
        let effort = readsRPE ? record.rpe.map { " at RPE \($0)" } ?? "" : ""
        let made =
            record.setNumber.map {
                (isUnloaded
                    ? ""
                    : TrainingFormat.weight(record.weight) + (record.reps == 0 ? "" : " × \(record.reps)")
                        + "\(effort), ")
                    + "\(record.workoutId) set \($0)"
            } ?? record.workoutId
        return made + ", \(context.date(record.startedAt))"
    }

    /// Whether a value of `kind` says its unit (see ``displayValue(_:_:)``): a time's and a distance's, `1m 30s`,
    /// `10.81 km`.
    static func carriesItsUnit(_ kind: RecordKind) -> Bool { kind == .longestDuration || kind == .longestDistance }

    /// The value for people: a mass in `unit` to two decimals; a time and a distance with their units.
    static func displayValue(_ record: RecordEntry, _ unit: MassUnit) -> String {
        // A time as every other time is given: `1m 30s`, not `90 s`; a distance as a set's.
        if record.kind == .longestDuration { return TrainingFormat.duration(seconds: record.value.numerator) }
        if record.kind == .longestDistance { return TrainingFormat.distance(millimetres: record.value, unit) }
        return record.kind.isMass ? unit.text(milligrams: record.value, digits: 2) : record.valueText
    }

    /// The record as JSON, with the record before it under `previous` (itself without `previous`).
    static func json(_ record: RecordEntry, previous: RecordEntry?, _ context: QueryContext) -> JSON {
        .object(fields(record, context) + [("previous", previous.map { .object(fields($0, context)) } ?? .null)])
    }

    private static func fields(_ record: RecordEntry, _ context: QueryContext) -> [(String, JSON)] {
        [
            ("kind", .string(record.kind.description)),
            ("value", .string(record.valueText)),
            ("unit", .string(unit(record.kind, mass: .kilograms))),
            ("sequence", .unsigned(UInt64(record.sequence))),
            ("workoutId", .string(record.workoutId)),
            ("set", record.setNumber.map { .unsigned(UInt64($0)) } ?? .null),
            ("weight", TrainingFormat.json(record.weight)),
            ("reps", .unsigned(UInt64(record.reps))),
            ("rpe", record.rpe.map { .verbatim($0.description) } ?? .null),
            ("date", .string(context.date(record.startedAt).description)),
            ("achievedAt", .string(record.achievedAt.description)),
            ("position", .unsigned(record.position)),
        ]
    }
}

struct WhyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "why",
        abstract: "Show the events behind a record, the days behind the streak, or the sets behind a balance figure.",
        discussion: """
            why EXERCISE [KIND]: for each record of the kind, oldest first, its value, the set that made it and the \
            journal events that gave that set its values (for a session record, that last changed the session), \
            finished its workout and, when its date was edited, last moved it (positions and times). Kinds: \
            heaviest, e1rm, set-volume, most-reps, session-volume, duration, distance, 1rm to 12rm.

            why streak: the days (or weeks) of the current streak, each with its workouts, the rest days that do \
            not break it, and the day (or week) that ended the run before it.

            why balance MUSCLE [--weeks N]: the working sets that make the muscle's figure in balance --weeks N, \
            workout by workout, each exercise with the weight its role gives a set (balance.primary for a primary \
            muscle, balance.secondary for a secondary one), and each set's journal position.
            """)

    @OptionGroup var location: JournalLocation
    @OptionGroup var asOf: AsOfOption

    @Argument(help: "An exercise and optionally a record kind (default: e1rm, else its first); streak; balance MUSCLE.")
    var words: [String]

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "With balance MUSCLE: how many weeks, up to and including this one, as balance --weeks takes them (1 to "
                + "520; 4 when not given)."))
    var weeks: Int?

    @Flag(help: "Print JSON (fields documented in docs/JSON.md).")
    var json = false

    func validate() throws {
        guard let weeks else { return }
        guard words.first?.lowercased() == "balance" else {
            throw ValidationError("--weeks goes with why balance MUSCLE only")
        }
        guard (1...520).contains(weeks) else { throw ValidationError("--weeks takes 1 to 520") }
    }

    func run() async throws {
        if let muscle = balanceMuscle {
            try location.query(asOf: asOf) { try explainBalance(of: muscle, $0) }
            return
        }
        if asksForStreak {
            try location.query(asOf: asOf) { try explainStreak($0) }
            return
        }
        var words = words
        let kind = words.last.flatMap(RecordKind.init(name:))
        if kind != nil { words.removeLast() }
        guard !words.isEmpty else {
            throw CLIError(message: "name an exercise", remedy: "such as: liftledger why squat e1rm")
        }
        let journal = try location.open()
        try location.query(asOf: asOf) { context in
            if self.words.count == 1, self.words[0].lowercased() == "balance", context.catalog.lookup("balance") == nil
            {
                throw CLIError(
                    message: "why balance needs a muscle",
                    remedy: "such as: liftledger why balance chest; the muscles are: "
                        + ExerciseCatalog.muscleNames.joined(separator: ", "))
            }
            if self.words.first?.lowercased() == "balance", self.words.count > 1,
                context.catalog.lookup(words.joined(separator: " ")) == nil
            {
                throw unknownMuscle()
            }
            // "bench press heaviestt": the exercise is known without its last word, so that word is a kind.
            if kind == nil, words.count > 1, context.catalog.lookup(words.joined(separator: " ")) == nil,
                context.catalog.lookup(words.dropLast().joined(separator: " ")) != nil
            {
                throw CLIError(
                    message: "unknown record kind \(words.last!.debugDescription)",
                    remedy: "the kinds are: "
                        + RecordKind.allCases.filter { !$0.isRepMaximum }.map(\.description).joined(separator: ", ")
                        + ", 1rm to 12rm")
            }
            let exercise = try context.exercise(words.joined(separator: " "))
            let records = try context.snapshot.records(of: exercise.id)
            guard let chosen = kind ?? (records[.estimatedOneRepMax] != nil ? .estimatedOneRepMax : records.keys.min()),
                let chain = records[chosen]
            else {
                // As of a past point, the records it had then: none yet, maybe, though it may have some now.
                let then = context.isReplay ? asOf.asOf.map { " as of \($0)" } ?? "" : ""
                throw TrainingError(
                    .notFound,
                    "\(exercise.name) \(then.isEmpty ? "has" : "had") no \(kind.map { "\($0) record" } ?? "records")\(then)",
                    remedy: !then.isEmpty
                        ? "give a later --as-of, or leave it out to see what it has now"
                        : records.isEmpty
                            ? "log a set of it first; liftledger prs lists the exercises with records"
                            : "see the records it has with liftledger prs \(Shell.word(exercise.name))")
            }
            var entries: [JSON] = []
            let carriesItsUnit = RecordsCommand.carriesItsUnit(chosen)
            var lines = [
                "\(exercise.name), \(chosen)"
                    + (carriesItsUnit ? "" : " (\(RecordsCommand.unit(chosen, mass: context.unit))")
                    // The formula in force made every estimate of the chain: a rule change rebuilds them all.
                    + (chosen == .estimatedOneRepMax ? ", by \(context.snapshot.rules.estimateFormula.rawValue)" : "")
                    + (carriesItsUnit ? "" : ")")
                    + ": \(counted(chain.count, "record")), oldest first"
            ]
            for (index, record) in chain.enumerated() {
                let workout = try context.snapshot.workout(record.workoutId)
                var positions = [record.position]
                if let finished = workout?.finishedPosition, finished != record.position { positions.append(finished) }
                // The edit that moved the workout's date, which dates the record, not its set's event.
                if let moved = workout?.startMovedPosition, !positions.contains(moved) { positions.append(moved) }
                // The restore that brought the deleted workout, and a record made before it, back.
                if let restored = workout?.restoredPosition, restored > record.position, !positions.contains(restored) {
                    positions.append(restored)
                }
                let events = try positions.compactMap { try journal.record(at: $0) }
                lines.append(
                    "#\(record.sequence) \(RecordsCommand.displayValue(record, context.unit)): "
                        + RecordsCommand.detail(record, context))
                for event in events {
                    lines.append(
                        "    position \(event.position): \(event.type) in \(event.streamID), "
                            + "occurred \(event.occurredAt), recorded \(event.recordedAt)")
                }
                entries.append(
                    .object([
                        ("record", RecordsCommand.json(record, previous: index > 0 ? chain[index - 1] : nil, context)),
                        (
                            "events",
                            .array(
                                events.map { event in
                                    .object([
                                        ("position", .unsigned(event.position)), ("type", .string(event.type)),
                                        ("streamId", .string(event.streamID)),
                                        ("occurredAt", .string(event.occurredAt.description)),
                                        ("recordedAt", .string(event.recordedAt.description)),
                                    ])
                                })
                        ),
                    ]))
            }
            if json {
                Terminal.write(
                    JSON.object([
                        ("exerciseId", .string(exercise.id)), ("kind", .string(chosen.description)),
                        ("records", .array(entries)),
                    ]).rendered + "\n")
            } else {
                Terminal.write(lines.joined(separator: "\n") + "\n")
            }
        }
    }
}
