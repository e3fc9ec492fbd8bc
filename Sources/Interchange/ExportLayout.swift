import Foundation
import Training

/// The apps whose exports this build reads.
public enum ExportFormat: String, Sendable, CaseIterable {
    case strong
    case hevy
    case fitnotes
}

/// A header read: which column holds what, the app, and the units the header names.
struct ExportLayout {
    /// What a column holds, whatever the app calls it.
    enum Column: Hashable {
        case date, workoutName, duration, durationSeconds, exercise, setOrder, weight, weightUnit, reps, rpe
        case distance, distanceUnit, seconds, notes, workoutNotes, workoutNumber
        case title, startTime, endTime, workoutDescription, supersetID, exerciseNotes, setType
        case category, time, comment
    }

    let format: ExportFormat
    let columns: [Column: Int]
    /// How many fields the header has.
    let fieldCount: Int
    /// The unit of every weight, when the header says (`weight_kg`, `Weight (lbs)`).
    let weightUnit: MassUnit?
    /// Metres in one distance unit, when the header says (`distance_km`, `Distance (meters)`).
    let metresPerDistanceUnit: ExactDecimal?
    /// How people would name the layout, for the report: `Strong, ';', kg in the header`.
    let description: String

    /// Header names, compared trimmed and lowercased, in the apps' languages (English, German, Chinese), with the
    /// unit some of them carry.
    private static let names: [String: (Column, unit: String?)] = [
        // Strong, every layout and language.
        "date": (.date, nil), "datum": (.date, nil), "日期": (.date, nil),
        "workout name": (.workoutName, nil), "workout-name": (.workoutName, nil), "锻炼名称": (.workoutName, nil),
        "duration": (.duration, nil), "dauer": (.duration, nil), "时长": (.duration, nil),
        "duration (sec)": (.durationSeconds, nil),
        "exercise name": (.exercise, nil), "name der übung": (.exercise, nil), "运动名称": (.exercise, nil),
        "set order": (.setOrder, nil), "reihenfolge festlegen": (.setOrder, nil), "设置顺序": (.setOrder, nil),
        "weight": (.weight, nil), "gewicht": (.weight, nil), "重量": (.weight, nil),
        "weight (kg)": (.weight, "kg"), "weight (kgs)": (.weight, "kg"), "weight (lbs)": (.weight, "lb"),
        "weight (lb)": (.weight, "lb"), "weight unit": (.weightUnit, nil),
        "reps": (.reps, nil), "wiederh.": (.reps, nil), "次": (.reps, nil), "rpe": (.rpe, nil),
        "distance": (.distance, nil), "entfernung": (.distance, nil), "距离": (.distance, nil),
        "distance (meters)": (.distance, "m"), "distance (km)": (.distance, "km"),
        "distance (miles)": (.distance, "mi"), "distance unit": (.distanceUnit, nil),
        "seconds": (.seconds, nil), "sekunden": (.seconds, nil), "秒": (.seconds, nil),
        "notes": (.notes, nil), "notizen": (.notes, nil), "备注": (.notes, nil),
        "workout notes": (.workoutNotes, nil), "workout-notizen": (.workoutNotes, nil), "锻炼备注": (.workoutNotes, nil),
        "workout #": (.workoutNumber, nil),
        // Hevy.
        "title": (.title, nil), "start_time": (.startTime, nil), "end_time": (.endTime, nil),
        "description": (.workoutDescription, nil), "exercise_title": (.exercise, nil),
        "superset_id": (.supersetID, nil), "exercise_notes": (.exerciseNotes, nil),
        "set_type": (.setType, nil), "weight_kg": (.weight, "kg"), "weight_lbs": (.weight, "lb"),
        "distance_km": (.distance, "km"), "distance_miles": (.distance, "mi"), "duration_seconds": (.seconds, nil),
        // FitNotes.
        "exercise": (.exercise, nil), "category": (.category, nil), "time": (.time, nil), "comment": (.comment, nil),
    ]

    /// Metres per distance unit, by the names exports use.
    static let metres: [String: ExactDecimal] = [
        "m": ExactDecimal(1), "meters": ExactDecimal(1), "metres": ExactDecimal(1), "km": ExactDecimal(1_000),
        "mi": ExactDecimal(significand: 1_609_344, scale: 3)!, "miles": ExactDecimal(significand: 1_609_344, scale: 3)!,
        "ft": ExactDecimal(significand: 3_048, scale: 4)!, "yd": ExactDecimal(significand: 9_144, scale: 4)!,
    ]

    /// How the app's English export names a column that every export of `format` has.
    static func headerName(_ column: Column, _ format: ExportFormat) -> String {
        switch (format, column) {
        case (.hevy, .title): "title"
        case (.hevy, .startTime): "start_time"
        case (.hevy, .exercise): "exercise_title"
        case (.hevy, .setType): "set_type"
        case (.hevy, .weight): "weight_kg (or weight_lbs)"
        case (.hevy, .reps): "reps"
        case (.fitnotes, .exercise): "Exercise"
        case (.fitnotes, .category): "Category"
        case (_, .date): "Date"
        case (_, .exercise): "Exercise Name"
        case (_, .setOrder): "Set Order"
        case (_, .weight): "Weight"
        case (_, .reps): "Reps"
        default: "\(column)"
        }
    }

    /// The layout of `header`, or an error naming what was expected. `format` overrides the detection.
    init(header: [String], format requested: ExportFormat?) throws(ImportError) {
        var columns: [Column: Int] = [:]
        var weightUnit: MassUnit?
        var metres: ExactDecimal?
        for (index, name) in header.enumerated() {
            guard let (column, unit) = Self.names[name.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()],
                columns[column] == nil
            else { continue }
            columns[column] = index
            switch (column, unit) {
            case (.weight, let unit?): weightUnit = MassUnit(parsing: unit)
            case (.distance, let unit?): metres = Self.metres[unit]
            default: break
            }
        }
        let detected: ExportFormat? =
            if columns[.setType] != nil && columns[.startTime] != nil { .hevy } else if columns[.category] != nil {
                .fitnotes
            } else if columns[.setOrder] != nil { .strong } else { nil }
        guard let format = requested ?? detected else {
            throw ImportError(
                .unknownLayout,
                "the first line is not the header of a Strong, Hevy or FitNotes export: "
                    + "\(header.prefix(4).joined(separator: ",").prefix(80).debugDescription)",
                remedy: "export your workouts from the app as CSV and import that file, unchanged")
        }
        let required: [Column] =
            switch format {
            case .strong: [.date, .exercise, .setOrder, .weight, .reps]
            case .hevy: [.title, .startTime, .exercise, .setType, .weight, .reps]
            case .fitnotes: [.date, .exercise, .category, .weight, .reps]
            }
        // Hevy's weight column names its unit: a bare `weight` is none of Hevy's (an edited header), and read with
        // --unit it could take the wrong one.
        let lacksHevyUnit = format == .hevy && weightUnit == nil
        if let missing = required.first(where: { columns[$0] == nil || ($0 == .weight && lacksHevyUnit) }) {
            throw ImportError(
                .unknownLayout,
                "the header lacks the \(Self.headerName(missing, format)) column of a \(format.rawValue) export",
                remedy: requested == nil
                    ? "export your workouts from the app as CSV and import that file, unchanged"
                    : "check --format; leave it out to detect the layout from the header")
        }
        // So does its distance column: a bare `distance` would be read in kilometres or miles by the weights' unit.
        if format == .hevy, columns[.distance] != nil, metres == nil {
            throw ImportError(
                .unknownLayout, "the header's distance column names no unit, as a hevy export's does",
                remedy: "export your workouts from the app as CSV and import that file, unchanged "
                    + "(its distance column is distance_km or distance_miles)")
        }
        self.format = format
        self.columns = columns
        fieldCount = header.count
        self.weightUnit = weightUnit
        self.metresPerDistanceUnit = metres
        var description = format.rawValue
        if format == .strong {
            if columns[.workoutNumber] != nil { description += ", numbered workouts" }
            if columns[.duration] == nil && columns[.durationSeconds] == nil { description += ", no durations" }
            if columns[.weightUnit] != nil { description += ", a unit on each row" }
        }
        if let weightUnit { description += ", \(weightUnit.rawValue) in the header" }
        self.description = description
    }
}
