/// The days or weeks behind the current streak, each with its counted workouts, read from the workouts' `history`
/// rows; and the day or week that ended the run before it.
public struct StreakDays: Sendable {
    /// A day, or a week.
    public struct Entry: Sendable {
        /// The day, or the week's start.
        public let date: LocalDate
        /// The counted workouts that started on the day (in the week), oldest first.
        public let workouts: [WorkoutSummary]
        /// A day of a daily streak that the schedule then in force marks as rest: it neither counts nor breaks.
        public let isRest: Bool
        /// Trained (a daily streak), or with the weekly target of workouts met (a weekly one).
        public let counts: Bool
    }

    public let streak: Streak
    /// From the current streak's first day (or week) to today (or this week), oldest first: the ones that count, and
    /// rest days and today (this week), which do not break it.
    public let entries: [Entry]
    /// The last day (week) before the current streak that neither counted nor rested, when workouts came before
    /// it; with no current streak, the first such day (week) after the last that counted. Nil when there is none.
    public let breaker: Entry?
}

extension TrainingSnapshot {
    /// The days or weeks behind ``streak(today:)``.
    public func streakDays(today: LocalDate) throws -> StreakDays {
        let streak = try streak(today: today)
        let zone = rules.timeZone
        let weekly = streak.kind == .weekly
        let schedules = try localSchedules()
        func isRest(_ day: Int) -> Bool { !weekly && Streak.isRest(day, schedules: schedules) }
        let step = weekly ? 7 : 1
        /// The day, or the week start, a workout counts on.
        func unit(_ workout: WorkoutSummary) -> Int {
            let day = LocalDate(dayNumber: LocalDate.dayNumber(of: workout.startedAt, in: zone))
            return weekly ? day.weekStart(rules.weekStart).dayNumber : day.dayNumber
        }
        let last = weekly ? today.weekStart(rules.weekStart).dayNumber : today.dayNumber
        var workouts: [Int: [WorkoutSummary]] = [:]
        for workout in try history(HistoryFilter(to: LocalDate(dayNumber: last + step - 1)))
        where workout.isTrained(under: rules) {
            workouts[unit(workout), default: []].append(workout)
        }
        func entry(_ unit: Int) -> StreakDays.Entry {
            let found = workouts[unit] ?? []
            return StreakDays.Entry(
                date: LocalDate(dayNumber: unit), workouts: found, isRest: isRest(unit),
                counts: weekly ? found.count >= Int(streak.weeklyTarget) : !found.isEmpty)
        }
        var entries: [StreakDays.Entry] = []
        var breaker: StreakDays.Entry?
        if let span = streak.currentSpan {
            let first = span.lowerBound.dayNumber
            entries = stride(from: first, through: last, by: step).map(entry)
            // The run began after the last unit before it that neither counted nor (daily) rested.
            if let earlier = workouts.keys.filter({ $0 < first }).max() {
                breaker = stride(from: first - step, through: earlier, by: -step).lazy.map(entry).first {
                    !$0.counts && !$0.isRest
                }
            }
        } else if let latest = workouts.keys.filter({ entry($0).counts }).max() {
            breaker = stride(from: latest + step, to: last, by: step).lazy.map(entry).first {
                !$0.counts && !$0.isRest
            }
        }
        return StreakDays(streak: streak, entries: entries, breaker: breaker)
    }
}
