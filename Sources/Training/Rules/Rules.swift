import Crypto
import EventJournal
import Foundation

/// The rules the analytics follow: how a one-rep max is estimated, whether warm-ups count, how streaks and weeks are
/// counted, how muscles are weighed (docs/RULES.md). Rules are data: each change is a `RulesChanged` event in stream
/// `rules`, so the journal shows which rules were in force when, and a change rebuilds the read models it affects.
public struct Rules: Sendable, Equatable {
    public enum EstimateFormula: String, Sendable, CaseIterable {
        /// `w · (1 + r/30)`, as Hevy estimates.
        case epley
        /// `w · 36 / (37 − r)`, as Strong and wger estimate.
        case brzycki
        /// The RPE chart: `w / p(r + 10 − RPE)`, a set without RPE taken as RPE 10, as Liftosaur estimates.
        case rpe
    }

    public enum StreakKind: String, Sendable, CaseIterable {
        /// Consecutive weeks with at least `weeklyTarget` workouts.
        case weekly
        /// Consecutive local days trained; days the schedule marks as rest do not break it.
        case daily
    }

    public var estimateFormula = EstimateFormula.epley
    /// Sets with more reps than this give no estimate.
    public var estimateMaxReps: UInt32 = 12
    public var warmupsCountInVolume = false
    public var streakKind = StreakKind.weekly
    public var weeklyTarget: UInt32 = 1
    /// 0 for Monday through 6 for Sunday.
    public var weekStart = 0
    public var primaryMuscleWeight = ExactDecimal(1)
    public var secondaryMuscleWeight = ExactDecimal(significand: 5, scale: 1)!
    /// What a set counts for each primary (secondary) muscle of its exercise, in thousandths.
    var primaryMilliWeight: Int64 { primaryMuscleWeight.scaled(toDigits: 3) ?? 1_000 }
    var secondaryMilliWeight: Int64 { secondaryMuscleWeight.scaled(toDigits: 3) ?? 500 }
    /// A trained muscle with fewer sets over the weeks shown than this fraction of the median trained muscle's is
    /// flagged.
    public var flagBelowFraction = ExactDecimal(significand: 5, scale: 1)!
    public var staleAfterSeconds: Int64 = 7_200
    /// The idle seconds `staleAfterSeconds` may be set to: a minute to a week.
    public static let staleAfterRange: ClosedRange<Int64> = 60...604_800
    /// An exercise whose best estimate has not risen over this many sessions has plateaued.
    public var plateauSessions: UInt32 = 4
    /// Sets with more than 1,000 reps or 1,000 kg, or in workouts dated before 2000 or after they were recorded, stay
    /// out of records and volume.
    public var excludeImplausible = true
    /// The IANA time zone local days are counted in: the profile's, else the system's. Not a rule of its own, but
    /// the read models depend on it as they do on the rules.
    public var timeZoneIdentifier = TimeZone.system.identifier

    /// The time zone's name among the rules (`rules show --json`), though `profile set --time-zone` changes it.
    public static let timeZoneKey = "time-zone"
    public static let timeZoneSummary =
        "the profile's time zone, in which days and weeks are counted (liftledger profile set --time-zone)"

    public init() {}

    /// The time zone local days are counted in.
    public var timeZone: TimeZone { TimeZone.usable(timeZoneIdentifier) ?? .system }

    /// Every rule key, in the order `rules show` lists them.
    public static let keys: [RuleKey] = [
        RuleKey(
            "e1rm.formula", "how a one-rep max is estimated: epley, brzycki or rpe", accepts: "epley, brzycki or rpe",
            affects: .fold,
            text: { $0.estimateFormula.rawValue },
            parse: { rules, text in
                guard let formula = EstimateFormula(rawValue: text) else { return false }
                rules.estimateFormula = formula
                return true
            }),
        RuleKey(
            "e1rm.max-reps", "sets with more reps give no estimate (1 to 30)", accepts: "a whole number from 1 to 30",
            affects: .fold,
            text: { String($0.estimateMaxReps) },
            parse: { rules, text in
                guard let reps = UInt32(digits: text), (1...30).contains(reps) else { return false }
                rules.estimateMaxReps = reps
                return true
            }),
        RuleKey(
            "volume.warmups", "whether warm-up sets count in volume: include or exclude", accepts: "include or exclude",
            affects: .fold,
            text: { $0.warmupsCountInVolume ? "include" : "exclude" },
            parse: { rules, text in
                guard text == "include" || text == "exclude" else { return false }
                rules.warmupsCountInVolume = text == "include"
                return true
            }),
        RuleKey(
            "records.exclude-implausible",
            "keep implausible sets (over 1,000 reps, 1,000 kg or 1,000 km, dated before 2000 or later than recorded) "
                + "out of records and volume: on or off", accepts: "on or off", affects: .fold,
            text: { $0.excludeImplausible ? "on" : "off" },
            parse: { rules, text in
                guard text == "on" || text == "off" else { return false }
                rules.excludeImplausible = text == "on"
                return true
            }),
        RuleKey(
            "week.start", "the first day of a week: monday to sunday", accepts: "a day of the week, monday to sunday",
            affects: .fold,
            text: { LocalDate.weekdayNames[$0.weekStart].lowercased() },
            parse: { rules, text in
                guard let day = LocalDate.weekdayNames.firstIndex(where: { $0.lowercased() == text }) else {
                    return false
                }
                rules.weekStart = day
                return true
            }),
        RuleKey(
            "balance.primary", "what a set counts for its primary muscles (0 to 1)", accepts: Self.fractionAccepted,
            affects: .fold,
            text: { $0.primaryMuscleWeight.description },
            parse: { rules, text in
                guard let weight = fraction(text) else { return false }
                rules.primaryMuscleWeight = weight
                return true
            }),
        RuleKey(
            "balance.secondary", "what a set counts for its secondary muscles (0 to 1)", accepts: Self.fractionAccepted,
            affects: .fold,
            text: { $0.secondaryMuscleWeight.description },
            parse: { rules, text in
                guard let weight = fraction(text) else { return false }
                rules.secondaryMuscleWeight = weight
                return true
            }),
        RuleKey(
            "balance.flag-below",
            "flag a muscle whose sets in the weeks shown fall below this fraction of the median trained muscle's"
                + " (0 to 1)",
            accepts: Self.fractionAccepted, affects: .queries, text: { $0.flagBelowFraction.description },
            parse: { rules, text in
                guard let fraction = fraction(text) else { return false }
                rules.flagBelowFraction = fraction
                return true
            }),
        RuleKey(
            "streak.kind", "weekly (weeks with enough workouts) or daily (days trained, scheduled rest kept)",
            accepts: "weekly or daily", affects: .queries, text: { $0.streakKind.rawValue },
            parse: { rules, text in
                guard let kind = StreakKind(rawValue: text) else { return false }
                rules.streakKind = kind
                return true
            }),
        RuleKey(
            "streak.weekly-target", "workouts a week needs to count in a weekly streak (1 to 7)",
            accepts: "a whole number from 1 to 7", affects: .queries,
            text: { String($0.weeklyTarget) },
            parse: { rules, text in
                guard let target = UInt32(digits: text), (1...7).contains(target) else { return false }
                rules.weeklyTarget = target
                return true
            }),
        RuleKey(
            "plateau.sessions", "sessions of an exercise without a higher estimate that make a plateau (2 to 20)",
            accepts: "a whole number from 2 to 20", affects: .queries, text: { String($0.plateauSessions) },
            parse: { rules, text in
                guard let sessions = UInt32(digits: text), (2...20).contains(sessions) else { return false }
                rules.plateauSessions = sessions
                return true
            }),
        RuleKey(
            "session.stale-after", "idle seconds after which a workout in progress is shown as stale (60 to 604800)",
            accepts: "a whole number of seconds from 60 to 604800", affects: .queries,
            text: { String($0.staleAfterSeconds) },
            parse: { rules, text in
                guard let seconds = UInt32(digits: text).map(Int64.init), staleAfterRange.contains(seconds) else {
                    return false
                }
                rules.staleAfterSeconds = seconds
                return true
            }),
    ]

    /// The rule `key`, or nil.
    public static func key(_ name: String) -> RuleKey? { keys.first { $0.name == name } }

    /// Sets `key` to `value` when both are valid; returns false otherwise.
    @discardableResult
    public mutating func set(_ key: String, to value: String) -> Bool {
        guard let rule = Self.key(key) else { return false }
        return rule.parse(&self, value)
    }

    /// A digest of everything the training read models are folded under: the rules that change folds, and the
    /// time zone. Equal digests mean the read models need no rebuild.
    public var foldDigest: [UInt8] {
        var text = Self.keys.filter { $0.affects == .fold }.map { "\($0.name)=\($0.text(self))\n" }.joined()
        text += "\(Self.timeZoneKey)=\(timeZoneIdentifier)\n"
        return Array(SHA256.hash(data: Array(text.utf8)))
    }

    /// The rules the `rules` stream of `journal` sets, up to `position`, of the records `include` admits; the time
    /// zone is the system's.
    static func recorded(
        in journal: Journal, through position: UInt64 = .max, including include: (EventRecord) -> Bool = { _ in true }
    ) throws -> Rules {
        var rules = Rules()
        for record in try journal.readStream("rules") where record.position <= position && include(record) {
            guard let change = change(in: record) else { continue }
            rules.set(change.key, to: change.value)  // a key or value of a newer build is passed over
        }
        return rules
    }

    /// The change a `rules` stream record makes.
    static func change(in record: EventRecord) -> RulesChanged? {
        guard case .rulesChanged(let change)? = try? TrainingEvent.decode(record) else { return nil }
        return change
    }

    /// The time zone a `profile` stream record sets, when it sets one this machine knows.
    static func zone(setBy record: EventRecord) -> String? {
        guard case .profileUpdated(let update)? = try? TrainingEvent.decode(record), let zone = update.timeZone,
            TimeZone.usable(zone) != nil
        else { return nil }
        return zone
    }

    /// The rules in force after the records of `journal` up to `position` that `include` admits, with the time zone
    /// the profile had then (read from the `profile` stream: for questions about the past). With
    /// `firstZoneBeforeIt`, a time before the profile first set a zone is read in that first zone, not the system's,
    /// when the journal recorded it before any workout: a history imported after the zone was set predates it, and
    /// was read in it.
    public static func load(
        from journal: Journal, through position: UInt64 = .max, firstZoneBeforeIt: Bool = false,
        including include: (EventRecord) -> Bool = { _ in true }
    ) throws -> Rules {
        var rules = try recorded(in: journal, through: position, including: include)
        var first: (zone: String, position: UInt64)?
        var found = false
        for record in try journal.readStream("profile") {
            guard let zone = zone(setBy: record) else { continue }
            if first == nil { first = (zone, record.position) }
            guard record.position <= position && include(record) else { continue }
            rules.timeZoneIdentifier = zone
            found = true
        }
        if !found, firstZoneBeforeIt, let first, try !journal.hasWorkout(before: first.position) {
            rules.timeZoneIdentifier = first.zone
        }
        return rules
    }

    /// What the rules that take a fraction accept.
    private static let fractionAccepted = "a number from 0 to 1 with at most three decimals"

    private static func fraction(_ text: String) -> ExactDecimal? {
        guard let value = ExactDecimal(text), !value.isNegative, !(ExactDecimal(1) < value), value.scale <= 3 else {
            return nil
        }
        return value
    }
}

/// One rule: its key, what it means, and how its value is read and written.
public struct RuleKey: Sendable {
    public enum Affects: Sendable {
        /// Read models are folded under it: a change rebuilds them.
        case fold
        /// Only queries read it: a change takes effect at once.
        case queries
    }

    public let name: String
    public let summary: String
    /// The values it takes, as a remedy names them ("a whole number from 1 to 30").
    public let accepts: String
    public let affects: Affects
    let text: @Sendable (Rules) -> String
    let parse: @Sendable (inout Rules, String) -> Bool

    init(
        _ name: String, _ summary: String, accepts: String, affects: Affects,
        text: @escaping @Sendable (Rules) -> String, parse: @escaping @Sendable (inout Rules, String) -> Bool
    ) {
        self.name = name
        self.summary = summary
        self.accepts = accepts
        self.affects = affects
        self.text = text
        self.parse = parse
    }

    /// The rule's value in `rules`, as text.
    public func value(in rules: Rules) -> String { text(rules) }

    /// The default value.
    public var defaultValue: String { text(Rules()) }
}

extension TimeZone {
    /// The time zone `identifier` names, when this machine knows it and it lies within the offsets zones have (UTC−12
    /// to UTC+14): Foundation makes `GMT+15` a zone that its date formatting then cannot handle.
    public static func usable(_ identifier: String) -> TimeZone? {
        guard let zone = TimeZone(identifier: identifier), abs(zone.secondsFromGMT()) <= 14 * 3_600 else { return nil }
        return zone
    }

    /// Whether `identifier` is an offset from UTC other than zero, such as `GMT+5` or `UTC-3`: Foundation reads
    /// `GMT+5` as five hours east, the POSIX `TZ` and IANA's `Etc/GMT+5` as five hours west. Users are asked for an
    /// IANA name instead (`GMT+0` and `GMT-0` are IANA names, and mean UTC either way).
    public static func isOffsetName(_ identifier: String) -> Bool {
        guard let match = identifier.uppercased().wholeMatch(of: /(?:GMT|UTC|UT)[+-](.*)/) else { return false }
        return match.1.contains { $0.isNumber && $0 != "0" }
    }

    /// The time zone a user names (`profile set --time-zone`, `import --time-zone`): one ``usable(_:)`` gives, and no
    /// offset (``isOffsetName(_:)``). It is the name of one of the system's zone files (where it has them), as the C
    /// library, Python and the `TZ` variable read names: Foundation also reads abbreviations, its own way (`BST` as
    /// Dhaka), which no other reader of the journal would; without zone files, those are refused.
    public static func named(_ identifier: String) throws(TrainingError) -> TimeZone {
        guard !isOffsetName(identifier) else {
            throw TrainingError(
                .invalidValue, "\"\(identifier)\" is an offset, which some tools read east of UTC and others west",
                remedy:
                    "give an IANA name such as Europe/Berlin (the Etc/GMT names have the POSIX sign: Etc/GMT-5 is five "
                    + "hours east)")
        }
        let isName =
            FileManager.default.fileExists(atPath: SystemTimeZone.zoneFiles)
            ? !identifier.hasPrefix("/") && !identifier.split(separator: "/").contains("..")
                && FileManager.default.fileExists(atPath: SystemTimeZone.zoneFiles + identifier)
            // A system without zone files (no tzdata): Foundation's own names, but for its abbreviations.
            : ["UTC", "GMT"].contains(identifier) || TimeZone.abbreviationDictionary[identifier] == nil
        // `Factory` is a zone file, for machines whose zone is still to be set, not a place.
        guard isName, identifier != "Factory", let zone = usable(identifier) else {
            // Names are read as written: `europe/berlin` is pointed to `Europe/Berlin`.
            let lowered = identifier.lowercased()
            let meant = TimeZone.knownTimeZoneIdentifiers.first { $0.lowercased() == lowered && $0 != identifier }
            throw TrainingError(
                .invalidValue, "unknown time zone \"\(identifier)\"",
                remedy: meant.map { "names are read as written: give \($0)" }
                    ?? "give an IANA name such as Europe/Berlin")
        }
        return zone
    }
}
