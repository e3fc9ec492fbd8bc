import EventJournal

/// An exercise's sessions over time: the best estimated one-rep max, heaviest weight and volume of each.
public struct Progress: Sendable {
    public let exerciseId: String
    public let sessions: [SessionFact]
    /// The sessions with an estimate.
    public var estimated: [SessionFact] { sessions.filter { $0.bestEstimate != nil } }

    /// The change of the best estimate from the first session that had one to the last, in milligrams: exact, unless
    /// its fraction does not fit 64 bits, when it is the nearest whole milligram.
    public var estimateChange: Score? {
        guard let first = estimated.first?.bestEstimate, let last = estimated.last?.bestEstimate else { return nil }
        return last.subtracting(first)
    }

    /// Whether the last `window` sessions with an estimate brought none above the best before them (there must be
    /// sessions before them to compare with). Returns those sessions and the first session that made the best.
    public func plateau(window: Int) -> (sessions: [SessionFact], bestBefore: SessionFact)? {
        let estimated = estimated
        guard window > 0, estimated.count > window else { return nil }
        let recent = Array(estimated.suffix(window))
        var best = estimated[0]
        for session in estimated.dropLast(window) where best.bestEstimate! < session.bestEstimate! { best = session }
        guard recent.allSatisfy({ !(best.bestEstimate! < $0.bestEstimate!) }) else { return nil }
        return (recent, best)
    }
}

/// A finding about the training, with the data behind it, so that every number can be checked.
public struct Insight: Sendable {
    public enum Kind: String, Sendable {
        case plateau
        case strengthGain = "strength-gain"
        case consistency
        case volumeSpike = "volume-spike"
        case weeklyVolume = "weekly-volume"
    }

    /// One figure behind an insight: what it is, its value, and where it comes from.
    public struct Evidence: Sendable {
        public let label: String
        /// The value as JSON gives it: a mass in kilograms (an estimate to two decimals, a volume exactly).
        public let value: String
        /// The value in milligrams when it is a mass, exactly, for people to read in their unit.
        public let milligrams: Score?
        /// The workout it comes from, if one.
        public let workoutId: String?
        /// The local date (or week start) it belongs to.
        public let date: LocalDate?
    }

    public let kind: Kind
    /// The exercise it is about, if one.
    public let exerciseId: String?
    /// The finding for people, masses in the unit asked for.
    public let message: String
    public let evidence: [Evidence]
}

extension TrainingSnapshot {
    /// The sessions of `exerciseId`, oldest first.
    public func progress(of exerciseId: String) throws -> Progress {
        // A session whose sets count for none of its figures (warm-ups outside the volume, excluded sets) is left out.
        Progress(
            exerciseId: exerciseId,
            sessions: try sessions(of: exerciseId).filter { $0.workingSets > 0 || $0.volume > 0 })
    }

    /// Findings as of `today`: plateaus, strength gains over 12 weeks, consistency and volume over recent weeks; their
    /// messages give masses in `unit`.
    public func insights(today: LocalDate, names: (String) -> String, unit: MassUnit) throws -> [Insight] {
        var insights: [Insight] = []
        let zone = rules.timeZone
        func date(_ session: SessionFact) -> LocalDate {
            LocalDate(dayNumber: LocalDate.dayNumber(of: session.startedAt, in: zone))
        }
        func kilograms(_ score: Score?) -> String { score.map { $0.text(per: 1_000_000, digits: 2) } ?? "-" }
        func mass(_ milligrams: Score?) -> String {
            milligrams.map { unit.text(milligrams: $0, digits: 2) + " \(unit.rawValue)" } ?? "-"
        }
        func estimate(_ label: String, _ session: SessionFact) -> Insight.Evidence {
            Insight.Evidence(
                label: label, value: kilograms(session.bestEstimate),
                milligrams: session.bestEstimate, workoutId: session.workoutId, date: date(session))
        }
        let recentCutoff = today.dayNumber - 56
        let gainCutoff = today.dayNumber - 84
        for exerciseId in try exercisesTrained().sorted() {
            let progress = try progress(of: exerciseId)
            let estimated = progress.estimated
            let trainedRecently = progress.sessions.last.map { date($0).dayNumber >= recentCutoff } ?? false
            if trainedRecently, let plateau = progress.plateau(window: Int(rules.plateauSessions)) {
                insights.append(
                    Insight(
                        kind: .plateau, exerciseId: exerciseId,
                        message:
                            "\(names(exerciseId)): no estimated 1RM above "
                            + "\(mass(plateau.bestBefore.bestEstimate)) in the last "
                            + "\(plateau.sessions.count) sessions",
                        evidence: [estimate("best before", plateau.bestBefore)]
                            + plateau.sessions.map { estimate("session e1RM", $0) }))
            }
            let window = estimated.filter { date($0).dayNumber >= gainCutoff }
            if window.count >= 2, let start = window.first, let last = window.last, let from = start.bestEstimate,
                let to = last.bestEstimate, from < to
            {
                let change = to.doubleValue - from.doubleValue
                // The sessions compared: the first and the last of the 12 weeks with an estimate.
                insights.append(
                    Insight(
                        kind: .strengthGain, exerciseId: exerciseId,
                        message:
                            "\(names(exerciseId)): estimated 1RM up "
                            + "\(mass(to.subtracting(from)))"
                            + " (\(Int((change / from.doubleValue * 100).rounded()))%) from \(date(start)) to \(date(last))",
                        evidence: [start, last].map { estimate("session e1RM", $0) }))
            }
        }
        let thisWeek = today.weekStart(rules.weekStart)
        let weeks = (1...8).reversed().map { LocalDate(dayNumber: thisWeek.dayNumber - 7 * $0) }
        let counters = try weekCounters(from: weeks.first?.dayNumber)
        func total(_ week: LocalDate) -> WeekCounter { counters[week.dayNumber]?[""] ?? WeekCounter() }
        // The first day trained, if any: one who trained before these weeks and not in them has stopped, and is told
        // so, where one who never trained has nothing to be told.
        let firstDay = try trainingDays().keys.min()
        if let firstDay, firstDay < thisWeek.dayNumber {
            // The weeks before the first workout's were not missed: they are left out.
            let firstWeek = LocalDate(dayNumber: firstDay).weekStart(rules.weekStart).dayNumber
            let counted = weeks.filter { $0.dayNumber >= firstWeek }
            let met = counted.filter { total($0).workouts >= Int64(rules.weeklyTarget) }.count
            let workouts = counted.reduce(0) { $0 + total($1).workouts }
            let span =
                counted.count == weeks.count
                ? "the last \(weeks.count) weeks"
                : "the \(counted.count) complete week\(counted.count == 1 ? "" : "s") since the first workout"
            insights.append(
                Insight(
                    kind: .consistency, exerciseId: nil,
                    message:
                        "\(met) of \(span) had at least \(rules.weeklyTarget) workout"
                        + "\(rules.weeklyTarget == 1 ? "" : "s") (\(workouts) in all)",
                    evidence: counted.map {
                        Insight.Evidence(
                            label: "workouts", value: String(total($0).workouts), milligrams: nil, workoutId: nil,
                            date: $0)
                    }))
        }
        func milligramsOfVolume(_ counter: WeekCounter) -> Double { Double(counter.milliVolume) / 1_000 }
        // The message rounds volumes to whole units; the evidence gives them exactly, in kilograms for JSON, as JSON
        // gives every weight (docs/JSON.md).
        func volume(_ milligrams: Double) -> String {
            "\(unit.text(milligrams: milligrams, digits: 0)) \(unit.rawValue)"
        }
        func volumeEvidence(_ week: LocalDate) -> Insight.Evidence {
            Insight.Evidence(
                label: "volume", value: ExactDecimal(significand: total(week).milliVolume, scale: 9)!.description,
                milligrams: Score(total(week).milliVolume, over: 1_000), workoutId: nil, date: week)
        }
        let recent = weeks.suffix(4)
        if recent.contains(where: { total($0).workouts > 0 }) {
            insights.append(
                Insight(
                    kind: .weeklyVolume, exerciseId: nil,
                    message: "weekly volume, last 4 weeks: "
                        + recent.map { volume(milligramsOfVolume(total($0))) }.joined(separator: ", "),
                    evidence: recent.map(volumeEvidence)))
        }
        let lastWeek = weeks[weeks.count - 1]
        let fourBefore = weeks.dropLast().suffix(4)
        // The weeks before the first workout's had no volume because there was no training yet, not because of a
        // break: they are left out of the average, as the consistency insight leaves them out.
        let firstWeek = firstDay.map { LocalDate(dayNumber: $0).weekStart(rules.weekStart).dayNumber }
        let baseline = fourBefore.filter { $0.dayNumber >= firstWeek ?? Int.max }
        let average =
            baseline.isEmpty ? 0 : baseline.reduce(0.0) { $0 + milligramsOfVolume(total($1)) } / Double(baseline.count)
        let latest = milligramsOfVolume(total(lastWeek))
        if average > 0, latest > 1.5 * average {
            let span = baseline.count == 1 ? "the week before" : "the \(baseline.count) weeks before"
            insights.append(
                Insight(
                    kind: .volumeSpike, exerciseId: nil,
                    message:
                        "the week of \(lastWeek) had \(volume(latest)) of volume, "
                        + "\(Int((latest / average * 100).rounded()))% of \(span) (\(volume(average)) a week)",
                    evidence: (baseline + [lastWeek]).map(volumeEvidence)))
        } else if average == 0, latest > 0, let firstDay, let start = fourBefore.first, firstDay < start.dayNumber {
            // Back after four weeks of no volume, having trained before them: any volume is a jump from nothing.
            insights.append(
                Insight(
                    kind: .volumeSpike, exerciseId: nil,
                    message: "the week of \(lastWeek) had \(volume(latest)) of volume, after 4 weeks with none",
                    evidence: (fourBefore + [lastWeek]).map(volumeEvidence)))
        }
        return insights
    }
}
