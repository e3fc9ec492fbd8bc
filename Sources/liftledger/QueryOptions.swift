import ArgumentParser
import EventJournal
import Foundation
import Interchange
import Training

/// `--as-of`, which every query takes: the answer as the journal stood at a position, or as of a date or instant.
struct AsOfOption: ParsableArguments {
    // Taken whatever it looks like, so that a value such as -1 is refused for what it is, not as an unknown option.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Answer as of a point of the past: a journal position (the journal as it stood then), a date YYYY-MM-DD "
                + "(the events that had happened by the end of that local day) or an RFC 3339 instant, under the "
                + "rules in force then.",
            valueName: "position|date|instant"))
    var asOf: String?

    func validate() throws { try requireValues(["--as-of": asOf]) }

    /// The point `asOf` names, reading a date in the time zone in force at that day's end: the end in `timeZone`,
    /// the current one, and then, when `zoneInForce` gives another zone at that instant, the end in that zone. On the
    /// day of a move east, neither zone is in force at its own end of the day (a move came between the two ends):
    /// the day then ends at the first instant that is a later day in the zone in force at it. Before it, every time
    /// read in the zone then falls on that day or before.
    func point(
        in timeZone: TimeZone, zoneInForce: (Timestamp) throws -> TimeZone
    ) throws -> TrainingReadModels.Point? {
        guard let point = try point(in: timeZone) else { return nil }
        guard date != nil, case .instant(let end) = point else { return point }
        let then = try zoneInForce(end)
        guard then != timeZone, case .instant(let endThen)? = try self.point(in: then) else { return point }
        if try zoneInForce(endThen) == then { return .instant(endThen) }
        // From two days before the earlier end (a day in every zone), stretch by stretch of one zone: in each, the day
        // after is later from the start of that day in its zone.
        let from = Timestamp(microsecondsSinceEpoch: min(end, endThen).microsecondsSinceEpoch - 2 * 86_400_000_000)
        let to = max(end, endThen)
        let starts = [from] + (try Self.changes(of: zoneInForce, from: from, to: to))
        for (index, start) in starts.enumerated() {
            guard case .instant(let dayEnd)? = try self.point(in: try zoneInForce(start)) else { continue }
            let nextDay = max(start, Timestamp(microsecondsSinceEpoch: dayEnd.microsecondsSinceEpoch + 1))
            let stretchEnd = index + 1 < starts.count ? starts[index + 1] : to
            if nextDay < stretchEnd {
                return .instant(Timestamp(microsecondsSinceEpoch: nextDay.microsecondsSinceEpoch - 1))
            }
        }
        return .instant(to)
    }

    /// The instants between `from` and `to` at which the zone in force changes, in order, each found by halving (a
    /// change and its undoing between two halving points are passed over).
    private static func changes(
        of zoneInForce: (Timestamp) throws -> TimeZone, from: Timestamp, to: Timestamp
    ) throws -> [Timestamp] {
        guard try zoneInForce(from) != zoneInForce(to) else { return [] }
        guard to.microsecondsSinceEpoch - from.microsecondsSinceEpoch > 1 else { return [to] }
        let middle = Timestamp(
            microsecondsSinceEpoch: from.microsecondsSinceEpoch
                + (to.microsecondsSinceEpoch - from.microsecondsSinceEpoch) / 2)
        return try changes(of: zoneInForce, from: from, to: middle) + changes(of: zoneInForce, from: middle, to: to)
    }

    /// The point `asOf` names, reading a date in `timeZone`.
    private func point(in timeZone: TimeZone) throws -> TrainingReadModels.Point? {
        guard let asOf else { return nil }
        // Digits alone are a position (`+5` is none); one past any the journal can have answers as of the head.
        if isPosition { return .position(UInt64(asOf) ?? .max) }
        if let date = LocalDate(asOf) {
            // The last microsecond of that local day; the calendar knows days that start later than midnight.
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            guard
                let noon = calendar.date(
                    from: DateComponents(year: date.year, month: date.month, day: date.day, hour: 12)),
                let day = calendar.dateInterval(of: .day, for: noon)
            else {
                throw CLIError(
                    message: "cannot find the end of \(asOf) in \(timeZone.identifier)",
                    remedy: "give an RFC 3339 instant instead, such as \(asOf)T23:59:59Z")
            }
            return .instant(Timestamp(microsecondsSinceEpoch: Timestamp(day.end).microsecondsSinceEpoch - 1))
        }
        if let instant = Timestamp(rfc3339: asOf) { return .instant(instant) }
        throw CLIError(
            message: "cannot read --as-of \(asOf.debugDescription)",
            remedy: "give a journal position such as 1200, a date such as 2026-06-30, or an RFC 3339 instant")
    }

    /// The local date `asOf` names, when it is a date: the day the answer is for, whatever time zone the rules in
    /// force then had.
    var date: LocalDate? { isPosition ? nil : asOf.flatMap(LocalDate.init) }

    /// Whether `asOf` is a position: digits alone.
    private var isPosition: Bool { asOf?.isDigits ?? false }
}

extension TrainingReadModels.Point {
    /// Whether the point is an instant later than `now`, or a position past `head`.
    func isStillToCome(now: Timestamp, head: UInt64) -> Bool {
        switch self {
        case .instant(let instant): now < instant
        case .position(let position): head < position
        }
    }
}

/// A query's answer: read models brought up to date, or replayed as of a point of the past, with the local date the
/// answer is for.
struct QueryContext {
    let snapshot: TrainingSnapshot
    /// Today, or the day of the `--as-of` instant or of the record at the `--as-of` position, in the rules' time
    /// zone.
    let today: LocalDate
    let catalog: ExerciseCatalog
    /// The unit the profile gives weights in now (whatever `--as-of` asks): text gives masses in it.
    let unit: MassUnit
    /// The rules in force (as of `--as-of`, when given). The snapshot's are those its figures were worked out under,
    /// older ones while another process rebuilds the read models after a change.
    let rulesInForce: Rules
    /// Whether the answer is of read models replayed as of a point of the past (`--as-of` before the head).
    let isReplay: Bool

    var timeZone: TimeZone { snapshot.rules.timeZone }

    /// A mass given in milligrams, in the profile's unit, to `digits` decimals: `2550` (lb) for 1,156,660,543 mg.
    func mass(_ milligrams: Int64, digits: UInt8 = 1) -> String {
        unit.text(milligrams: Score(milligrams), digits: digits)
    }

    /// The exercise's name: the catalog's, else its id.
    func name(_ exerciseId: String) -> String { catalog.exercise(id: exerciseId)?.name ?? exerciseId }

    /// The exercise a user typed, or an error naming the closest ones.
    func exercise(_ text: String) throws -> Exercise {
        do {
            return try catalog.exercise(named: text, remedy: "see liftledger exercise list")
        } catch  where error.code == .unknownExercise {
            // Another app's name for it, as an import maps it (`Bench Press (Barbell)`), or its plural (`deadlifts`).
            if let exercise = catalog.exercise(appName: text) { return exercise }
            if let exercise = catalog.exercise(pluralOf: text) { return exercise }
            throw error
        }
    }

    /// The local date of `instant`.
    func date(_ instant: Timestamp) -> LocalDate {
        LocalDate(dayNumber: LocalDate.dayNumber(of: instant, in: timeZone))
    }
}

extension TrainingReadModels {
    /// Brings the read models up to the journal's head, as a query does before it answers, with a progress bar on a
    /// terminal; returns the rules in force. A rebuild that no change of the journal's rules explains is named on
    /// standard error, with its cause, since it took the time it took (and a dry run would otherwise compare a replay
    /// with read models it had just rebuilt, without a word).
    func catchUpSayingWhy() throws -> Rules {
        let built = try trainingCheckpoint()
        var bar = ProgressBar(label: "catching up")
        let rules: Rules
        do {
            rules = try catchUp { _, done, total in bar.update(done, of: total) }
        } catch {
            bar.finish()
            throw error
        }
        bar.finish()
        if let built, let current = try trainingCheckpoint(), current.slot != built.slot {
            switch try cause(ofRebuildFrom: built) {
            case .otherCode:
                Terminal.writeError(
                    "liftledger: note: rebuilt the read models, which another version of liftledger built, for this "
                        + "one: once after an upgrade, and each time two versions take turns on one journal\n")
            case .otherSystemTimeZone:
                Terminal.writeError(
                    "liftledger: note: rebuilt the read models, which another process built in its time zone, in this "
                        + "one's (\(TimeZone.system.identifier)); set one for every process with liftledger profile "
                        + "set --time-zone\n")
            case nil: break
            }
        }
        return rules
    }
}

extension JournalLocation {
    /// Runs `body` on the read models (as of `asOf`, when given), with a progress bar on a terminal for long work.
    func query<T>(asOf: AsOfOption, _ body: (QueryContext) throws -> T) throws -> T {
        let journal = try open()
        let models = try TrainingReadModels(journal: journal)
        if try models.answersByReplay { return try queryReplaying(journal, asOf: asOf, body) }
        let rules: Rules
        do {
            rules = try models.catchUpSayingWhy()
        } catch  where TrainingReadModels.cannotFollow(error) {
            Terminal.writeError(
                "liftledger: note: the disk is full, so the read models cannot follow the journal; this answer is "
                    + "replayed from it\n")
            return try queryReplaying(journal, asOf: asOf, body)
        }
        let now = Timestamp.now()
        guard let point = try asOf.pointInThePast(of: journal, timeZone: rules.timeZone, now: now) else {
            let replaying = {
                Terminal.writeError(
                    "liftledger: note: another process is rebuilding the read models, which another version of "
                        + "liftledger built; this answer is replayed from the journal\n")
            }
            return try models.readAnswering(inForce: rules, onReplay: replaying) { snapshot in
                try body(
                    QueryContext(
                        snapshot, today: LocalDate(now.date, in: snapshot.rules.timeZone), unit: nil,
                        rulesInForce: rules, isReplay: false))
            }
        }
        let unit = try models.read(rules: rules) { try $0.profileFields().unit } ?? .kilograms
        return try answer(asOf: asOf, point, of: journal, unit: unit, now: now, body)
    }

    /// `query` of a journal whose read models are missing or behind it and cannot be brought up to date (a read-only
    /// file system, a full disk), so the answer is replayed, as of the head too. The time zone `--as-of` is read in and
    /// the unit come from the journal's rules and profile events, without a replay of the rest.
    private func queryReplaying<T>(
        _ journal: Journal, asOf: AsOfOption, _ body: (QueryContext) throws -> T
    ) throws -> T {
        let now = Timestamp.now()
        if asOf.asOf != nil,
            let point = try asOf.pointInThePast(of: journal, timeZone: try Rules.load(from: journal).timeZone, now: now)
        {
            return try answer(
                asOf: asOf, point, of: journal, unit: try Profile.recorded(in: journal).unit, now: now, body)
        }
        var replaying = ProgressBar(label: "replaying")
        let current = try TrainingReadModels.replayed(journal, asOf: .position(.max)) { _, done, total in
            replaying.update(done, of: total)
        }
        replaying.finish()
        return try current.read { snapshot in
            try body(
                QueryContext(
                    snapshot, today: LocalDate(now.date, in: snapshot.rules.timeZone), unit: nil,
                    rulesInForce: snapshot.rules, isReplay: false))
        }
    }

    /// The answer as of `point`, a point of the past: from the read models replayed as they stood then.
    private func answer<T>(
        asOf: AsOfOption, _ point: TrainingReadModels.Point, of journal: Journal, unit: MassUnit, now: Timestamp,
        _ body: (QueryContext) throws -> T
    ) throws -> T {
        // The day the answer is for: the date given, the instant's, or the day the record at the position was written.
        let then: Timestamp
        switch point {
        case .instant(let instant): then = instant
        case .position(let position): then = try journal.record(at: position)?.recordedAt ?? now
        }
        var replaying = ProgressBar(label: "replaying")
        let replayed = try TrainingReadModels.replayed(journal, asOf: point) { _, done, total in
            replaying.update(done, of: total)
        }
        replaying.finish()
        return try replayed.read { snapshot in
            try body(
                QueryContext(
                    snapshot, today: asOf.date ?? LocalDate(then.date, in: snapshot.rules.timeZone), unit: unit,
                    rulesInForce: snapshot.rules, isReplay: true))
        }
    }
}

extension AsOfOption {
    /// The point `--as-of` names, read in `timeZone`, when it is one of the past; nil without `--as-of`, and for a
    /// position past the head or a time still to come, which answer as of the head, for today (docs/RULES.md).
    func pointInThePast(
        of journal: Journal, timeZone: TimeZone, now: Timestamp
    ) throws -> TrainingReadModels.Point? {
        let zoneInForce = { (instant: Timestamp) in
            try Rules.load(from: journal, firstZoneBeforeIt: true, including: { $0.occurredAt <= instant }).timeZone
        }
        guard let point = try self.point(in: timeZone, zoneInForce: zoneInForce) else { return nil }
        let head = try journal.head().position
        guard point.isStillToCome(now: now, head: head) else { return point }
        // An answer as of now reads like one of the past: a mistyped value would go unseen. Today, whose end is still
        // to come, is no mistake.
        if let date, date.dayNumber <= LocalDate(now.date, in: timeZone).dayNumber { return nil }
        Terminal.writeError("liftledger: note: " + stillToCome(head: head) + "\n")
        return nil
    }

    /// Why `--as-of`, a point still to come, answers as of now: a position past `head`, or a time after now; digits
    /// that read as a date without its dashes are pointed to the date.
    private func stillToCome(head: UInt64) -> String {
        let given = asOf ?? ""
        guard given.isDigits else { return "--as-of \(given) is still to come; answering as of now" }
        var note = "--as-of \(given) is past the journal's head (position \(head)); answering as of the head"
        if given.count == 8 {
            let digits = Array(given)
            let date = "\(String(digits[0..<4]))-\(String(digits[4..<6]))-\(String(digits[6..<8]))"
            if LocalDate(date) != nil { note += "; for the date, write \(date)" }
        }
        return note
    }
}

extension QueryContext {
    /// The context of an answer from `snapshot`, in `unit`, else the profile's unit, else kilograms.
    init(
        _ snapshot: TrainingSnapshot, today: LocalDate, unit: MassUnit?, rulesInForce: Rules, isReplay: Bool
    ) throws {
        self.init(
            snapshot: snapshot, today: today, catalog: try snapshot.catalog(),
            unit: try unit ?? snapshot.profileFields().unit ?? .kilograms, rulesInForce: rulesInForce,
            isReplay: isReplay)
    }
}

/// How a query prints: a table for people, JSON for programs, or CSV.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print JSON (fields documented in docs/JSON.md).")
    var json = false

    @Flag(help: "Print CSV with a header line.")
    var csv = false

    func validate() throws {
        if json && csv { throw ValidationError("--json and --csv cannot be used together; pick one") }
    }
}

/// Kilograms from milligrams, exactly: `102.058283`.
func kilograms(_ milligrams: Int64) -> String { ExactDecimal(significand: milligrams, scale: 6)!.description }

/// A text cell padded to `width` columns of a terminal, for tables.
func padded(_ text: String, _ width: Int) -> String {
    let columns = terminalColumns(text)
    return columns >= width ? text + " " : text + String(repeating: " ", count: width - columns)
}

/// The width of a table's column that holds `texts`: the widest of them and two columns of space, at least `least`
/// and at most `most` (a text wider than that is cut, see ``fitted(_:_:)``).
func columnWidth(_ texts: some Sequence<String>, least: Int, most: Int = .max) -> Int {
    max(least, min(most, (texts.map(terminalColumns).max() ?? 0) + 2))
}

/// `text` cut to at most `columns` columns of a terminal, an ellipsis ending it when it was cut.
func fitted(_ text: String, _ columns: Int) -> String {
    guard terminalColumns(text) > columns else { return text }
    guard columns > 0 else { return "" }
    var kept = ""
    var used = 0
    for character in text {
        let width = terminalColumns(String(character))
        guard used + width < columns else { break }
        kept.append(character)
        used += width
    }
    return kept + "…"
}

/// The columns `text` takes on a terminal: two for a character of the wide East Asian scripts (`下午锻炼` takes eight)
/// or an emoji shown as one (as a symbol followed by the emoji variation selector is: `☀️`), six for one written to a
/// terminal as its escape (`\u202e`, see ``Terminal/inert(_:)``), one for any other.
func terminalColumns(_ text: String) -> Int {
    text.reduce(0) { columns, character in
        guard let scalar = character.unicodeScalars.first else { return columns }
        if Terminal.standardOutputIsTerminal {
            let escaped = character.unicodeScalars.filter(Terminal.isActedOn).count
            if escaped > 0 { return columns + 6 * escaped + character.unicodeScalars.count - escaped }
        }
        let isWide =
            scalar.properties.isEmojiPresentation
            || (scalar.properties.isEmoji && character.unicodeScalars.contains("\u{FE0F}"))
            || [
                0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
                0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
                0xFFE0...0xFFE6, 0x20000...0x3FFFD,
            ].contains { $0.contains(scalar.value) }
        return columns + (isWide ? 2 : 1)
    }
}
