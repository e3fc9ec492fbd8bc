import Interchange
import Training

/// `why balance MUSCLE`: the sets behind a muscle's figure in `balance`.
extension WhyCommand {
    /// The muscle `why balance MUSCLE` names; nil when the words name something else (the exercise Balance Board, say).
    var balanceMuscle: String? {
        guard words.count > 1, words[0].lowercased() == "balance" else { return nil }
        let muscle = words.dropFirst().joined(separator: " ").lowercased()
        return ExerciseCatalog.muscleNames.contains(muscle) ? muscle : nil
    }

    /// The error for `why balance WORDS` when the words name neither a muscle nor an exercise.
    func unknownMuscle() -> CLIError {
        CLIError(
            message:
                "\"\(words.dropFirst().joined(separator: " "))\" is no muscle, and \"\(words.joined(separator: " "))\" "
                + "no exercise",
            remedy: "why balance takes a muscle, one of: " + ExerciseCatalog.muscleNames.joined(separator: ", "))
    }

    func explainBalance(of muscle: String, _ context: QueryContext) throws {
        let weeks = weeks ?? 4
        let behind = try context.snapshot.setsBehind(muscle: muscle, weeks: weeks, today: context.today)
        let balance = try context.snapshot.balance(weeks: weeks, today: context.today)
        func number(_ value: Double) -> String { String((value * 1_000).rounded() / 1_000) }
        // Compared as printed: `balance` adds its weeks up in binary fractions, this in thousandths.
        let shown = number(balance.muscles.first { $0.name == muscle }?.sets ?? 0)
        if json {
            Terminal.write(
                JSON.object([
                    ("muscle", .string(muscle)), ("weeks", .array(behind.weeks.map { .string($0.description) })),
                    ("sets", .verbatim(number(behind.sets))), ("balanceSets", .verbatim(shown)),
                    ("lines", .array(behind.lines.map { Self.json($0, context) })),
                ]).rendered + "\n")
            return
        }
        let rules = context.snapshot.rules
        var lines = [
            "\(muscle), \(counted(weeks, "week")) from \(behind.weeks.first?.description ?? ""): "
                + "\(number(behind.sets)) sets weighed (balance.primary \(rules.primaryMuscleWeight), "
                + "balance.secondary \(rules.secondaryMuscleWeight))"
        ]
        for line in behind.lines {
            let role = line.isPrimary ? "primary" : "secondary"
            lines.append(
                "  \(context.date(line.workout.startedAt)) \(line.workout.name) (\(line.workout.workoutId)): "
                    + "\(context.name(line.exerciseId)), \(role) × \(Self.weight(line)): "
                    + "\(counted(line.sets.count, "set")) = \(number(line.weighedSets))")
            for set in line.sets {
                let details = TrainingFormat.details(set.details, context.unit)
                lines.append("      set \(set.number): \(details), position \(set.position)")
            }
        }
        if shown != number(behind.sets) {
            lines.append(
                "balance counts \(shown): some of these workouts were folded while an exercise of theirs had "
                    + "other muscles")
        }
        Terminal.write(lines.joined(separator: "\n") + "\n")
    }

    /// What each of the line's sets counts, as a decimal: `1`, `0.5`.
    private static func weight(_ line: MuscleSets.Line) -> String {
        ExactDecimal(significand: line.milliWeight, scale: 3)!.description  // a scale of 3 is always in range
    }

    private static func json(_ line: MuscleSets.Line, _ context: QueryContext) -> JSON {
        .object([
            ("date", .string(context.date(line.workout.startedAt).description)),
            ("workoutId", .string(line.workout.workoutId)), ("workoutName", .string(line.workout.name)),
            ("exerciseId", .string(line.exerciseId)), ("name", .string(context.name(line.exerciseId))),
            ("role", .string(line.isPrimary ? "primary" : "secondary")),
            ("weight", .verbatim(weight(line))),
            ("weighedSets", .verbatim(String(line.weighedSets))),
            (
                "sets",
                .array(
                    line.sets.map { set in
                        .object([
                            ("set", .unsigned(UInt64(set.number))), ("weight", TrainingFormat.json(set.details.weight)),
                            ("reps", .unsigned(UInt64(set.details.reps))), ("kind", .string(set.details.kind.rawValue)),
                            ("position", .unsigned(set.position)), ("loggedAt", .string(set.loggedAt.description)),
                        ])
                    })
            ),
        ])
    }
}
