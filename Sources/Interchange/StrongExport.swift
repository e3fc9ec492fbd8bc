import EventJournal
import Foundation
import Training

/// The history in Strong's comma layout of 2021–2025 (`Date,Workout Name,Duration,Exercise Name,Set Order,Weight,
/// Reps,Distance,Seconds,Notes,Workout Notes,RPE`), so that a user can take it back to Strong, or to any app that
/// reads Strong's exports. Weights are in one unit, kilograms or pounds (see ``weight(_:in:)``), and distances in
/// kilometres or, with pounds, miles, as Strong writes them; times local, in the profile's time zone; durations to
/// the second (`1h 7m 3s`).
public enum StrongExport {
    static let header = [
        "Date", "Workout Name", "Duration", "Exercise Name", "Set Order", "Weight", "Reps", "Distance", "Seconds",
        "Notes", "Workout Notes", "RPE",
    ]

    /// Two workouts written with the same start, to the second, and the same name: the layout has no other identity
    /// for a workout, so an import reads their rows back as one workout.
    public struct Merging: Sendable, Equatable {
        /// The first workout's id, and the later one's.
        public let first: String
        public let second: String
        /// The local start, as written, and the name.
        public let start: String
        public let name: String
    }

    /// Writes the finished workouts of `snapshot`, oldest first, a row per set, weights in `unit`. Returns the
    /// workouts that an import will read back as one with an earlier one.
    @discardableResult
    public static func write(
        _ snapshot: TrainingSnapshot, unit: MassUnit = .kilograms, to output: (String) throws -> Void
    ) throws -> [Merging] {
        let catalog = try snapshot.catalog()
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = snapshot.rules.timeZone
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        try output(CSV.line(header))
        var written: [String: String] = [:]
        var mergings: [Merging] = []
        for summary in try snapshot.history() {
            guard let workout = try snapshot.workout(summary.workoutId) else { continue }
            let date = formatter.string(from: workout.startedAt.date)
            let identity = "\(date)\u{0}\(workout.name)"
            if let first = written[identity] {
                mergings.append(Merging(first: first, second: workout.id, start: date, name: workout.name))
            } else {
                written[identity] = workout.id
            }
            for exercise in workout.exercises {
                let name = catalog.exercise(id: exercise.exerciseId)?.name ?? exercise.name
                var order = 0
                for set in workout.countedSets where set.details.exerciseId == exercise.exerciseId {
                    let details = set.details
                    let setOrder: String
                    switch details.kind {
                    case .warmup: setOrder = "W"
                    case .drop: setOrder = "D"
                    case .failure: setOrder = "F"
                    case .normal:
                        order += 1
                        setOrder = String(order)
                    }
                    try output(
                        CSV.line([
                            date, workout.name, duration(summary.durationSeconds), name, setOrder,
                            weight(details.weight, in: unit), String(details.reps),
                            distance(details.distanceMeters, in: unit),
                            details.durationSeconds.map(String.init) ?? "", escaped(details.note),
                            escaped(workout.note), details.rpe?.description ?? "",
                        ]))
                }
            }
        }
        return mergings
    }

    /// A set's weight in `unit`, or nothing for body weight: as entered when it was entered in `unit`; pounds in
    /// kilograms exactly (225 lb is `102.05828325`); kilograms in pounds as the binary64 quotient by 0.45359237, as
    /// Strong writes a weight it converted, which an import reads back as entered (20 kg is `44.09245243697551`).
    static func weight(_ weight: Weight?, in unit: MassUnit) -> String {
        guard let weight else { return "" }
        if weight.unit == unit { return weight.value.description }
        if unit == .kilograms { return weight.kilograms.description }
        return decimal(weight.value.doubleValue / Weight.kilogramsPerPound.doubleValue)
    }

    /// A distance in kilometres exactly for a file in kilograms, or in miles for one in pounds, as the binary64
    /// quotient by 1609.344 (1 km is `0.621371192237334`), which an import reads back to the micrometre; nothing when
    /// there is none.
    static func distance(_ metres: ExactDecimal?, in unit: MassUnit) -> String {
        guard let metres else { return "" }
        guard unit == .pounds else {
            return metres.multiplied(by: ExactDecimal(significand: 1, scale: 3)!)?.description ?? ""
        }
        return decimal(metres.doubleValue / 1_609.344)
    }

    /// A binary64 in plain decimal notation: in full (`44.09245243697551`), or to 18 decimals when in full it would
    /// take more or an exponent (1 m in miles, `0.0006213711922373339`, is `0.000621371192237334`).
    private static func decimal(_ value: Double) -> String {
        if let plain = ExactDecimal(String(value)) { return plain.description }
        var digits = String(format: "%.18f", value)
        while digits.hasSuffix("0") { digits.removeLast() }
        if digits.hasSuffix(".") { digits.removeLast() }
        return digits
    }

    /// `1h 7m 3s`, `51m`, `0s`.
    static func duration(_ seconds: Int64) -> String {
        let parts = [(seconds / 3_600, "h"), (seconds / 60 % 60, "m"), (seconds % 60, "s")].filter { $0.0 > 0 }
        return parts.isEmpty ? "0s" : parts.map { "\($0.0)\($0.1)" }.joined(separator: " ")
    }

    /// A note as Strong writes one: a line break as `\n`, and so a carriage return as `\r` and a backslash as `\\`
    /// (the import reads each back). Scalar by scalar: a CR LF is one character to Swift.
    static func escaped(_ note: String?) -> String {
        var text = ""
        for scalar in (note ?? "").unicodeScalars {
            switch scalar {
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text
    }
}

/// Tables written as CSV (RFC 4180: fields with commas, quotes or line breaks quoted, quotes doubled).
public enum CSV {
    /// One line, its line break included.
    public static func line(_ fields: [String]) -> String {
        fields.map { field in
            guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
            return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }.joined(separator: ",") + "\n"
    }
}
