import EventJournal
import Foundation

extension Timestamp {
    /// The local time in `timeZone`, to the second, for messages people read in the zone they type times in:
    /// `2026-11-25 08:56:02`.
    public func localText(in timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let seconds = microsecondsSinceEpoch.dividedRoundingDown(by: 1_000_000)
        let parts = calendar.dateComponents(
            [.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: Double(seconds)))
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        return "\(String(format: "%04d", parts.year ?? 0))-\(two(parts.month))-\(two(parts.day)) "
            + "\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second))"
    }
}
