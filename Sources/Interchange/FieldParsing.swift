import EventJournal
import Foundation
import Training

/// Reads the values of export fields: numbers, weights (with their unit-conversion noise), durations and dates in the
/// forms the apps write them. Every failure names the line and the field.
struct FieldParser {
    let timeZone: TimeZone
    private var instants: [String: Timestamp] = [:]

    init(timeZone: TimeZone) {
        self.timeZone = timeZone
    }

    static func malformed(_ line: Int, _ what: String, _ text: String) -> ImportError {
        // "40,5": a decimal comma, as a spreadsheet in many languages saves numbers; not "1,200", which a thousands
        // separator writes too.
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ",", omittingEmptySubsequences: false)
        let hasDecimalComma =
            parts.count == 2 && parts[1].count != 3
            && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
        return ImportError(
            .malformed,
            "line \(line): \(what) \(text.prefix(40).debugDescription) does not parse"
                + (hasDecimalComma ? " (a decimal comma: the apps export \(parts.joined(separator: ".")))" : ""),
            remedy: "fix that row in the file (or remove it), then import again")
    }

    /// A decimal number: `40`, `40.0`, `.5`; nil for an empty field.
    static func decimal(_ text: String, line: Int, _ what: String) throws(ImportError) -> ExactDecimal? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return nil }
        guard let value = ExactDecimal(trimmed) else { throw malformed(line, what, text) }
        return value
    }

    /// A count of reps: a whole number, written `10` or `10.0`; 0 for an empty field.
    static func reps(_ text: String, line: Int) throws(ImportError) -> UInt32 {
        guard let value = try decimal(text, line: line, "reps") else { return 0 }
        guard value.scale == 0, !value.isNegative, let reps = UInt32(exactly: value.significand) else {
            throw malformed(line, "reps", text)
        }
        return reps
    }

    /// An RPE from 1 to 10 in half steps; nil for an empty field.
    static func rpe(_ text: String, line: Int) throws(ImportError) -> RPE? {
        guard let value = try decimal(text, line: line, "RPE") else { return nil }
        guard let rpe = RPE(value) else {
            throw ImportError(
                .malformed, "line \(line): RPE \(text.prefix(40).debugDescription) is not 1 to 10 in half steps",
                remedy: "fix that row in the file (or remove it), then import again")
        }
        return rpe
    }

    /// Whole seconds; nil for an empty field or 0.
    static func seconds(_ text: String, line: Int) throws(ImportError) -> UInt32? {
        guard let value = try decimal(text, line: line, "seconds") else { return nil }
        guard !value.isNegative, value.doubleValue < Double(UInt32.max) else { throw malformed(line, "seconds", text) }
        let seconds = UInt32(value.doubleValue.rounded())
        return seconds == 0 ? nil : seconds
    }

    /// The longest a set lasts: a week, in seconds. Anything longer is not a set.
    static let maximumSetDuration: Int64 = 7 * 86_400
    /// The longest a workout lasts: a year, in seconds, as long as a session left open and then finished lasts, the
    /// duration LiftLedger's own export writes for it. Anything longer is not a workout.
    static let maximumWorkoutDuration: Int64 = 366 * 86_400

    /// A length of time as the apps write it: `51m`, `1h 7m`, `11s`, `1小时13分钟`, `49分钟`, `1 Std. 7 Min.`,
    /// `0:01:30` (FitNotes), or plain seconds, of at most `limit` seconds; nil for an empty field.
    static func duration(_ text: String, line: Int, limit: Int64) throws(ImportError) -> Int64? {
        guard let seconds = try duration(text, line: line) else { return nil }
        guard seconds <= limit else {
            throw ImportError(
                .malformed,
                "line \(line): duration \(text.prefix(40).debugDescription) is more than "
                    + (limit == maximumSetDuration ? "a week" : "a year"),
                remedy: "fix that row in the file (or remove it), then import again")
        }
        return seconds
    }

    private static func duration(_ text: String, line: Int) throws(ImportError) -> Int64? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return nil }
        if let seconds = ExactDecimal(trimmed), !seconds.isNegative {
            guard seconds.doubleValue <= Double(Int64.max / 2) else { throw malformed(line, "duration", text) }
            return Int64(seconds.doubleValue.rounded())
        }
        let clock = trimmed.split(separator: ":", omittingEmptySubsequences: false)
        if (2...3).contains(clock.count) {
            let numbers = clock.compactMap { $0.count <= 6 && $0.allSatisfy(\.isASCII) ? Int64($0) : nil }
            guard numbers.count == clock.count, numbers.dropFirst().allSatisfy({ (0..<60).contains($0) }),
                numbers[0] >= 0
            else { throw malformed(line, "duration", text) }
            return numbers.reduce(0) { $0 * 60 + $1 }
        }
        var total: Int64 = 0
        var number: Int64?
        var unit = ""
        func take() -> Bool {
            guard let value = number else { return unit.isEmpty }
            let factor: Int64
            switch unit.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: ". ")) {
            case "h", "hr", "hrs", "hour", "hours", "小时", "std", "stunde", "stunden": factor = 3_600
            case "m", "min", "mins", "minute", "minutes", "分钟", "分": factor = 60
            case "s", "sec", "secs", "second", "seconds", "秒", "sek", "sekunden": factor = 1
            default: return false
            }
            total += value * factor
            number = nil
            unit = ""
            return true
        }
        for character in trimmed {
            if let digit = character.wholeNumberValue, character.isASCII {
                if !unit.isEmpty { guard take() else { throw malformed(line, "duration", text) } }
                guard (number ?? 0) < 1_000_000 else { throw malformed(line, "duration", text) }
                number = (number ?? 0) * 10 + Int64(digit)
            } else if character.isWhitespace {
                continue
            } else {
                guard number != nil || !unit.isEmpty else { throw malformed(line, "duration", text) }
                unit.append(character)
            }
        }
        guard take(), total > 0 || trimmed.contains("0") else { throw malformed(line, "duration", text) }
        return total
    }

    /// A weight written with more than four decimals in `unit`: a value of at most two decimals within a millionth,
    /// in `unit` or, converted, in the other unit (the app converted what the user entered and wrote it with binary
    /// noise: `44.09245243697551` lb is 20 kg); when both are, the one that comes nearer the number written, as a
    /// conversion's product or binary quotient does (`61.869999268` kg is 136.4 lb exactly, and 61.87 kg only within
    /// a millionth); else the value as written.
    static func weight(_ value: ExactDecimal, _ unit: MassUnit) -> Weight {
        let written = value.doubleValue
        let other: MassUnit = unit == .kilograms ? .pounds : .kilograms
        let own = plain(written)
        guard let converted = cleanConversion(value, from: unit, to: other) else {
            return Weight(own ?? value, unit)
        }
        guard let own else { return Weight(converted, other) }
        let factor = Weight.kilogramsPerPound.doubleValue
        let convertedBack = unit == .kilograms ? converted.doubleValue * factor : converted.doubleValue / factor
        return abs(convertedBack - written) < abs(own.doubleValue - written)
            ? Weight(converted, other) : Weight(own, unit)
    }

    /// The digits after the point in `text`, as written (`40.50` has two).
    static func decimalsWritten(_ text: String) -> Int {
        guard let point = text.firstIndex(of: ".") else { return 0 }
        return text[text.index(after: point)...].prefix { $0.isASCII && $0.isNumber }.count
    }

    /// `value` as a number of at most `decimals` decimals, when it is one within `tolerance` of the last decimal
    /// (`8400.775680000001` is 8400.77568, to six decimals within a thousandth).
    static func near(_ value: Double, decimals: UInt8, within tolerance: Double = 0.001) -> ExactDecimal? {
        var factor: Double = 1
        for _ in 0..<decimals { factor *= 10 }
        let scaled = (value * factor).rounded()
        guard abs(value * factor - scaled) < tolerance, abs(scaled) < 1e15 else { return nil }
        return ExactDecimal(significand: Int64(scaled), scale: decimals)
    }

    /// The number of fewest decimals (at most 12) within two units in the last place of `value`: what binary noise
    /// was made of (`13.109399999999999` is 13.1094); nil for none.
    static func shortestDecimal(near value: Double) -> ExactDecimal? {
        var factor: Double = 1
        for digits in UInt8(0)...12 {
            let scaled = (value * factor).rounded()
            guard abs(scaled) < 9e15 else { return nil }
            if let candidate = ExactDecimal(significand: Int64(scaled), scale: digits),
                abs(candidate.doubleValue - value) <= 2 * value.ulp
            {
                return candidate
            }
            factor *= 10
        }
        return nil
    }

    /// `value` as a number of at most two decimals, when it is one within a millionth.
    static func plain(_ value: Double) -> ExactDecimal? { near(value, decimals: 2, within: 0.000_1) }

    /// `value` in `from` converted to `to`, when that is a number of at most two decimals, within a millionth.
    static func cleanConversion(_ value: ExactDecimal, from: MassUnit, to: MassUnit) -> ExactDecimal? {
        let factor = Weight.kilogramsPerPound.doubleValue
        return plain(from == .kilograms ? value.doubleValue / factor : value.doubleValue * factor)
    }

    /// For a time on a 12-hour clock at the end of `text` (`9:40:00 PM`, `9:40 p. m.`, `下午9:40:00`, its marker after
    /// the time or before it), how it reads on a 24-hour clock (`9:40:00 PM as 21:40:00`); nil for any other text.
    static func onTwentyFourHourClock(_ text: String) -> String? {
        let after = /(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([ap])\.?\s?m\.?$/.ignoresCase()
        let before = /(上午|下午)\s*(\d{1,2}):(\d{2})(?::(\d{2}))?/
        let hour: Substring
        let minute: Substring
        let second: Substring?
        let isAfternoon: Bool
        let written: Substring
        if let match = text.firstMatch(of: after) {
            (written, hour, minute, second) = (match.0, match.1, match.2, match.3)
            isAfternoon = match.4.lowercased() == "p"
        } else if let match = text.firstMatch(of: before) {
            (written, hour, minute, second) = (match.0, match.2, match.3, match.4)
            isAfternoon = match.1 == "下午"
        } else {
            return nil
        }
        // 12 AM is midnight, 12 PM noon.
        let hours = Int(hour)! % 12 + (isAfternoon ? 12 : 0)
        let clock = String(format: "%02d:%@", hours, String(minute)) + (second.map { ":\($0)" } ?? "")
        return "\(written) as \(clock)"
    }

    /// An instant from a local date-time (`2026-04-24 09:40:00`, `2026-04-24T09:40`, `2022-09-14`: noon, for
    /// exports without a time), Hevy's `9 Apr 2026, 17:18`, or RFC 3339.
    mutating func instant(_ text: String, line: Int, _ what: String = "date") throws(ImportError) -> Timestamp {
        if let known = instants[text] { return known }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        var parts: DateComponents?
        if let exact = Timestamp(rfc3339: trimmed) {
            guard Timestamp.appendable.contains(exact.adding(seconds: Self.maximumWorkoutDuration)) else {
                throw Self.malformed(line, what, text)
            }
            instants[text] = exact
            return exact
        }
        parts = Self.isoLocal(trimmed) ?? Self.hevy(trimmed)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        guard let parts, let date = calendar.date(from: parts) else {
            // "9:40:00 PM", "9:40 p. m.", "下午9:40:00": a 12-hour clock, its marker after the time or before it, which
            // every row of the file then has.
            if let example = Self.onTwentyFourHourClock(trimmed) {
                throw ImportError(
                    .malformed,
                    "line \(line): \(what) \(text.prefix(40).debugDescription) is on a 12-hour clock, which an import "
                        + "does not read",
                    remedy: "write the file's times on a 24-hour clock (\(example)), then import again")
            }
            throw Self.malformed(line, what, text)
        }
        // Foundation moves a local time the clocks skip on by the change, to the next day too (Nuuk skips 23:00 to
        // midnight, Apia skipped a whole day): no app wrote one in the zone it was in. Not a day of 1582 or before,
        // which the calendar reads as Julian.
        let read = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        if [read.year, read.month, read.day, read.hour, read.minute]
            != [parts.year, parts.month, parts.day, parts.hour, parts.minute],
            (parts.year ?? 0) > 1_582
        {
            throw ImportError(
                .malformed,
                "line \(line): \(what) \(text.debugDescription) does not exist in \(timeZone.identifier): the clocks "
                    + "skip it",
                remedy: "import with --time-zone set to the zone the app wrote the file in")
        }
        let instant = Timestamp(microsecondsSinceEpoch: Int64((date.timeIntervalSince1970 * 1_000_000).rounded()))
        // A year before the last instant a journal stores, so that the workout's end fits too.
        guard Timestamp.appendable.contains(instant.adding(seconds: Self.maximumWorkoutDuration)) else {
            throw Self.malformed(line, what, text)
        }
        instants[text] = instant
        return instant
    }

    /// The same local time an hour (or however far the clocks go back) later, when `instant` falls in the hour that
    /// the clocks go back over before `later`, where a local time comes twice and is read as its first pass; nil
    /// otherwise.
    func secondPass(of instant: Timestamp, before later: Timestamp) -> Timestamp? {
        // `later` is read as the first pass too, so the clocks go back within the hour after it.
        let after = timeZone.secondsFromGMT(for: later.adding(seconds: 3_600).date)
        guard let second = timeZone.secondPass(of: instant, toOffset: after), !(second < later) else { return nil }
        return second
    }

    /// `YYYY-MM-DD[ HH:MM[:SS]]` (or with a `T`), checked field by field.
    private static func isoLocal(_ text: String) -> DateComponents? {
        let fields = text.split(whereSeparator: { " T-:".contains($0) }).map(String.init)
        guard [3, 5, 6].contains(fields.count), fields[0].count == 4, fields.allSatisfy({ $0.allSatisfy(\.isASCII) }),
            let numbers = Optional(fields.compactMap { Int($0) }), numbers.count == fields.count
        else { return nil }
        return components(
            year: numbers[0], month: numbers[1], day: numbers[2], hour: numbers.count > 3 ? numbers[3] : 12,
            minute: numbers.count > 3 ? numbers[4] : 0, second: numbers.count > 5 ? numbers[5] : 0)
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// Hevy's `9 Apr 2026, 17:18`.
    private static func hevy(_ text: String) -> DateComponents? {
        let fields = text.split(whereSeparator: { " ,:".contains($0) }).map(String.init)
        guard fields.count == 5, let day = Int(fields[0]), let year = Int(fields[2]), let hour = Int(fields[3]),
            let minute = Int(fields[4]), let month = months.firstIndex(of: String(fields[1].prefix(3)).lowercased())
        else { return nil }
        return components(year: year, month: month + 1, day: day, hour: hour, minute: minute, second: 0)
    }

    private static func components(
        year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int
    )
        -> DateComponents?
    {
        guard (1...9_999).contains(year), (1...12).contains(month),
            (1...LocalDate.days(inMonth: month, year: year)).contains(day),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        // A leap second (`23:59:60`) is read as the second before it: Foundation would carry it into the next
        // minute, and the workout into the next day.
        return DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: min(second, 59))
    }
}
