import EventJournal
import Foundation

extension Timestamp {
    /// The local time in `timeZone`, to the second, for messages people read in the zone they type times in:
    /// `2026-11-25 08:56:02`.
    public func localText(in timeZone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        let seconds = microsecondsSinceEpoch.dividedRoundingDown(by: 1_000_000)
        return formatter.string(from: Date(timeIntervalSince1970: Double(seconds)))
    }
}

extension Timestamp {
    /// The instant as Foundation's `Date`.
    public var date: Date { Date(timeIntervalSince1970: Double(microsecondsSinceEpoch) / 1_000_000) }

    /// The instant `seconds` later (earlier when negative).
    public func adding(seconds: Int64) -> Timestamp {
        Timestamp(microsecondsSinceEpoch: microsecondsSinceEpoch + seconds * 1_000_000)
    }
}

extension TimeZone {
    /// The furthest any zone's clocks have gone back at once, in seconds: three hours (Antarctica/Casey, in 2010;
    /// Antarctica/Troll goes back two each year). No zone goes back twice within it.
    public static let longestSetBack: Int64 = 3 * 3_600

    /// The second pass of `instant`'s local time: `instant` moved on by as far as the clocks go back from its offset to
    /// `after`, when the local time comes again there, in offset `after`; nil when the clocks do not go back so.
    public func secondPass(of instant: Timestamp, toOffset after: Int) -> Timestamp? {
        let back = secondsFromGMT(for: instant.date) - after
        guard back > 0 else { return nil }
        let second = instant.adding(seconds: Int64(back))
        // Only a local time from the change back to the old time comes again: after the change, in the offset after.
        return secondsFromGMT(for: second.date) == after ? second : nil
    }

    /// The second pass of `instant`'s local time, read as its first, when the clocks go back over it later; nil when
    /// it comes once.
    public func secondPass(of instant: Timestamp) -> Timestamp? {
        // The offset the longest set-back on is the one after a change back over `instant`.
        secondPass(of: instant, toOffset: secondsFromGMT(for: instant.adding(seconds: Self.longestSetBack).date))
    }

    /// The first pass of `instant`'s local time, read as its second (as `DateFormatter` reads a time the clocks pass
    /// twice); `instant` when its local time comes once.
    public func firstPass(of instant: Timestamp) -> Timestamp {
        let offset = secondsFromGMT(for: instant.date)
        let offsetBefore = secondsFromGMT(for: instant.adding(seconds: -Self.longestSetBack).date)
        guard offsetBefore > offset else { return instant }
        let earlier = instant.adding(seconds: Int64(offset - offsetBefore))
        return secondsFromGMT(for: earlier.date) == offsetBefore ? earlier : instant
    }
}
