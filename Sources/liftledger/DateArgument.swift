import Training

/// A local date given to an option, `YYYY-MM-DD`.
enum DateArgument {
    /// The date `text` gives to `option`; refused with the form when it has another, and with the month's days or the
    /// year's months when it has the form but is no day of the calendar (`2026-02-30`, `2026-13-01`).
    static func parse(_ text: String, option: String) throws -> LocalDate {
        if let date = LocalDate(text) { return date }
        guard let parts = text.wholeMatch(of: /([0-9]{4})-([0-9]{2})-([0-9]{2})/), let month = Int(parts.2) else {
            throw CLIError(message: "cannot read \(option) \(text.debugDescription)", remedy: "give YYYY-MM-DD")
        }
        guard parts.1 != "0000" else {
            throw CLIError(message: "\(option) \(text) has no year 0", remedy: "give a year from 0001 to 9999")
        }
        guard (1...12).contains(month) else {
            throw CLIError(message: "\(option) \(text) has no month \(month)", remedy: "give a month from 01 to 12")
        }
        let yearAndMonth = "\(parts.1)-\(parts.2)-"
        // Every month of the calendar has 28 days at least.
        let days = [31, 30, 29].first { LocalDate(yearAndMonth + String($0)) != nil } ?? 28
        throw CLIError(
            message: "\(option) \(text) is no day of the calendar: \(yearAndMonth.dropLast()) has \(days) days",
            remedy: "give a day from 01 to \(days)")
    }
}
