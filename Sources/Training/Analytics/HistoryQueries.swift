import EventJournal
import Foundation

/// Which counted workouts a history query wants.
public struct HistoryFilter: Sendable {
    /// Local dates, inclusive.
    public var from: LocalDate?
    public var to: LocalDate?
    /// An exercise id the workout must include.
    public var exerciseId: String?
    /// A routine id the workout must have followed.
    public var routineId: String?

    public init(from: LocalDate? = nil, to: LocalDate? = nil, exerciseId: String? = nil, routineId: String? = nil) {
        self.from = from
        self.to = to
        self.exerciseId = exerciseId
        self.routineId = routineId
    }
}

extension TrainingSnapshot {
    /// The counted workouts that pass `filter`, oldest first.
    public func history(_ filter: HistoryFilter = HistoryFilter()) throws -> [WorkoutSummary] {
        let zone = rules.timeZone
        var summaries: [WorkoutSummary] = []
        // Local dates reach at most 14 hours either side of UTC: scan a little wider, then check each start's day.
        let start = filter.from.map { Key().instant(Timestamp(dayNumber: $0.dayNumber - 1)).bytes }
        try table(.history)?.scan(from: start) { _, value in
            let summary = try ReadModelRow.decode(value, table: "history", WorkoutSummary.init(decoding:))
            let day = LocalDate.dayNumber(of: summary.startedAt, in: zone)
            if let to = filter.to, day > to.dayNumber + 1 { return false }
            guard filter.from.map({ day >= $0.dayNumber }) ?? true, filter.to.map({ day <= $0.dayNumber }) ?? true,
                filter.routineId.map({ summary.routineId == $0 }) ?? true,
                filter.exerciseId.map({ id in summary.exercises.contains { $0.exerciseId == id } }) ?? true
            else { return true }
            summaries.append(summary)
            return true
        }
        return summaries
    }

    /// The history row of `workout`, when it counts.
    public func summary(of workout: Workout) throws -> WorkoutSummary? {
        try table(.history)?.withValue(forKey: Key().instant(workout.startedAt).text(workout.id).bytes) { raw in
            try ReadModelRow.decode(raw, table: "history", WorkoutSummary.init(decoding:))
        }
    }

    /// How many counted workouts started on each local day trained, by day number.
    public func trainingDays() throws -> [Int: Int] {
        var days: [Int: Int] = [:]
        try table(.days)?.scan { key, value in
            var reader = Key.Reader(key)
            days[Int(reader.signed32())] = Int(value.bigEndian(UInt64.self, at: 0))
            return true
        }
        return days
    }

    /// The records of `exerciseId` of each kind, in the order they were set: the last is the current record, the
    /// one before it the previous.
    public func records(of exerciseId: String) throws -> [RecordKind: [RecordEntry]] {
        var records: [RecordKind: [RecordEntry]] = [:]
        try table(.records)?.scan(prefix: Key().text(exerciseId).bytes) { _, value in
            let entry = try ReadModelRow.decode(value, table: "records", RecordEntry.init(decoding:))
            records[entry.kind, default: []].append(entry)
            return true
        }
        return records
    }

    /// The current record of each kind of `exerciseId`, and the one before it: read from the end of each kind's
    /// records, so the cost does not grow with how many there were.
    public func latestRecords(
        of exerciseId: String
    ) throws -> [RecordKind: (current: RecordEntry, previous: RecordEntry?)] {
        var latest: [RecordKind: (current: RecordEntry, previous: RecordEntry?)] = [:]
        for kind in RecordKind.allCases {
            var found: [RecordEntry] = []
            try table(.records)?.scan(prefix: Key().text(exerciseId).byte(kind.code).bytes, reverse: true) { _, value in
                found.append(try ReadModelRow.decode(value, table: "records", RecordEntry.init(decoding:)))
                return found.count < 2
            }
            if let current = found.first { latest[kind] = (current, found.dropFirst().first) }
        }
        return latest
    }

    /// Calls `body` with every record of every exercise, by exercise id, each kind's oldest first.
    public func forEachRecord(_ body: (_ exerciseId: String, RecordEntry) throws -> Void) throws {
        try table(.records)?.scan { key, value in
            var reader = Key.Reader(key)
            try body(reader.text(), try ReadModelRow.decode(value, table: "records", RecordEntry.init(decoding:)))
            return true
        }
    }

    /// The week counters from `firstWeek` (a week-start day number) on: by week start, by muscle (`""` for the week,
    /// `*push` and `*pull` for forces).
    public func weekCounters(from firstWeek: Int? = nil) throws -> [Int: [String: WeekCounter]] {
        var weeks: [Int: [String: WeekCounter]] = [:]
        try table(.weeks)?.scan(from: firstWeek.map { Key().signed(Int32($0)).bytes }) { key, value in
            var reader = Key.Reader(key)
            let week = Int(reader.signed32())
            let muscle = reader.text()
            weeks[week, default: [:]][muscle] = try ReadModelRow.decode(
                value, table: "weeks", WeekCounter.init(decoding:))
            return true
        }
        return weeks
    }
}

extension Timestamp {
    /// Midnight UTC at the start of day `dayNumber` (days since 1970-01-01).
    init(dayNumber: Int) {
        self.init(microsecondsSinceEpoch: Int64(dayNumber) * 86_400_000_000)
    }
}
