import ArgumentParser
import EventJournal
import Foundation
import Interchange
import Training

struct StreakCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "streak", abstract: "Show the current and the longest streak.",
        discussion: """
            By the rules streak.kind (weekly or daily), streak.weekly-target and week.start. Days are local days in \
            the profile's time zone; in a daily streak, days the schedule marks as rest do not break it. Today (or \
            this week) is not over, so not having trained yet does not end the streak.
            """)

    @OptionGroup var location: JournalLocation
    @OptionGroup var asOf: AsOfOption

    @Flag(help: "Print JSON (fields documented in docs/JSON.md).")
    var json = false

    func run() async throws {
        try location.query(asOf: asOf) { context in
            let streak = try context.snapshot.streak(today: context.today)
            if json {
                Terminal.write(Self.json(streak, today: context.today).rendered + "\n")
                return
            }
            let unit = streak.kind == .weekly ? "week" : "day"
            func describe(_ count: Int, _ span: ClosedRange<LocalDate>?) -> String {
                "\(count) \(unit)\(count == 1 ? "" : "s")"
                    + (span.map { " (\(Self.spanText($0, weekly: streak.kind == .weekly)))" } ?? "")
            }
            var text = "current: \(describe(streak.current, streak.currentSpan))\n"
            text += "longest: \(describe(streak.longest, streak.longestSpan))\n"
            if streak.kind == .weekly {
                text +=
                    "a week counts with \(counted(streak.weeklyTarget, "workout")) or more\n"
            }
            Terminal.write(text)
        }
    }

    /// A streak's days or weeks for people: `2026-03-02 to 2026-03-05`, `2026-03-02`; weeks by their first days,
    /// `weeks of 2026-03-02 to 2026-03-09`, `the week of 2026-03-02`.
    static func spanText(_ span: ClosedRange<LocalDate>, weekly: Bool) -> String {
        let single = span.lowerBound == span.upperBound
        if weekly {
            return single ? "the week of \(span.lowerBound)" : "weeks of \(span.lowerBound) to \(span.upperBound)"
        }
        return single ? span.lowerBound.description : "\(span.lowerBound) to \(span.upperBound)"
    }

    static func json(_ streak: Streak, today: LocalDate) -> JSON {
        func date(_ value: LocalDate?) -> JSON { value.map { .string($0.description) } ?? .null }
        return .object([
            ("kind", .string(streak.kind.rawValue)),
            ("current", .integer(Int64(streak.current))),
            ("longest", .integer(Int64(streak.longest))),
            ("currentFrom", date(streak.currentSpan?.lowerBound)),
            ("currentTo", date(streak.currentSpan?.upperBound)),
            ("longestFrom", date(streak.longestSpan?.lowerBound)),
            ("longestTo", date(streak.longestSpan?.upperBound)),
            ("weeklyTarget", .unsigned(UInt64(streak.weeklyTarget))),
            ("today", .string(today.description)),
        ])
    }
}

struct BalanceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "balance", abstract: "Show sets and volume per muscle over recent weeks, and what is lacking.",
        discussion: """
            A working set counts balance.primary (1) for each primary muscle of its exercise and balance.secondary \
            (0.5) for each secondary one. Push and pull come from the exercise's force; upper and lower from its \
            muscles. A trained muscle below balance.flag-below (0.5) of the median trained muscle's sets is flagged.
            """)

    @OptionGroup var location: JournalLocation
    @OptionGroup var asOf: AsOfOption
    @OptionGroup var output: OutputOptions

    @Option(parsing: .unconditional, help: "How many weeks, up to and including this one (1 to 520).")
    var weeks = 4

    func validate() throws {
        guard (1...520).contains(weeks) else { throw ValidationError("--weeks takes 1 to 520") }
    }

    func run() async throws {
        try location.query(asOf: asOf) { context in
            let balance = try context.snapshot.balance(weeks: weeks, today: context.today)
            let withoutMuscles = try context.snapshot.setsWithoutMuscles(weeks: weeks, today: context.today)
            // Sets to three decimals, as the rules weigh them (balance.secondary 0.125), and as `why balance` shows them.
            func number(_ value: Double, _ digits: Int = 3) -> String {
                let factor = pow(10.0, Double(digits))
                return String((value * factor).rounded() / factor)
            }
            func ratio(_ value: Double?) -> JSON { value.map { .verbatim(number($0, 2)) } ?? .null }
            if output.json {
                Terminal.write(
                    JSON.object([
                        ("weeks", .array(balance.weeks.map { .string($0.description) })),
                        (
                            "muscles",
                            .array(
                                balance.muscles.map { muscle in
                                    .object([
                                        ("muscle", .string(muscle.name)), ("sets", .verbatim(number(muscle.sets, 3))),
                                        ("weeklySets", .array(muscle.weeklySets.map { .verbatim(number($0, 3)) })),
                                        ("volumeKilograms", .verbatim(kilograms(muscle.volumeMilligrams))),
                                        ("flagged", .bool(muscle.isFlagged)),
                                    ])
                                })
                        ),
                        ("medianSets", .verbatim(number(balance.medianSets, 3))),
                        ("pushSets", .verbatim(number(balance.pushSets, 3))),
                        ("pullSets", .verbatim(number(balance.pullSets, 3))),
                        ("pushPullRatio", ratio(balance.pushPullRatio)),
                        ("upperSets", .verbatim(number(balance.upperSets, 3))),
                        ("lowerSets", .verbatim(number(balance.lowerSets, 3))),
                        ("upperLowerRatio", ratio(balance.upperLowerRatio)),
                        (
                            "setsWithoutMuscles",
                            .array(
                                withoutMuscles.map {
                                    .object([
                                        ("exerciseId", .string($0.exerciseId)), ("name", .string($0.name)),
                                        ("sets", .integer(Int64($0.sets))),
                                    ])
                                })
                        ),
                    ]).rendered + "\n")
                return
            }
            if output.csv {
                Terminal.write(CSV.line(["muscle", "sets", "volume_kg", "flagged"]))
                for muscle in balance.muscles {
                    Terminal.write(
                        CSV.line([
                            muscle.name, number(muscle.sets, 3), kilograms(muscle.volumeMilligrams),
                            String(muscle.isFlagged),
                        ]))
                }
                return
            }
            var text = "weeks \(balance.weeks.first!) to \(balance.weeks.last!) (\(balance.weeks.count))\n"
            text += padded("muscle", 14) + padded("sets", 8) + padded("volume \(context.unit.rawValue)", 12) + "\n"
            for muscle in balance.muscles where muscle.sets > 0 {
                text +=
                    padded(muscle.name, 14) + padded(number(muscle.sets), 8)
                    + padded(context.mass(muscle.volumeMilligrams), 12)
                    + (muscle.isFlagged ? "low" : "") + "\n"
            }
            let uncounted = balance.muscles.filter { $0.sets == 0 }.map(\.name)
            // Trained or not: a role the rules weigh at 0 counts no sets.
            if !uncounted.isEmpty { text += "no sets counted: \(uncounted.joined(separator: ", "))\n" }
            text += "push/pull: \(number(balance.pushSets)) / \(number(balance.pullSets)) sets"
            text += balance.pushPullRatio.map { " = \(number($0, 2))\n" } ?? "\n"
            text += "upper/lower: \(number(balance.upperSets)) / \(number(balance.lowerSets)) sets"
            text += balance.upperLowerRatio.map { " = \(number($0, 2))\n" } ?? "\n"
            // Left out above, not silently: an imported custom exercise has no muscles until it is given some, or
            // mapped to the catalog's.
            if !withoutMuscles.isEmpty {
                let first = Shell.word(withoutMuscles[0].name)
                text +=
                    "not counted, as their exercise has no muscles: "
                    + withoutMuscles.map { "\($0.name) (\($0.sets) set\($0.sets == 1 ? "" : "s"))" }.joined(
                        separator: ", ")
                    + "; give them some (liftledger exercise edit \(first) --primary MUSCLES), or import again with "
                    + "--map to map them to catalog exercises (docs/IMPORT.md)\n"
            }
            Terminal.write(text)
        }
    }
}

struct ProgressCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "progress",
        abstract: "Show an exercise's sessions: best estimated 1RM, top weight, volume, and time and distance.")

    @OptionGroup var location: JournalLocation
    @OptionGroup var asOf: AsOfOption
    @OptionGroup var output: OutputOptions

    @Argument(help: "The exercise.")
    var exercise: [String]

    @Option(
        parsing: .unconditional,
        help: "Only the last N sessions (1 or more); the estimate's change and a plateau are worked out from all.")
    var last: Int?

    func validate() throws {
        if let last, last < 1 { throw ValidationError("--last takes 1 or more sessions") }
    }

    func run() async throws {
        try location.query(asOf: asOf) { context in
            let exercise = try context.exercise(exercise.joined(separator: " "))
            let progress = try context.snapshot.progress(of: exercise.id)
            let plateau = progress.plateau(window: Int(context.snapshot.rules.plateauSessions))
            let sessions = last.map { Array(progress.sessions.suffix($0)) } ?? progress.sessions
            func estimate(_ session: SessionFact) -> String? {
                session.bestEstimate?.text(per: 1_000_000, digits: 2)
            }
            func seconds(_ session: SessionFact) -> Int64 { Int64(clamping: session.seconds) }
            func metres(_ session: SessionFact) -> String {
                ExactDecimal(significand: session.distanceMillimetres, scale: 3)!.description
            }
            if output.json {
                Terminal.write(
                    JSON.object([
                        ("exerciseId", .string(exercise.id)), ("name", .string(exercise.name)),
                        (
                            "sessions",
                            .array(
                                sessions.map { session in
                                    .object([
                                        ("workoutId", .string(session.workoutId)),
                                        ("date", .string(context.date(session.startedAt).description)),
                                        ("e1rmKilograms", estimate(session).map(JSON.string) ?? .null),
                                        (
                                            "topWeightKilograms",
                                            session.topWeight.map { .string(kilograms($0)) } ?? .null
                                        ),
                                        ("volumeKilograms", .string(kilograms(session.volume))),
                                        ("workingSets", .unsigned(UInt64(session.workingSets))),
                                        ("reps", .unsigned(UInt64(session.reps))),
                                        ("seconds", .unsigned(session.seconds)),
                                        ("distanceMeters", .string(metres(session))),
                                    ])
                                })
                        ),
                        (
                            "e1rmChangeKilograms",
                            progress.estimateChange.map { .string($0.text(per: 1_000_000, digits: 2)) }
                                ?? .null
                        ),
                        ("plateau", .bool(plateau != nil)),
                    ]).rendered + "\n")
                return
            }
            if output.csv {
                Terminal.write(
                    CSV.line([
                        "date", "workout", "e1rm_kg", "top_weight_kg", "volume_kg", "working_sets", "reps", "seconds",
                        "distance_m",
                    ]))
                for session in sessions {
                    Terminal.write(
                        CSV.line([
                            context.date(session.startedAt).description, session.workoutId, estimate(session) ?? "",
                            session.topWeight.map(kilograms) ?? "", kilograms(session.volume),
                            String(session.workingSets), String(session.reps), String(session.seconds),
                            metres(session),
                        ]))
                }
                return
            }
            var text =
                "\(exercise.name): \(counted(progress.sessions.count, "session"))"
                + (sessions.count < progress.sessions.count ? ", the last \(sessions.count) shown\n" : "\n")
            let unit = context.unit.rawValue
            // Estimates and top weights to two decimals, as `prs` gives them; volumes to one, as `history` gives them.
            func estimateText(_ session: SessionFact) -> String? {
                session.bestEstimate.map { context.unit.text(milligrams: $0, digits: 2) }
            }
            // As wide as the longest id, as in `history`.
            let idWidth = columnWidth(sessions.map(\.workoutId), least: 12)
            text +=
                padded("date", 12) + padded("workout", idWidth) + padded("e1RM \(unit)", 10)
                + padded("top \(unit)", 10)
            // Time and distance only for an exercise that has them: a run's or a plank's.
            let timed = sessions.contains { $0.seconds > 0 }
            let distance = sessions.contains { $0.distanceMillimetres > 0 }
            text += padded("volume \(unit)", 11) + (timed ? padded("time", 12) : "")
            // Reps too: a body-weight exercise's sessions have no estimate, top weight nor volume.
            text += (distance ? padded("distance", 12) : "") + padded("sets", 6) + "reps\n"
            for session in sessions {
                text +=
                    padded(context.date(session.startedAt).description, 12) + padded(session.workoutId, idWidth)
                    + padded(estimateText(session) ?? "-", 10)
                    + padded(session.topWeight.map { context.mass($0, digits: 2) } ?? "-", 10)
                    + padded(context.mass(session.volume), 11)
                    + (timed
                        ? padded(session.seconds > 0 ? TrainingFormat.duration(seconds: seconds(session)) : "-", 12)
                        : "")
                    + (distance
                        ? padded(
                            session.distanceMillimetres > 0
                                ? TrainingFormat.distance(millimetres: Score(session.distanceMillimetres), context.unit)
                                : "-", 12) : "")
                    + padded(String(session.workingSets), 6) + String(session.reps) + "\n"
            }
            if let change = progress.estimateChange {
                text += "estimated 1RM change: \(context.unit.text(milligrams: change, digits: 2)) \(unit)\n"
            }
            if let plateau {
                text +=
                    "plateau: no estimate above \(estimateText(plateau.bestBefore) ?? "-") \(unit) in the last "
                    + "\(plateau.sessions.count) sessions\n"
            }
            Terminal.write(text)
        }
    }
}

struct InsightsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "insights", abstract: "Show findings about recent training, each with the data behind it.",
        discussion: """
            Plateaus (no higher estimated 1RM over plateau.sessions sessions), strength gains over 12 weeks, \
            consistency over 8 weeks, weekly volume, and a week with over 1.5 times the volume of the 4 before it.
            """)

    @OptionGroup var location: JournalLocation
    @OptionGroup var asOf: AsOfOption

    @Flag(help: "Print one JSON object per insight, one per line (fields documented in docs/JSON.md).")
    var json = false

    func run() async throws {
        try location.query(asOf: asOf) { context in
            // JSON gives every mass in kilograms, its messages' too.
            let insights = try context.snapshot.insights(
                today: context.today, names: context.name, unit: json ? .kilograms : context.unit)
            if json {
                for insight in insights { Terminal.write(Self.json(insight).rendered + "\n") }
                return
            }
            if insights.isEmpty { Terminal.write("no insights yet: train for a few weeks\n") }
            for insight in insights {
                Terminal.write("\(insight.kind.rawValue): \(insight.message)\n")
                let evidence = insight.evidence.map { item in
                    let value =
                        item.milligrams.map {
                            "\(context.unit.text(milligrams: $0, digits: 2)) \(context.unit.rawValue)"
                        }
                        ?? item.value
                    return "\(item.date.map { "\($0) " } ?? "")\(item.label) \(value)"
                        + (item.workoutId.map { " (\($0))" } ?? "")
                }
                Terminal.write("  " + evidence.joined(separator: "; ") + "\n")
            }
        }
    }

    static func json(_ insight: Insight) -> JSON {
        .object([
            ("kind", .string(insight.kind.rawValue)),
            ("exerciseId", insight.exerciseId.map(JSON.string) ?? .null),
            ("message", .string(insight.message)),
            (
                "evidence",
                .array(
                    insight.evidence.map { item in
                        .object([
                            ("label", .string(item.label)), ("value", .string(item.value)),
                            ("workoutId", item.workoutId.map(JSON.string) ?? .null),
                            ("date", item.date.map { .string($0.description) } ?? .null),
                        ])
                    })
            ),
        ])
    }
}
