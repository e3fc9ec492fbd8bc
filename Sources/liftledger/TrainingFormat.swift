import EventJournal
import Foundation
import Interchange
import Training

/// How training values are shown to people and written as JSON.
enum TrainingFormat {
    /// `100 kg`, `225 lb`, or `bw` for body weight.
    static func weight(_ weight: Weight?) -> String { weight?.description ?? "bw" }

    /// `3. 100 kg × 5  warmup  RPE 8  "note"`; an imported set with a time or a distance shows them, and a set of
    /// them alone (no weight or 0, no reps: a run, say) only them: `1. 30m 00s  5 km`. A distance is in the units that
    /// go with the profile's `unit` (see ``distance(millimetres:_:)``).
    static func set(_ set: LoggedSet, _ unit: MassUnit) -> String {
        "\(set.number). " + details(set.details, unit)
    }

    /// A set's details without its number: `100 kg × 5  warmup`, `30m 00s  5 km` (see ``set(_:_:)``).
    static func details(_ details: SetDetails, _ unit: MassUnit) -> String {
        // A set of a time or a distance and no reps shows no reps: nothing before them for a run, the load alone for a
        // weighted plank (`20 kg  1m 00s`).
        let isTimedAlone = details.reps == 0 && (details.durationSeconds != nil || details.distanceMeters != nil)
        let isUnloaded = (details.weight?.value.significand ?? 0) == 0
        var parts =
            !isTimedAlone
            ? ["\(weight(details.weight)) × \(details.reps)"] : isUnloaded ? [] : [weight(details.weight)]
        if details.kind != .normal { parts.append(details.kind.rawValue) }
        if let seconds = details.durationSeconds { parts.append(duration(seconds: Int64(seconds))) }
        if let metres = details.distanceMeters { parts.append(distance(metres: metres, unit)) }
        if let rpe = details.rpe { parts.append("RPE \(rpe)") }
        if let note = details.note { parts.append("\"\(note)\"") }
        return parts.joined(separator: "  ")
    }

    /// A distance for people, in units that go with the profile's mass `unit`, as an export in it gives distances:
    /// with kilograms, metres below a kilometre and kilometres from one on (`400 m`, `10.81 km`); with pounds, yards
    /// below a quarter of a mile and miles from there on (`54.7 yd`, `6.72 mi`). JSON and CSV give metres.
    static func distance(millimetres: Score, _ unit: MassUnit) -> String {
        switch unit {
        case .kilograms:
            millimetres < Score(1_000_000)
                ? "\(millimetres.text(per: 1_000, digits: 3)) m" : "\(millimetres.text(per: 1_000_000, digits: 2)) km"
        // A mile is 1,609,344 mm; a yard, 914.4, so tenths of a millimetre over 9,144.
        case .pounds:
            millimetres < Score(402_336)
                ? "\(yards(millimetres)) yd" : "\(millimetres.text(per: 1_609_344, digits: 2)) mi"
        }
    }

    /// Yards to one decimal, exactly: tenths of a millimetre over 9,144.
    private static func yards(_ millimetres: Score) -> String {
        let (tenths, overflow) = millimetres.numerator.multipliedReportingOverflow(by: 10)
        guard !overflow else {
            let yards = millimetres.doubleValue / 914.4
            return ExactDecimal(rounding: yards, toDigits: 1)?.description ?? String(yards)
        }
        return Score(tenths, over: millimetres.denominator).text(per: 9_144, digits: 1)
    }

    /// A set's distance in metres for people (see ``distance(millimetres:_:)``).
    static func distance(metres: ExactDecimal, _ unit: MassUnit) -> String {
        // Millimetres over a power of ten: a decimal of three places or more is its significand over 10^(scale − 3).
        var power: Int64 = 1
        for _ in 0..<max(Int(metres.scale) - 3, 0) { power *= 10 }
        var millimetres = metres.significand
        for _ in 0..<max(3 - Int(metres.scale), 0) {
            let (scaled, overflow) = millimetres.multipliedReportingOverflow(by: 10)
            // Farther than any set goes (a thousand kilometres at most): as it is.
            guard !overflow else { return "\(metres) m" }
            millimetres = scaled
        }
        return distance(millimetres: Score(millimetres, over: power), unit)
    }

    /// A routine's reps for a set: `5-8`, or `10` when the range is one number.
    static func repRange(_ minimum: UInt32, _ maximum: UInt32) -> String {
        minimum == maximum ? "\(maximum)" : "\(minimum)-\(maximum)"
    }

    /// A workout's time trained as ``duration(seconds:)`` gives it, or `—` when it has none: one of an export that
    /// gave dates and no times (FitNotes) starts and finishes at the same instant, and `0s` would read as a time
    /// measured.
    static func workoutDuration(_ workout: WorkoutSummary) -> String {
        workout.hasNoTimeTrained ? "—" : duration(seconds: workout.durationSeconds)
    }

    /// `1h 05m 09s`, `4m 30s`, `45s`.
    static func duration(seconds: Int64) -> String {
        let hours = seconds / 3_600
        let minutes = seconds / 60 % 60
        let rest = seconds % 60
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : String(value) }
        if hours > 0 { return "\(hours)h \(two(minutes))m \(two(rest))s" }
        if minutes > 0 { return "\(minutes)m \(two(rest))s" }
        return "\(rest)s"
    }

    /// A weight as JSON: `{"value": "225", "unit": "lb", "kilograms": "102.05828325"}`, or null for body weight.
    static func json(_ weight: Weight?) -> JSON {
        guard let weight else { return .null }
        return .object([
            ("value", .string(weight.value.description)), ("unit", .string(weight.unit.rawValue)),
            ("kilograms", .string(weight.kilograms.description)),
        ])
    }

    static func json(_ set: LoggedSet) -> JSON {
        .object([
            ("set", .unsigned(UInt64(set.number))),
            ("exerciseId", .string(set.details.exerciseId)),
            ("weight", json(set.details.weight)),
            ("reps", .unsigned(UInt64(set.details.reps))),
            ("kind", .string(set.details.kind.rawValue)),
            ("rpe", set.details.rpe.map { .verbatim($0.description) } ?? .null),
            ("note", set.details.note.map(JSON.string) ?? .null),
            ("loggedAt", .string(set.loggedAt.description)),
            ("durationSeconds", set.details.durationSeconds.map { .unsigned(UInt64($0)) } ?? .null),
            ("distanceMeters", set.details.distanceMeters.map { .string($0.description) } ?? .null),
        ])
    }

    /// A routine's targets for an exercise as JSON fields, as `routine show --json` and `status --json` give them:
    /// `sets`, `minimumReps`, `maximumReps`, `restSeconds`.
    static func targetFields(_ target: RoutineExerciseAdded) -> [(String, JSON)] {
        [
            ("sets", .unsigned(UInt64(target.targetSets))),
            ("minimumReps", .unsigned(UInt64(target.minimumReps))),
            ("maximumReps", .unsigned(UInt64(target.maximumReps))),
            ("restSeconds", .unsigned(UInt64(target.restSeconds))),
        ]
    }

    /// An instant as `2026-11-22 18:05` in `timeZone`: ``Timestamp/localText(in:)`` to the minute.
    static func localTime(_ instant: Timestamp, in timeZone: TimeZone) -> String {
        String(instant.localText(in: timeZone).dropLast(3))
    }

    /// An instant in `timeZone` with its offset, as `--date` and `--at` take it: `2026-10-25T02:30:00+01:00`.
    static func withOffset(_ instant: Timestamp, in timeZone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ssxxx"
        return formatter.string(from: instant.date)
    }

    /// Says on standard error that the local time `text` comes twice in `timeZone`, as the clocks go back, that
    /// `taken` (its first pass, or with `tookSecond` its second) was taken, and how to give `other`, the other pass.
    static func noteTwice(_ text: String, in timeZone: TimeZone, taken: Timestamp, other: Timestamp, tookSecond: Bool) {
        let (pass, otherPass) = tookSecond ? ("second", "first") : ("first", "second")
        Terminal.writeError(
            Terminal.inert(
                "liftledger: note: \(text) comes twice in \(timeZone.identifier), as the clocks go back; this is the "
                    + "\(pass), \(withOffset(taken, in: timeZone)); for the \(otherPass), give "
                    + withOffset(other, in: timeZone)) + "\n")
    }
}

extension Timestamp {
    init(_ date: Date) {
        self.init(microsecondsSinceEpoch: Int64((date.timeIntervalSince1970 * 1_000_000).rounded()))
    }

    /// Reads an instant as given on the command line: RFC 3339, or a local `YYYY-MM-DD HH:MM` (or `YYYY-MM-DDTHH:MM`)
    /// in `timeZone`. A local time the clocks pass twice, going back, is its first pass, as imports read it.
    static func parse(_ text: String, in timeZone: TimeZone) -> Timestamp? { passes(text, in: timeZone)?.first }

    /// The instant `text` names, read as ``parse(_:in:)`` reads it, and the second pass of a local time the clocks
    /// pass twice, going back, if it is one.
    private static func passes(_ text: String, in timeZone: TimeZone) -> (first: Timestamp, second: Timestamp?)? {
        if let exact = Timestamp(rfc3339: text) { return (exact, nil) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        for format in ["yyyy-MM-dd HH:mm", "yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd'T'HH:mm:ss"] {
            formatter.dateFormat = format
            guard let date = formatter.date(from: text) else { continue }
            let read = Timestamp(date)
            let first = timeZone.firstPass(of: read)
            return (first, first == read ? nil : read)
        }
        return nil
    }

    /// Reads an instant given to `option` as ``parse(_:in:)`` does; when it cannot, says whether the local time is
    /// one the clocks skip in `timeZone` or cannot be read at all, and what `option` takes (`forms`).
    static func parse(_ text: String, in timeZone: TimeZone, option: String, forms: String) throws -> Timestamp {
        try passes(text, in: timeZone, option: option, forms: forms).first
    }

    /// Reads an instant given to `option` as ``parse(_:in:option:forms:)`` does, its first pass where the clocks pass
    /// the local time twice, and then says so on standard error, with both passes in RFC 3339: it was taken without a
    /// word.
    static func parseNotingRepeats(
        _ text: String, in timeZone: TimeZone, option: String, forms: String
    ) throws -> Timestamp {
        let passes = try passes(text, in: timeZone, option: option, forms: forms)
        if let second = passes.second {
            TrainingFormat.noteTwice(text, in: timeZone, taken: passes.first, other: second, tookSecond: false)
        }
        return passes.first
    }

    /// Reads an instant given to `option` as ``parse(_:in:option:forms:)`` does, with the second pass of a local time
    /// the clocks pass twice, going back, if it is one.
    static func passes(
        _ text: String, in timeZone: TimeZone, option: String, forms: String
    ) throws -> (first: Timestamp, second: Timestamp?) {
        if let passes = passes(text, in: timeZone) { return passes }
        // Read in a zone without clock changes, it is a time: one the clocks skip where the profile is.
        if parse(text, in: TimeZone(secondsFromGMT: 0)!) != nil {
            throw CLIError(
                message: "\(text) does not exist in \(timeZone.identifier): the clocks skip it",
                remedy: "give a time after the change, or an RFC 3339 time with its offset")
        }
        throw CLIError(message: "cannot read \(option) \(text.debugDescription)", remedy: "give \(forms)")
    }
}

extension JournalLocation {
    /// The training commands over this journal.
    func trainingLog() throws -> TrainingLog { try TrainingLog(journal: try open()) }
}

/// A count with its noun, in the plural unless the count is one: `1 set`, `3 sets`, `1 warm-up`.
func counted(_ count: some BinaryInteger, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

extension TrainingLog {
    /// The exercise as the catalog names it, so that an alias or a near spelling shows what it was taken for (`ohp`
    /// is Standing Military Press); the text itself when the catalog does not know it.
    func catalogName(_ typed: String) throws -> String {
        try query { try $0.catalog() }.lookup(typed)?.name ?? typed
    }

    /// The exercise `typed` names, for a command to pass on (see ``ExerciseCatalog/reference(_:)``).
    func exerciseReference(_ typed: String) throws -> String {
        try query { try $0.catalog() }.reference(typed)
    }
}

extension ExerciseCatalog {
    /// The exercise `typed` names, for a command to pass on: as typed when an exercise has that name (or id, or alias),
    /// else the id of the one an import takes another app's name for (`Bench Press (Barbell)`), or of the one its
    /// plural names (`deadlifts`), else as typed, for the command to refuse with the closest names.
    func reference(_ typed: String) -> String {
        guard lookup(typed) == nil, let exercise = exercise(appName: typed) ?? exercise(pluralOf: typed) else {
            return typed
        }
        return exercise.id
    }
}
