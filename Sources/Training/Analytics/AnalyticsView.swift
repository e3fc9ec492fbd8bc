import EventJournal

/// The figures a rule change can move, as queries print them: every exercise's current records and every record it
/// has had, the streak, and every week's counters. Two views, before and after a change, give what the change does.
public struct AnalyticsView: Sendable, Equatable {
    /// Exercise id → record kind name → the record's value, as `prs --json` gives it (a mass in kilograms), but an
    /// estimate to the milligram: a change the two decimals of `prs` would hide is a change.
    public var records: [String: [String: String]] = [:]
    /// Exercise id → record kind name → the set that made a record (`workout-3 set 2`, or the workout's id for a
    /// session record) → its value: every record, as `why` lists them.
    public var recordHistory: [String: [String: [String: String]]] = [:]
    /// `current` and `longest`, with the streak's kind and where each runs (`currentFrom`, `longestTo`, ...).
    public var streak: [String: String] = [:]
    /// Week start → muscle (`""` for the week, `*push`, `*pull`) → figure (`sets`, `volume`, and `workouts` for the
    /// week) → value.
    public var weeks: [String: [String: [String: String]]] = [:]

    /// One figure that differs between two views; nil before or after means it appears or disappears.
    public struct Change: Sendable, Equatable, Comparable {
        /// `records`, `recordHistory`, `streak` or `weeks`.
        public let readModel: String
        /// What the figure belongs to: an exercise id, an exercise id and a record kind, nothing (the streak), or a
        /// week start and a muscle.
        public let subject: [String]
        /// Which figure: a record kind, the set that made a record, `kind`/`current`/`longest`, or
        /// `workouts`/`sets`/`volume`.
        public let figure: String
        public let before: String?
        public let after: String?

        /// Whether the figure is a mass, in kilograms: a weight, estimate or volume record, or a week's volume.
        public var isMass: Bool {
            switch readModel {
            case "records": RecordKind(name: figure)?.isMass ?? false
            case "recordHistory": subject.count == 2 && RecordKind(name: subject[1])?.isMass == true
            case "weeks": figure == "volume"
            default: false
            }
        }

        public static func < (lhs: Change, rhs: Change) -> Bool {
            ([lhs.readModel] + lhs.subject + [lhs.figure]).lexicographicallyPrecedes(
                [rhs.readModel] + rhs.subject + [rhs.figure])
        }
    }

    /// What differs from `self` to `other`, in a stable order.
    public func changes(to other: AnalyticsView) -> [Change] {
        var changes: [Change] = []
        func compare(_ readModel: String, _ subject: [String], _ before: [String: String], _ after: [String: String]) {
            for figure in Set(before.keys).union(after.keys) where before[figure] != after[figure] {
                changes.append(
                    Change(
                        readModel: readModel, subject: subject, figure: figure, before: before[figure],
                        after: after[figure]))
            }
        }
        for exercise in Set(records.keys).union(other.records.keys) {
            compare("records", [exercise], records[exercise] ?? [:], other.records[exercise] ?? [:])
        }
        for exercise in Set(recordHistory.keys).union(other.recordHistory.keys) {
            let before = recordHistory[exercise] ?? [:]
            let after = other.recordHistory[exercise] ?? [:]
            for kind in Set(before.keys).union(after.keys) {
                compare("recordHistory", [exercise, kind], before[kind] ?? [:], after[kind] ?? [:])
            }
        }
        compare("streak", [], streak, other.streak)
        for week in Set(weeks.keys).union(other.weeks.keys) {
            let before = weeks[week] ?? [:]
            let after = other.weeks[week] ?? [:]
            for muscle in Set(before.keys).union(after.keys) {
                compare("weeks", [week, muscle], before[muscle] ?? [:], after[muscle] ?? [:])
            }
        }
        return changes.sorted()
    }
}

extension RecordEntry {
    /// The value as people and JSON read it: kilograms (exact) for weights and volumes, kilograms to two decimals
    /// for estimates, reps, seconds, or metres.
    public var valueText: String {
        switch kind {
        case .heaviestWeight, .repMaximum, .bestSetVolume, .bestSessionVolume:
            ExactDecimal(significand: value.numerator, scale: 6)!.description
        case .estimatedOneRepMax:
            value.text(per: 1_000_000, digits: 2)
        case .mostReps, .longestDuration:
            String(value.numerator)
        case .longestDistance:
            ExactDecimal(significand: value.numerator, scale: 3)!.description
        }
    }
}

extension WeekCounter {
    /// The week's figures as text: workouts, sets (weighed) and volume in kilograms (weighed).
    public var figures: [String: String] {
        [
            "workouts": String(workouts),
            "sets": ExactDecimal(significand: milliSets, scale: 3)!.description,
            "volume": ExactDecimal(significand: milliVolume, scale: 9)!.description,
        ]
    }
}

extension TrainingSnapshot {
    /// The figures a rule change can move, with the streak as it stands on `today`.
    public func analyticsView(today: LocalDate) throws -> AnalyticsView {
        var view = AnalyticsView()
        try forEachRecord { exercise, entry in
            let kind = entry.kind.description
            let value =
                entry.kind == .estimatedOneRepMax ? entry.value.text(per: 1_000_000, digits: 6) : entry.valueText
            // Each kind's records come oldest first: the last is the current one.
            view.records[exercise, default: [:]][kind] = value
            let set = entry.setNumber.map { "\(entry.workoutId) set \($0)" } ?? entry.workoutId
            view.recordHistory[exercise, default: [:]][kind, default: [:]][set] = value
        }
        let streak = try streak(today: today)
        view.streak = [
            "kind": streak.kind.rawValue, "current": String(streak.current), "longest": String(streak.longest),
        ]
        // Where the streaks run: `week.start` moves a weekly streak's weeks without changing how many there are.
        for (name, span) in [("current", streak.currentSpan), ("longest", streak.longestSpan)] {
            guard let span else { continue }
            view.streak[name + "From"] = span.lowerBound.description
            view.streak[name + "To"] = span.upperBound.description
        }
        for (week, muscles) in try weekCounters() {
            // Workouts are counted for the whole week (`""`) only: a muscle's count is 0, which says nothing.
            view.weeks[LocalDate(dayNumber: week).description] = Dictionary(
                uniqueKeysWithValues: muscles.map { muscle, counter in
                    (muscle, muscle.isEmpty ? counter.figures : counter.figures.filter { $0.key != "workouts" })
                })
        }
        return view
    }
}
