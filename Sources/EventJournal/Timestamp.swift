#if canImport(Glibc)
    import Glibc
#endif

/// A UTC instant with microsecond resolution, as stored in records.
public struct Timestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let microsecondsSinceEpoch: Int64

    public init(microsecondsSinceEpoch: Int64) { self.microsecondsSinceEpoch = microsecondsSinceEpoch }

    /// The instants an appended event may carry: years 0001 to 9999 of the (proleptic) Gregorian calendar, the years
    /// RFC 3339 can write.
    public static let appendable: ClosedRange<Timestamp> =
        Timestamp(
            microsecondsSinceEpoch: -62_135_596_800_000_000)...Timestamp(
            microsecondsSinceEpoch: 253_402_300_799_999_999)

    /// The wall clock now.
    public static func now() -> Timestamp {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Timestamp(microsecondsSinceEpoch: Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1_000)
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.microsecondsSinceEpoch < rhs.microsecondsSinceEpoch
    }

    /// Parses RFC 3339 (`2026-11-21T18:05:09.25+01:00`, `…Z`) exactly, in integers. Digits of a fraction beyond the
    /// sixth are dropped (truncated). Returns nil for anything else, or a year outside 0001 to 9999.
    public init?(rfc3339 text: String) {
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ digits: Int) -> Int64? {
            guard index + digits <= bytes.count else { return nil }
            var value: Int64 = 0
            for byte in bytes[index..<index + digits] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            }
            index += digits
            return value
        }
        func expect(_ characters: String) -> Bool {
            guard index < bytes.count, characters.utf8.contains(bytes[index]) else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2),
            expect("Tt "), let hour = number(2), expect(":"), let minute = number(2), expect(":"),
            let second = number(2)
        else { return nil }
        var micros: Int64 = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            var digits = 0
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                if digits < 6 { micros = micros * 10 + Int64(bytes[index] - UInt8(ascii: "0")) }
                digits += 1
                index += 1
            }
            guard digits > 0 else { return nil }
            for _ in digits..<max(digits, 6) { micros *= 10 }
        }
        var offsetSeconds: Int64 = 0
        if !expect("Zz") {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") else {
                return nil
            }
            let sign: Int64 = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            guard let offsetHours = number(2), expect(":"), let offsetMinutes = number(2), offsetHours < 24,
                offsetMinutes < 60
            else { return nil }
            offsetSeconds = sign * (offsetHours * 3_600 + offsetMinutes * 60)
        }
        guard index == bytes.count, (1...9_999).contains(year), (1...12).contains(month),
            (1...Self.daysInMonth(year, month)).contains(day), hour < 24, minute < 60, second < 60
        else { return nil }
        let days = Self.days(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second - offsetSeconds
        let instant = Timestamp(microsecondsSinceEpoch: seconds * 1_000_000 + micros)
        guard Self.appendable.contains(instant) else { return nil }
        self = instant
    }

    /// RFC 3339 in UTC with six fractional digits, for example `2026-11-21T18:05:09.250000Z`. A year outside 0000 to
    /// 9999 (which no append can store) is written with a sign and at least four digits, for example `-0001`.
    public var description: String {
        let (seconds, micros) = Self.floorDivide(microsecondsSinceEpoch, 1_000_000)
        let (days, secondOfDay) = Self.floorDivide(seconds, 86_400)
        let (year, month, day) = Self.civil(days: days)
        // Written as bytes: an export formats two instants per record.
        var text: [UInt8] = []
        text.reserveCapacity(32)
        /// `value`'s digits, at least `width` of them (zeros first), then `separator`.
        func put(_ value: Int64, _ width: Int, _ separator: Unicode.Scalar) {
            let start = text.count
            var rest = value.magnitude
            repeat {
                text.append(UInt8(ascii: "0") + UInt8(rest % 10))
                rest /= 10
            } while rest > 0
            while text.count - start < width { text.append(UInt8(ascii: "0")) }
            text[start...].reverse()
            text.append(UInt8(ascii: separator))
        }
        if !(0...9_999).contains(year) { text.append(UInt8(ascii: year < 0 ? "-" : "+")) }
        put(year, 4, "-")
        put(month, 2, "-")
        put(day, 2, "T")
        put(secondOfDay / 3_600, 2, ":")
        put(secondOfDay / 60 % 60, 2, ":")
        put(secondOfDay % 60, 2, ".")
        put(micros, 6, "Z")
        return String(decoding: text, as: UTF8.self)
    }

    /// Division rounding towards negative infinity, and its non-negative remainder.
    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let (quotient, remainder) = value.quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }

    // The Gregorian calendar counted in 400-year eras of 146,097 days, with years starting on 1 March so that the
    // leap day falls at the end; day 0 is 1970-01-01, which is day 719,468 counted from 0000-03-01.

    private static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let marchYear = month <= 2 ? year - 1 : year
        let (era, yearOfEra) = floorDivide(marchYear, 400)
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civil(days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let (era, dayOfEra) = floorDivide(days + 719_468, 146_097)
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func daysInMonth(_ year: Int64, _ month: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
