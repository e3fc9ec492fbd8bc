import Interchange
import Training

/// `why streak`: the days or weeks behind the current streak.
extension WhyCommand {
    /// Whether the words ask for the streak.
    var asksForStreak: Bool { words.count == 1 && words[0].lowercased() == "streak" }

    func explainStreak(_ context: QueryContext) throws {
        let days = try context.snapshot.streakDays(today: context.today)
        let streak = days.streak
        let weekly = streak.kind == .weekly
        if json {
            Terminal.write(
                JSON.object([
                    ("kind", .string(streak.kind.rawValue)), ("current", .integer(Int64(streak.current))),
                    ("weeklyTarget", .unsigned(UInt64(streak.weeklyTarget))),
                    ("today", .string(context.today.description)),
                    ("entries", .array(days.entries.map { Self.json($0, context) })),
                    ("breaker", days.breaker.map { Self.json($0, context) } ?? .null),
                ]).rendered + "\n")
            return
        }
        let unit = weekly ? "week" : "day"
        var lines = [
            "\(streak.kind) streak: \(streak.current) \(unit)\(streak.current == 1 ? "" : "s")"
                + (streak.currentSpan.map { " (\(StreakCommand.spanText($0, weekly: weekly)))" } ?? "")
                + (weekly
                    ? "; a week counts with \(counted(streak.weeklyTarget, "workout")) or more"
                    : "; a day counts when trained, and a scheduled rest day does not break it")
        ]
        func describe(_ entry: StreakDays.Entry) -> String {
            let label = weekly ? "week of \(entry.date)" : "\(entry.date)"
            let isOpen =
                entry.date == (weekly ? context.today.weekStart(context.snapshot.rules.weekStart) : context.today)
            var text = "\(label): \(counted(entry.workouts.count, "workout"))"
            if !entry.workouts.isEmpty {
                text +=
                    " ("
                    + entry.workouts.map { "\($0.workoutId) \(context.date($0.startedAt))" }
                    .joined(separator: ", ") + ")"
            }
            if entry.isRest { text += ", a scheduled rest day" }
            if !entry.counts && !entry.isRest { text += isOpen ? ", not over yet" : ", does not count" }
            return text
        }
        lines += days.entries.map { "  " + describe($0) }
        if let breaker = days.breaker {
            lines.append((streak.current > 0 ? "before it: " : "ended by: ") + describe(breaker))
        }
        Terminal.write(lines.joined(separator: "\n") + "\n")
    }

    private static func json(_ entry: StreakDays.Entry, _ context: QueryContext) -> JSON {
        .object([
            ("date", .string(entry.date.description)),
            (
                "workouts",
                .array(
                    entry.workouts.map { workout in
                        .object([
                            ("workoutId", .string(workout.workoutId)), ("name", .string(workout.name)),
                            ("date", .string(context.date(workout.startedAt).description)),
                        ])
                    })
            ),
            ("rest", .bool(entry.isRest)), ("counts", .bool(entry.counts)),
        ])
    }
}
