import Foundation

/// A set's time and distance as people type them, for sets timed or run rather than (or as well as) lifted.
public enum TimeAndDistance {
    /// The longest a set lasts: a week, in seconds, as for imports.
    public static let maximumSeconds: UInt32 = 7 * 86_400
    /// The longest distance a set covers: 1,000 km, in metres.
    public static let maximumMetres = ExactDecimal(1_000_000)

    /// Reads a duration: seconds (`90`), a clock (`1:30`, `1:02:03`), or numbers with units run together or apart
    /// (`45s`, `30m`, `1h 5m`, `1m30s`); from 1 second to a week.
    public static func seconds(_ text: String) throws(TrainingError) -> UInt32 {
        let refused = TrainingError(
            .invalidValue, "cannot read the time \(text.debugDescription)",
            remedy: "give seconds or a time such as 90, 1:30, 45s, 30m or 1h 5m, up to a week")
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        var total: UInt64 = 0
        if trimmed.contains(":") {
            let parts = trimmed.split(separator: ":", omittingEmptySubsequences: false)
            guard (2...3).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.count <= 6 }) else {
                throw refused
            }
            for (index, part) in parts.enumerated() {
                guard let value = UInt64(part), index == 0 || value < 60 else { throw refused }
                total = total * 60 + value
            }
        } else if let plain = UInt64(trimmed) {
            total = plain
        } else {
            var number: UInt64?
            var sawUnit = false
            for word in trimmed.split(whereSeparator: \.isWhitespace).flatMap(Self.numbersAndUnits) {
                if let value = UInt64(word), word.count <= 6, number == nil {
                    number = value
                    continue
                }
                let factor: UInt64
                switch word {
                case "h", "hr", "hrs", "hour", "hours": factor = 3_600
                case "m", "min", "mins", "minute", "minutes": factor = 60
                case "s", "sec", "secs", "second", "seconds": factor = 1
                default: throw refused
                }
                guard let value = number else { throw refused }
                total += value * factor
                number = nil
                sawUnit = true
            }
            guard sawUnit, number == nil else { throw refused }
        }
        guard total >= 1, total <= UInt64(maximumSeconds) else {
            throw TrainingError(
                .invalidValue, "a time of \(text.debugDescription) is \(total < 1 ? "no time" : "more than a week")",
                remedy: "give 1 second to a week, such as 90, 1:30, 45s or 1h 5m")
        }
        return UInt32(total)
    }

    /// Reads a distance with its unit (`5km`, `400 m`, `3.1mi`, `100yd`, `50ft`), in metres, exactly (a mile is
    /// 1609.344 m); from a millimetre to 1,000 km, written with at most four decimals (an export in miles gives such a
    /// distance back; more are a typo or noise).
    public static func metres(_ text: String) throws(TrainingError) -> ExactDecimal {
        let refused = TrainingError(
            .invalidValue, "cannot read the distance \(text.debugDescription)",
            remedy:
                "give a number and its unit, such as 5km, 400m, 3.1mi, 100yd or 50ft, from 0.001m to 1000km, with at most four decimals"
        )
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let number = trimmed.prefix { $0.isNumber || $0 == "." }
        let unit = trimmed.dropFirst(number.count).trimmingCharacters(in: .whitespaces)
        let factors: [String: ExactDecimal] = [
            "m": ExactDecimal(1), "km": ExactDecimal(1_000), "mi": ExactDecimal(significand: 1_609_344, scale: 3)!,
            "yd": ExactDecimal(significand: 9_144, scale: 4)!, "ft": ExactDecimal(significand: 3_048, scale: 4)!,
        ]
        let names = ["meters": "m", "metres": "m", "mile": "mi", "miles": "mi", "yard": "yd", "yards": "yd"]
        guard let value = ExactDecimal(number), let factor = factors[names[unit] ?? unit],
            let metres = value.multiplied(by: factor)
        else { throw refused }
        // Read, but out of bounds: said so, not that it cannot be read.
        let least = ExactDecimal(significand: 1, scale: 3)!
        guard value.scale <= 4, !(metres < least), !(maximumMetres < metres) else {
            let why =
                value.scale > 4
                ? "has more than four decimals" : metres < least ? "is less than 0.001m" : "is more than 1000km"
            throw TrainingError(
                .invalidValue, "a distance of \(text.debugDescription) \(why)",
                remedy: "give 0.001m to 1000km, with at most four decimals, such as 5km, 400m or 3.1mi")
        }
        return metres
    }

    /// Refuses a time or distance given through the API that a person could not type.
    static func check(seconds: UInt32?, metres: ExactDecimal?) throws(TrainingError) {
        if let seconds, seconds < 1 || seconds > maximumSeconds {
            throw TrainingError(.invalidValue, "a set of \(seconds) s", remedy: "give 1 s to a week")
        }
        if let metres, metres < ExactDecimal(significand: 1, scale: 3)! || maximumMetres < metres {
            throw TrainingError(.invalidValue, "a set of \(metres) m", remedy: "give 0.001 m to 1000 km")
        }
    }

    /// `1m30s` as `1`, `m`, `30`, `s`: digits and letters apart.
    private static func numbersAndUnits(_ word: Substring) -> [String] {
        var parts: [String] = []
        for character in word {
            if let last = parts.last, last.last?.isNumber == character.isNumber {
                parts[parts.count - 1].append(character)
            } else {
                parts.append(String(character))
            }
        }
        return parts
    }
}
