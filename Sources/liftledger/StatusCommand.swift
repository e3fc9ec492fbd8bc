import ArgumentParser
import EventJournal
import Foundation
import Interchange
import Training

struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show the workout in progress, as it stands now.",
        discussion: """
            Elapsed time leaves pauses out; the rest timer counts down to its recorded end, so it is right after a \
            crash too. A session idle for longer than --stale-after is shown as stale, to finish or discard. \
            --json fields are documented in docs/JSON.md.
            """)

    @OptionGroup var location: JournalLocation

    @Flag(help: "Print JSON (fields documented in docs/JSON.md).")
    var json = false

    @Option(
        help: ArgumentHelp(
            "Show the session as at this instant ('YYYY-MM-DD HH:MM' in the profile's time zone, or an RFC 3339 "
                + "time; not before its last activity) instead of now.",
            valueName: "time"))
    var now: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Idle seconds after which a session is stale, 60 to 604800 (default: the rule session.stale-after).",
            valueName: "seconds"))
    var staleAfter: Int64?

    func validate() throws {
        if let staleAfter, !Rules.staleAfterRange.contains(staleAfter) {
            throw ValidationError("--stale-after takes 60 to 604800 seconds, as the rule session.stale-after does")
        }
    }

    func run() async throws {
        // Read here rather than in validate(): a time the command reads itself exits 1, as dates do (README.md).
        let log = try location.trainingLog()
        // Read as finish --at and profile set --at read a time.
        let instant = try now.map { text in
            try Timestamp.parseNotingRepeats(
                text, in: try log.query { $0.rules.timeZone }, option: "--now",
                forms: "'YYYY-MM-DD HH:MM' in the profile's time zone, or an RFC 3339 time")
        }
        let session = try log.activeSession(at: instant, staleAfterSeconds: staleAfter)
        // The session is the one that stands now: a time before its last activity would show what had not happened yet.
        if let instant, let last = session?.workout.lastActivityAt, instant < last {
            throw CLIError(
                message: "--now \(now!) is before the workout's last activity, at \(last)",
                remedy: "give a time at or after it; status shows the session as it stands, not as it was")
        }
        if json {
            Terminal.write((session.map(Self.json) ?? .object([("active", .bool(false))])).rendered + "\n")
        } else if let session {
            let (timeZone, unit) = try log.query { ($0.rules.timeZone, try $0.profileFields().unit ?? .kilograms) }
            Terminal.write(Self.text(session, timeZone: timeZone, unit: unit))
        } else {
            Terminal.write("no workout in progress; start one with liftledger start [ROUTINE]\n")
        }
    }

    static func json(_ session: ActiveSession) -> JSON {
        let workout = session.workout
        let rest: JSON =
            session.rest.map { timer in
                .object([
                    ("startedAt", .string(timer.startedAt.description)),
                    ("durationSeconds", .unsigned(UInt64(timer.durationSeconds))),
                    ("endsAt", .string(timer.endsAt.description)),
                    ("remainingSeconds", .integer(timer.remainingSeconds(at: session.now))),
                    ("afterSet", timer.afterSet.map { .unsigned(UInt64($0)) } ?? .null),
                ])
            } ?? .null
        let exercises = session.exercises.map { exercise -> JSON in
            .object([
                ("exerciseId", .string(exercise.exerciseId)),
                ("name", .string(exercise.name)),
                ("sets", .array(exercise.sets.map(TrainingFormat.json))),
                (
                    "lastTime",
                    exercise.lastTime.map { last in
                        .object([
                            ("workoutId", .string(last.workoutId)),
                            ("startedAt", .string(last.startedAt.description)),
                            ("sets", .array(last.sets.map(TrainingFormat.json))),
                        ])
                    } ?? .null
                ),
                (
                    "suggestedNext",
                    exercise.suggestion.map { suggestion in
                        .object([
                            ("weight", TrainingFormat.json(suggestion.weight)),
                            ("reps", .unsigned(UInt64(suggestion.reps))),
                            ("reason", .string(suggestion.reason)),
                        ])
                    } ?? .null
                ),
                ("target", exercise.target.map { .object(TrainingFormat.targetFields($0)) } ?? .null),
            ])
        }
        return .object([
            ("active", .bool(true)),
            ("workoutId", .string(workout.id)),
            ("name", .string(workout.name)),
            ("routineId", workout.routineId.map(JSON.string) ?? .null),
            ("startedAt", .string(workout.startedAt.description)),
            ("now", .string(session.now.description)),
            ("paused", .bool(session.isPaused)),
            ("elapsedSeconds", .integer(session.elapsedSeconds)),
            ("lastActivityAt", .string(workout.lastActivityAt.description)),
            ("staleAfterSeconds", .integer(session.staleAfterSeconds)),
            ("stale", .bool(session.isStale)),
            ("choices", .array(Self.choices(session).map(JSON.string))),
            ("rest", rest),
            ("exercises", .array(exercises)),
        ])
    }

    /// What a stale session offers: to finish it (when it has a set: `finish` refuses one with none) or discard it.
    static func choices(_ session: ActiveSession) -> [String] {
        guard session.isStale else { return [] }
        return session.workout.countedSets.isEmpty ? ["discard"] : ["finish", "discard"]
    }

    static func text(_ session: ActiveSession, timeZone: TimeZone, unit: MassUnit) -> String {
        let workout = session.workout
        var lines = [
            "\(workout.name) (\(workout.id)), started \(TrainingFormat.localTime(workout.startedAt, in: timeZone)), "
                + "\(TrainingFormat.duration(seconds: session.elapsedSeconds))\(session.isPaused ? ", paused" : "")"
        ]
        if session.isStale {
            let idle = (session.now.microsecondsSinceEpoch - workout.lastActivityAt.microsecondsSinceEpoch) / 1_000_000
            lines.append(
                "stale: nothing done in it for \(TrainingFormat.duration(seconds: idle)); "
                    + (Self.choices(session).contains("finish")
                        ? "finish it as of its last set (liftledger finish --at last) or discard it "
                            + "(liftledger discard)"
                        : "it has no sets: discard it (liftledger discard)"))
        }
        if let rest = session.rest {
            let left = rest.remainingSeconds(at: session.now)
            lines.append(left > 0 ? "rest: \(TrainingFormat.duration(seconds: left)) left" : "rest: over, go")
        }
        if session.exercises.isEmpty { lines.append("no exercises yet; add one with liftledger add EXERCISE") }
        for (index, exercise) in session.exercises.enumerated() {
            // With the routine's targets: the working sets done of its sets (a missed lift is none), its reps and
            // rest.
            let target = exercise.target.map { target in
                let done = exercise.setsTowardTarget
                let reps = TrainingFormat.repRange(target.minimumReps, target.maximumReps)
                return
                    ": \(done) of \(target.targetSets) sets of \(reps) \(target.maximumReps == 1 ? "rep" : "reps"), rest "
                    + TrainingFormat.duration(seconds: Int64(target.restSeconds))
            }
            lines.append("\(index + 1). \(exercise.name)\(target ?? "")")
            lines += exercise.sets.map { "   " + TrainingFormat.set($0, unit) }
            if let last = exercise.lastTime {
                let sets = last.sets.map { TrainingFormat.details($0.details, unit) }
                lines.append(
                    "   last time (\(TrainingFormat.localTime(last.startedAt, in: timeZone).prefix(10))): "
                        + sets.joined(separator: ", "))
            }
            if let next = exercise.suggestion {
                lines.append("   next: \(TrainingFormat.weight(next.weight)) × \(next.reps) (\(next.reason))")
            } else if let target = exercise.target, exercise.routineSetsDone {
                lines.append("   done: the routine's \(target.targetSets) \(target.targetSets == 1 ? "set" : "sets")")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
