/// A decimal number kept exactly as entered: `significand × 10^-scale`, so that 102.5 stays 102.5 and a
/// conversion such as 225 lb × 0.45359237 = 102.05828325 kg is exact, with no binary rounding.
public struct ExactDecimal: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let significand: Int64
    /// Digits after the decimal point, 0 to 18; trailing zeros are removed, so equal numbers are equal values.
    public let scale: UInt8

    static let maximumScale: UInt8 = 18

    /// `significand × 10^-scale`, normalized; nil if the scale is out of range.
    public init?(significand: Int64, scale: UInt8) {
        guard scale <= Self.maximumScale else { return nil }
        var significand = significand
        var scale = scale
        while scale > 0, significand % 10 == 0 {
            significand /= 10
            scale -= 1
        }
        self.significand = significand
        self.scale = scale
    }

    public init(_ integer: Int64) {
        significand = integer
        scale = 0
    }

    /// `value` rounded to `digits` decimals (half away from zero), for people; nil when it is not finite or does not
    /// fit.
    public init?(rounding value: Double, toDigits digits: UInt8) {
        var factor: Double = 1
        for _ in 0..<digits { factor *= 10 }
        let scaled = (value * factor).rounded()
        guard abs(scaled) < 9e18 else { return nil }
        self.init(significand: Int64(scaled), scale: digits)
    }

    /// Parses plain decimal notation: an optional `-`, digits, and optionally `.` and more digits (`225`, `102.5`,
    /// `.5`). Nil for anything else, including exponents, `nan` and numbers beyond 18 significant digits.
    public init?(_ text: some StringProtocol) {
        self.init(utf8: Substring(text).utf8)
    }

    /// Parses plain decimal notation from its UTF-8 bytes, as ``init(_:)`` does from text.
    init?<Bytes: Collection<UInt8>>(utf8: Bytes) {
        var digits = utf8[...]
        let negative = digits.first == UInt8(ascii: "-")
        if negative { digits = digits.dropFirst() }
        var value: Int64 = 0
        var sawDigit = false
        var fractionDigits: UInt8 = 0
        var inFraction = false
        for byte in digits {
            if byte == UInt8(ascii: "."), !inFraction {
                inFraction = true
                continue
            }
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            if inFraction {
                guard fractionDigits < Self.maximumScale else { return nil }
                fractionDigits += 1
            }
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
            guard !overflow, case (let sum, false) = shifted.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
            else { return nil }
            value = sum
            sawDigit = true
        }
        guard sawDigit else { return nil }
        self.init(significand: negative ? -value : value, scale: fractionDigits)
    }

    /// The exact product, or nil if it needs more than 18 digits.
    public func multiplied(by other: ExactDecimal) -> ExactDecimal? {
        let (product, overflow) = significand.multipliedReportingOverflow(by: other.significand)
        guard !overflow else { return nil }
        return ExactDecimal(significand: product, scale: scale + other.scale)
    }

    /// The exact sum, or nil if it needs more than 18 digits.
    public func adding(_ other: ExactDecimal) -> ExactDecimal? {
        let common = max(scale, other.scale)
        func scaled(_ value: ExactDecimal) -> Int64? {
            var result = value.significand
            for _ in 0..<(common - value.scale) {
                let (product, overflow) = result.multipliedReportingOverflow(by: 10)
                if overflow { return nil }
                result = product
            }
            return result
        }
        guard let left = scaled(self), let right = scaled(other),
            case (let sum, false) = left.addingReportingOverflow(right)
        else { return nil }
        return ExactDecimal(significand: sum, scale: common)
    }

    /// The number times 10^`digits`, rounded half to even to a whole number; nil if it does not fit 64 bits.
    /// `102.05828325` with 6 digits is `102058283`.
    public func scaled(toDigits digits: UInt8) -> Int64? {
        if digits >= scale {
            var value = significand
            for _ in 0..<(digits - scale) {
                let (product, overflow) = value.multipliedReportingOverflow(by: 10)
                if overflow { return nil }
                value = product
            }
            return value
        }
        var divisor: Int64 = 1
        for _ in 0..<(scale - digits) { divisor *= 10 }
        let (quotient, remainder) = significand.quotientAndRemainder(dividingBy: divisor)
        let twice = remainder.magnitude * 2
        guard twice > divisor.magnitude || (twice == divisor.magnitude && quotient % 2 != 0) else { return quotient }
        return significand < 0 ? quotient - 1 : quotient + 1
    }

    /// The nearest binary64 (through the text form, which Swift rounds correctly).
    public var doubleValue: Double { Double(description)! }

    public var isNegative: Bool { significand < 0 }

    /// Plain decimal notation with no trailing zeros: `225`, `102.05828325`, `-0.5`.
    public var description: String {
        let magnitude = String(significand.magnitude)
        let sign = significand < 0 ? "-" : ""
        guard scale > 0 else { return sign + magnitude }
        let padded = String(repeating: "0", count: max(0, Int(scale) + 1 - magnitude.count)) + magnitude
        let point = padded.index(padded.endIndex, offsetBy: -Int(scale))
        return sign + padded[..<point] + "." + padded[point...]
    }

    public static func < (lhs: ExactDecimal, rhs: ExactDecimal) -> Bool {
        // Compare at a common scale in 128 bits so that no operand can overflow.
        let common = max(lhs.scale, rhs.scale)
        func widened(_ value: ExactDecimal) -> (high: Int64, low: UInt64) {
            var factor: Int64 = 1
            for _ in 0..<(common - value.scale) { factor *= 10 }
            return value.significand.multipliedFullWidth(by: factor)
        }
        let left = widened(lhs)
        let right = widened(rhs)
        return left.high != right.high ? left.high < right.high : left.low < right.low
    }
}
