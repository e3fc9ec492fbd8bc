/// A value a record is measured in, kept as an exact fraction so that comparing two of them is exact: an estimate of
/// `w · 36/(37 − r)` is never rounded before it is compared, and a tie is a tie.
public struct Score: Sendable, Comparable, CustomStringConvertible {
    public let numerator: Int64
    /// Always positive.
    public let denominator: Int64

    public init(_ numerator: Int64, over denominator: Int64 = 1) {
        precondition(denominator > 0, "a score's denominator is positive")
        self.numerator = numerator
        self.denominator = denominator
    }

    public static func < (lhs: Score, rhs: Score) -> Bool {
        let left = lhs.numerator.multipliedFullWidth(by: rhs.denominator)
        let right = rhs.numerator.multipliedFullWidth(by: lhs.denominator)
        return left.high != right.high ? left.high < right.high : left.low < right.low
    }

    public static func == (lhs: Score, rhs: Score) -> Bool { !(lhs < rhs) && !(rhs < lhs) }

    public var doubleValue: Double { Double(numerator) / Double(denominator) }

    /// The value divided by `unit` (1,000,000 turns milligrams into kilograms), rounded half away from zero to
    /// `digits` decimals (at most 18), as text, for people and JSON: from the exact fraction, so that 10.005 is `10.01`
    /// as 1.005 is `1.01`. A value too large for that is rounded through binary64.
    public func text(per unit: Int64, digits: UInt8) -> String {
        var scale: UInt64 = 1
        for _ in 0..<min(digits, 18) { scale *= 10 }
        let (divisor, overflow) = denominator.multipliedReportingOverflow(by: unit)
        let scaled = numerator.magnitude.multipliedFullWidth(by: scale)
        guard !overflow, divisor > 0, scaled.high < divisor.magnitude else {
            let value = doubleValue / Double(unit)
            return ExactDecimal(rounding: value, toDigits: digits)?.description ?? String(value)
        }
        let (quotient, remainder) = divisor.magnitude.dividingFullWidth(scaled)
        // Half or more of the divisor left over rounds the magnitude up.
        let (up, overflowsUp) = quotient.addingReportingOverflow(1)
        let roundsUp = remainder >= divisor.magnitude - remainder
        guard !(roundsUp && overflowsUp), let significand = Int64(exactly: roundsUp ? up : quotient) else {
            return String(doubleValue / Double(unit))
        }
        return ExactDecimal(significand: numerator < 0 ? -significand : significand, scale: min(digits, 18))!
            .description
    }

    /// The difference: exact, unless its fraction does not fit 64 bits, when it is the nearest whole number.
    public func subtracting(_ other: Score) -> Score {
        let (left, leftOverflow) = numerator.multipliedReportingOverflow(by: other.denominator)
        let (right, rightOverflow) = other.numerator.multipliedReportingOverflow(by: denominator)
        let (difference, differenceOverflow) = left.subtractingReportingOverflow(right)
        let (common, commonOverflow) = denominator.multipliedReportingOverflow(by: other.denominator)
        guard !leftOverflow, !rightOverflow, !differenceOverflow, !commonOverflow else {
            return Score(Int64((doubleValue - other.doubleValue).rounded()))
        }
        return Score(difference, over: common)
    }

    public var description: String { "\(numerator)/\(denominator)" }
}

/// The one-rep maximum a set suggests, by the rule in force (docs/RULES.md).
public enum OneRepMaximum {
    /// The RPE chart's percentages of a one-rep max, in tenths of a percent, by effective reps in half steps (reps +
    /// 10 − RPE, from 1 to 12.5): whole reps from the RPE 10 column, halves from the RPE 9.5 column of the chart
    /// Mike Tuchscherer published for Reactive Training Systems.
    static let chart: [UInt32: Int64] = {
        let whole: [Int64] = [1_000, 955, 922, 892, 863, 837, 811, 786, 762, 739, 707, 680]
        let halves: [Int64] = [978, 939, 907, 878, 850, 824, 799, 774, 751, 723, 694, 667]
        var chart: [UInt32: Int64] = [:]
        for reps in 1...12 {
            chart[UInt32(2 * reps)] = whole[reps - 1]
            chart[UInt32(2 * reps + 1)] = halves[reps - 1]
        }
        return chart
    }()

    /// The estimate, exactly, in the unit of `weight` (milligrams, say: ``Weight/exactMilligrams``), or nil when the
    /// set gives none (no reps, more reps than the rule allows, or for the chart an effort beyond it) or it does not
    /// fit 64 bits. One rep gives the weight itself.
    public static func estimate(weight: Score, reps: UInt32, rpe: RPE?, rules: Rules) -> Score? {
        guard weight.numerator > 0, reps >= 1, reps <= rules.estimateMaxReps else { return nil }
        let r = Int64(reps)
        switch rules.estimateFormula {
        case .epley:
            guard reps > 1 else { return weight }
            return scaled(weight, by: 30 + r, over: 30)
        case .brzycki:
            guard reps > 1 else { return weight }
            guard r < 37 else { return nil }
            return scaled(weight, by: 36, over: 37 - r)
        case .rpe:
            let effort = UInt32(rpe?.halfSteps ?? 20)
            guard let percent = chart[2 * reps + 20 - effort] else { return nil }
            return scaled(weight, by: 1_000, over: percent)
        }
    }

    /// The estimate for `weight`, from its exact milligrams, or from whole milligrams when the exact one does not fit
    /// 64 bits (a weight written with very many digits): see ``estimate(weight:reps:rpe:rules:)``.
    public static func estimate(of weight: Weight, reps: UInt32, rpe: RPE?, rules: Rules) -> Score? {
        if let exact = weight.exactMilligrams,
            let estimate = estimate(weight: exact, reps: reps, rpe: rpe, rules: rules)
        {
            return estimate
        }
        return estimate(weight: Score(weight.milligrams), reps: reps, rpe: rpe, rules: rules)
    }

    /// `value × factor / divisor`, exactly; nil when it does not fit.
    private static func scaled(_ value: Score, by factor: Int64, over divisor: Int64) -> Score? {
        let (numerator, numeratorOverflow) = value.numerator.multipliedReportingOverflow(by: factor)
        let (denominator, denominatorOverflow) = value.denominator.multipliedReportingOverflow(by: divisor)
        return numeratorOverflow || denominatorOverflow ? nil : Score(numerator, over: denominator)
    }
}
