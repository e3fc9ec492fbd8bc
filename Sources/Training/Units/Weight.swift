/// The unit a weight was entered in.
public enum MassUnit: String, Sendable, Hashable, CaseIterable {
    case kilograms = "kg"
    case pounds = "lb"

    /// Accepts `kg`, `kgs`, `lb`, `lbs`, in any case.
    public init?(parsing text: some StringProtocol) {
        switch text.lowercased() {
        case "kg", "kgs", "kilogram", "kilograms": self = .kilograms
        case "lb", "lbs", "pound", "pounds": self = .pounds
        default: return nil
        }
    }

    /// The code stored in payloads (docs/FORMAT.md).
    var code: UInt64 { self == .kilograms ? 1 : 2 }

    /// A mass given in milligrams, in this unit, rounded to `digits` decimals, for people (JSON gives kilograms
    /// exactly instead): 108,862,169 mg is `108.86` kg, or `240` lb. A whole number of milligrams is rounded as
    /// ``text(milligrams:digits:)-(Score,_)`` rounds it.
    public func text(milligrams: Double, digits: UInt8) -> String {
        if let whole = Int64(exactly: milligrams) { return text(milligrams: Score(whole), digits: digits) }
        return Self.rounded(milligrams / milligramsPerUnit, digits: digits)
    }

    /// A mass given in milligrams as an exact fraction, in this unit, rounded half away from zero to `digits`
    /// decimals from the exact value (a pound is 45,359,237 / 100 mg), for people.
    ///
    /// A whole number of milligrams in pounds within a twentieth of a thousandth of a pound (23 mg) of a whole number
    /// of hundredths is taken as that number: it is a mass kept to the milligram, a weight or a sum of set volumes
    /// each rounded to one, and 201.75 lb × 5 = 1008.75 lb, kept as 457,561,303 mg, is 1008.7499995 lb, which would
    /// round down where 1008.75 rounds up. (A mass entered otherwise that close to a half, such as 135.42 kg,
    /// 298.549990 lb, rounds up too: by less than a thousandth of a pound more than exactly.)
    public func text(milligrams value: Score, digits: UInt8) -> String {
        guard self == .pounds else { return value.text(per: 1_000_000, digits: digits) }
        let milligramsPerHundredPounds: Int64 = 45_359_237
        if value.denominator == 1, digits < 2 {
            // In ten-thousandths of a pound, rounded half away from zero.
            let (scaled, overflow) = value.numerator.multipliedReportingOverflow(by: 1_000_000)
            if !overflow {
                var (tenThousandths, remainder) = scaled.quotientAndRemainder(dividingBy: milligramsPerHundredPounds)
                if remainder.magnitude * 2 >= milligramsPerHundredPounds { tenThousandths += scaled < 0 ? -1 : 1 }
                if tenThousandths % 100 == 0 {
                    return Score(tenThousandths, over: 10_000).text(per: 1, digits: digits)
                }
            }
        }
        let (numerator, overflow) = value.numerator.multipliedReportingOverflow(by: 100)
        let (denominator, denominatorOverflow) = value.denominator.multipliedReportingOverflow(
            by: milligramsPerHundredPounds)
        guard !overflow, !denominatorOverflow else {
            return Self.rounded(value.doubleValue / milligramsPerUnit, digits: digits)
        }
        return Score(numerator, over: denominator).text(per: 1, digits: digits)
    }

    /// Milligrams in one of this unit.
    private var milligramsPerUnit: Double { self == .kilograms ? 1_000_000 : 453_592.37 }

    /// `value` rounded to `digits` decimals through binary64, as text: for masses too large for exact fractions.
    private static func rounded(_ value: Double, digits: UInt8) -> String {
        ExactDecimal(rounding: value, toDigits: digits)?.description ?? String(value)
    }

    init(code: UInt64) throws(PayloadError) {
        switch code {
        case 1: self = .kilograms
        case 2: self = .pounds
        default: throw PayloadError("unknown mass unit \(code)")
        }
    }
}

/// A weight as the user entered it: the value and its unit, never rounded. Kilograms are derived on demand.
public struct Weight: Sendable, Hashable, CustomStringConvertible {
    /// Kilograms in one international avoirdupois pound, exactly.
    public static let kilogramsPerPound = ExactDecimal(significand: 45_359_237, scale: 8)!

    public let value: ExactDecimal
    public let unit: MassUnit

    public init(_ value: ExactDecimal, _ unit: MassUnit) {
        self.value = value
        self.unit = unit
    }

    /// The same weight in kilograms, exactly (a value entered with so many digits that the exact product does not
    /// fit falls back to the nearest binary64, rounded to as many of 8, 4 or 0 decimals as fit).
    public var kilograms: ExactDecimal {
        guard unit == .pounds else { return value }
        if let exact = value.multiplied(by: Self.kilogramsPerPound) { return exact }
        let kilograms = value.doubleValue * 0.45359237
        for (scale, factor) in [(UInt8(8), 1e8), (4, 1e4), (0, 1)] {
            let scaled = (kilograms * factor).rounded()
            if abs(scaled) < 9e18 { return ExactDecimal(significand: Int64(scaled), scale: scale)! }
        }
        return ExactDecimal(kilograms < 0 ? .min : .max)
    }

    /// Whole milligrams, rounded half to even: the unit the analytics compare and add weights in, exactly.
    public var milligrams: Int64 { kilograms.scaled(toDigits: 6) ?? .max }

    /// The milligrams as an exact fraction, not rounded: what an estimate is worked out from, so that estimates equal
    /// in pounds tie (30 lb × 12 and 35 lb × 6 are both 42 lb under Epley; from whole milligrams they differ). Nil
    /// when it does not fit 64 bits.
    public var exactMilligrams: Score? {
        let exact = kilograms
        guard exact.scale > 6 else { return exact.scaled(toDigits: 6).map { Score($0) } }
        var (numerator, divisor) = (exact.significand, Int64(1))
        for _ in 6..<exact.scale { divisor *= 10 }
        // In lowest terms, so that estimates worked out from it fit for as many digits as can be.
        for factor: Int64 in [2, 5] {
            while divisor % factor == 0, numerator % factor == 0 {
                numerator /= factor
                divisor /= factor
            }
        }
        return Score(numerator, over: divisor)
    }

    /// The weight times `count` (a set's reps) in whole milligrams, worked out exactly and rounded half to even once:
    /// 60 lb × 15 and 75 lb × 12 are both 900 lb, 408,233,133 mg (rounding each weight first would make them differ).
    /// Nil when the milligrams do not fit 64 bits.
    public func milligrams(times count: UInt32) -> Int64? {
        let exact = kilograms
        guard exact.scale > 6 else {
            // Whole milligrams already: the product grows, so an overflow on the way is one at the end.
            var (product, overflow) = exact.significand.multipliedReportingOverflow(by: Int64(count))
            for _ in exact.scale..<6 where !overflow {
                (product, overflow) = product.multipliedReportingOverflow(by: 10)
            }
            return overflow ? nil : product
        }
        // The product in 128 bits (any significand times any count fits), divided down to milligrams.
        var divisor: Int64 = 1
        for _ in 6..<exact.scale { divisor *= 10 }
        let product = exact.significand.multipliedFullWidth(by: Int64(count))
        // The quotient fits 64 bits when the high half is well below the divisor.
        guard product.high.magnitude < UInt64(divisor) / 2 else { return nil }
        var (quotient, remainder) = divisor.dividingFullWidth(product)
        let twice = remainder.magnitude * 2
        if twice > UInt64(divisor) || (twice == UInt64(divisor) && quotient % 2 != 0) {
            quotient += remainder < 0 ? -1 : 1
        }
        return quotient
    }

    /// `225 lb`, `102.5 kg`.
    public var description: String { "\(value) \(unit.rawValue)" }

    func write(to writer: inout PayloadWriter) {
        writer.string(1, value.description)
        writer.unsigned(2, unit.code)
    }

    init(reading reader: PayloadReader) throws(PayloadError) {
        var reader = reader
        var value: ExactDecimal?
        var unit: MassUnit?
        while let field = try reader.next() {
            switch field.number {
            case 1:
                let bytes = try field.bytes()
                guard let parsed = ExactDecimal(utf8: bytes) else {
                    throw PayloadError("weight \(String(decoding: bytes, as: UTF8.self).debugDescription)")
                }
                value = parsed
            case 2: unit = try MassUnit(code: field.unsigned())
            default: continue
            }
        }
        guard let value, let unit else { throw PayloadError("a weight needs a value and a unit") }
        self.init(value, unit)
    }
}

extension Weight: Encodable {
    private enum CodingKeys: String, CodingKey { case value, unit }

    /// `{"value": "225", "unit": "lb"}`: the value as text so that JSON readers keep every digit.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(value.description, forKey: .value)
        try container.encode(unit.rawValue, forKey: .unit)
    }
}
