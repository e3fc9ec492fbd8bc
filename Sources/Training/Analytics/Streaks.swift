/// A streak, current and longest, with the days or weeks that make it, computed from the calendar of days trained
/// under the streak rules (docs/RULES.md).
public struct Streak: Sendable, Equatable {
    public let kind: Rules.StreakKind
    /// Days, or weeks, in the streak that includes today (or this week), or ended yesterday (or last week): today
    /// or this week is not over, so not having trained yet does not end the streak.
    public let current: Int
    public let longest: Int
    /// The first and last day (or week start) of the current and the longest streak.
    public let currentSpan: ClosedRange<LocalDate>?
    public let longestSpan: ClosedRange<LocalDate>?
    /// Weekly streaks: the target per week.
    public let weeklyTarget: UInt32

    /// The streak as it stands on `today`.
    ///
    /// Weekly: a week (starting on the rule's day) counts when it has at least the target of workouts. Daily: a day
    /// counts when trained; a day the schedule in force then marks as rest neither counts nor breaks the streak.
    public static func compute(
        days: [Int: Int], today: LocalDate, rules: Rules, schedules: [(from: LocalDate, schedule: Schedule)]
    ) -> Streak {
        switch rules.streakKind {
        case .weekly: weekly(days: days, today: today, rules: rules)
        case .daily: daily(days: days, today: today, rules: rules, schedules: schedules)
        }
    }

    private static func weekly(days: [Int: Int], today: LocalDate, rules: Rules) -> Streak {
        var workouts: [Int: Int] = [:]
        for (day, count) in days {
            workouts[LocalDate(dayNumber: day).weekStart(rules.weekStart).dayNumber, default: 0] += count
        }
        let thisWeek = today.weekStart(rules.weekStart).dayNumber
        let met = Set(workouts.filter { $0.value >= Int(rules.weeklyTarget) && $0.key <= thisWeek }.keys)
        let runs = self.runs(of: met, step: 7)
        // This week is not over: it extends the streak when it already counts, and does not break it otherwise.
        let current = runs.last { $0.upperBound == thisWeek || $0.upperBound == thisWeek - 7 }
        return Streak(
            kind: .weekly, current: current.map { $0.count(step: 7) } ?? 0,
            longest: runs.map { $0.count(step: 7) }.max() ?? 0, currentSpan: current.map(span),
            longestSpan: longestRun(runs, step: 7).map(span), weeklyTarget: rules.weeklyTarget)
    }

    private static func daily(
        days: [Int: Int], today: LocalDate, rules: Rules, schedules: [(from: LocalDate, schedule: Schedule)]
    ) -> Streak {
        let trained = days.keys.filter { $0 <= today.dayNumber }.sorted()
        /// Whether every day from `first` up to, not including, `end` is a rest day.
        func restDays(_ first: Int, until end: Int) -> Bool {
            first >= end || (first..<end).allSatisfy { isRest($0, schedules: schedules) }
        }
        // Streaks of trained days, where only untrained days that are not scheduled rest break a run.
        var runs: [(first: Int, last: Int, count: Int)] = []
        for day in trained {
            if let last = runs.last, restDays(last.last + 1, until: day) {
                runs[runs.count - 1] = (last.first, day, last.count + 1)
            } else {
                runs.append((day, day, 1))
            }
        }
        // The current run reaches today if every day after its last is a rest day, or today (not over yet).
        let current = runs.last.flatMap { run in
            restDays(run.last + 1, until: today.dayNumber) ? run : nil
        }
        let longest = runs.max { ($0.count, $0.last) < ($1.count, $1.last) }
        func span(_ run: (first: Int, last: Int, count: Int)) -> ClosedRange<LocalDate> {
            LocalDate(dayNumber: run.first)...LocalDate(dayNumber: run.last)
        }
        return Streak(
            kind: .daily, current: current?.count ?? 0, longest: longest?.count ?? 0,
            currentSpan: current.map(span), longestSpan: longest.map(span), weeklyTarget: rules.weeklyTarget)
    }

    /// Whether day `day` is a rest day of the schedule in force then.
    static func isRest(_ day: Int, schedules: [(from: LocalDate, schedule: Schedule)]) -> Bool {
        let date = LocalDate(dayNumber: day)
        return Schedule.inForce(on: date, among: schedules).due(on: date) == nil
    }

    /// Maximal runs of consecutive values (`step` apart), oldest first.
    private static func runs(of values: Set<Int>, step: Int) -> [ClosedRange<Int>] {
        var runs: [ClosedRange<Int>] = []
        for value in values.sorted() {
            if let last = runs.last, last.upperBound + step == value {
                runs[runs.count - 1] = last.lowerBound...value
            } else {
                runs.append(value...value)
            }
        }
        return runs
    }

    /// The longest run; of equal ones, the latest.
    private static func longestRun(_ runs: [ClosedRange<Int>], step: Int) -> ClosedRange<Int>? {
        runs.max {
            ($0.count(step: step), $0.upperBound) < ($1.count(step: step), $1.upperBound)
        }
    }

    private static func span(_ run: ClosedRange<Int>) -> ClosedRange<LocalDate> {
        LocalDate(dayNumber: run.lowerBound)...LocalDate(dayNumber: run.upperBound)
    }
}

extension ClosedRange<Int> {
    /// How many values `step` apart it holds.
    fileprivate func count(step: Int) -> Int { (upperBound - lowerBound) / step + 1 }
}

extension TrainingSnapshot {
    /// The streak as it stands on `today` (a local date in the rules' time zone), under the rules in force.
    public func streak(today: LocalDate) throws -> Streak {
        Streak.compute(days: try trainingDays(), today: today, rules: rules, schedules: try localSchedules())
    }

    /// The schedule in force on `date`, a local date in the rules' time zone: the streak counts that day's rest by it.
    public func schedule(on date: LocalDate) throws -> Schedule {
        Schedule.inForce(on: date, among: try localSchedules())
    }

    /// Each schedule with the local day it was set on, oldest first.
    func localSchedules() throws -> [(from: LocalDate, schedule: Schedule)] {
        try scheduleHistory().map { entry in
            (from: LocalDate(dayNumber: LocalDate.dayNumber(of: entry.setAt, in: rules.timeZone)), entry.schedule)
        }
    }
}
