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
