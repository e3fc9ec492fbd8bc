import EventJournal
import Foundation

/// What the plan says to train on each local day.
public struct Schedule: Sendable, Equatable {
    public enum Plan: Sendable, Equatable {
        /// Monday first; nil is a rest day.
        case weekdays([String?])
        /// Days that repeat, day 1 on `start` (a local date), one day per calendar day; nil is a rest day.
        case split([String?], start: LocalDate)
    }

    public let plan: Plan
    /// False for the default plan, used until `schedule set` records one.
    public let isRecorded: Bool

    /// Push/Pull/Legs with Sunday off: Mon Legs, Tue Push, Wed Pull, Thu Legs, Fri Push, Sat Pull.
    public static let pushPullLegs = Schedule(
        plan: .weekdays(["Legs", "Push", "Pull", "Legs", "Push", "Pull", nil]), isRecorded: false)

    /// A plan to record.
    public init(_ plan: Plan) {
        self.init(plan: plan, isRecorded: true)
    }

    init(plan: Plan, isRecorded: Bool) {
        self.plan = plan
        self.isRecorded = isRecorded
    }

    init?(_ event: ScheduleSet) {
        let days = event.days.map { $0.isEmpty ? nil : $0 }
        switch event.kind {
        case .weekdays:
            guard days.count == 7 else { return nil }
            plan = .weekdays(days)
        case .split:
            guard !days.isEmpty, let start = event.startDate.flatMap(LocalDate.init) else { return nil }
            plan = .split(days, start: start)
        }
        isRecorded = true
    }

    /// The schedule in force on `date` among `schedules` (each with the local day it was set on, oldest first): the
    /// last set on or before it, else Push/Pull/Legs.
    static func inForce(on date: LocalDate, among schedules: [(from: LocalDate, schedule: Schedule)]) -> Schedule {
        schedules.last { $0.from <= date }?.schedule ?? .pushPullLegs
    }

    /// The routine due on `date`, or nil for a rest day.
    public func due(on date: LocalDate) -> String? {
        switch plan {
        case .weekdays(let days):
            return days[date.weekdayIndex]
        case .split(let days, let start):
            let offset = date.daysSince(start)
            let index = ((offset % days.count) + days.count) % days.count
            return days[index]
        }
    }

    /// The event that records this plan.
    public var event: ScheduleSet {
        switch plan {
        case .weekdays(let days): ScheduleSet(kind: .weekdays, days: days.map { $0 ?? "" })
        case .split(let days, let start):
            ScheduleSet(kind: .split, days: days.map { $0 ?? "" }, startDate: start.description)
        }
    }
}

extension Int64 {
    /// The quotient rounded towards minus infinity, so that instants before 1970 fall on the right day.
    public func dividedRoundingDown(by divisor: Int64) -> Int64 {
        let (quotient, remainder) = quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? quotient - 1 : quotient
    }
}

/// A calendar day with no time zone: `2026-11-22`.
public struct LocalDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// Parses `YYYY-MM-DD`, of ASCII digits, checking that the day exists; the years run from 0001.
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]), year >= 1,
            (1...12).contains(month), (1...LocalDate.days(inMonth: month, year: year)).contains(day)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date `dayNumber` days after 1970-01-01.
    public init(dayNumber: Int) {
        // Howard Hinnant's civil_from_days.
        let z = dayNumber + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// The local date of `instant` in `timeZone`.
    public init(_ instant: Date, in timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: instant)
        year = parts.year!
        month = parts.month!
        day = parts.day!
    }

    /// The day number of the local date of `instant` in `timeZone` (its offset from UTC at that instant).
    public static func dayNumber(of instant: Timestamp, in timeZone: TimeZone) -> Int {
        let seconds = instant.microsecondsSinceEpoch.dividedRoundingDown(by: 1_000_000)
        let offset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds)))
        return Int((seconds + Int64(offset)).dividedRoundingDown(by: 86_400))
    }

    /// The first day of the week this date is in, for weeks that start on `weekStart` (0 Monday to 6 Sunday).
    public func weekStart(_ weekStart: Int) -> LocalDate {
        LocalDate(dayNumber: dayNumber - (weekdayIndex - weekStart + 7) % 7)
    }

    /// Days since 1970-01-01 (negative before), from the civil calendar alone.
    public var dayNumber: Int {
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    public func daysSince(_ other: LocalDate) -> Int { dayNumber - other.dayNumber }

    /// 0 for Monday through 6 for Sunday (1970-01-01 was a Thursday).
    public var weekdayIndex: Int { ((dayNumber % 7) + 7 + 3) % 7 }

    public static let weekdayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

    public var weekdayName: String { Self.weekdayNames[weekdayIndex] }

    public var description: String {
        func padded(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))"
    }

    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool { lhs.dayNumber < rhs.dayNumber }

    /// The number of days in `month` of `year`.
    public static func days(inMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
