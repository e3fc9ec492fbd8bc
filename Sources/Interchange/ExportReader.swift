import EventJournal
import Foundation
import Training

/// A workout as an export holds it: its sets (and rest pseudo-rows) in file order, with the line of each.
struct ImportedWorkout {
    /// What identifies the workout in its app: its number, or its start and name; the same in a later export.
    var key: String
    var firstLine: Int
    var name: String
    var start: Timestamp
    var end: Timestamp
    var note: String?
    var items: [Item] = []

    enum Item {
        case set(ImportedSet)
        /// A rest timer of that many seconds, after the set before it.
        case rest(seconds: UInt32)
    }

    var sets: [ImportedSet] {
        items.compactMap { if case .set(let set) = $0 { set } else { nil } }
    }
}

/// One set as a row holds it, its weight read in its unit (conversion noise undone).
struct ImportedSet {
    var line: Int
    var exercise: String
    var kind: SetKind
    var weight: Weight?
    var reps: UInt32
    var rpe: RPE?
    var durationSeconds: UInt32?
    var distanceMeters: ExactDecimal?
    var note: String?
    /// The `Category` FitNotes gives the exercise, for a custom exercise's muscles.
    var category: String?
}

/// Reads an export's rows into workouts, checking every field.
struct ExportReader {
    let layout: ExportLayout
    /// The unit of weights the file does not name a unit for.
    let unit: MassUnit?
    var parser: FieldParser
    /// Rows with a weight written with more decimals than an app keeps, and whether it is a plain value in the other
    /// unit: evidence for or against the unit the file was said to be in.
    private(set) var noisyWeights: [(line: Int, value: ExactDecimal, cleanInOtherUnit: Bool)] = []

    init(layout: ExportLayout, unit: MassUnit?, timeZone: TimeZone) {
        self.layout = layout
        self.unit = unit
        parser = FieldParser(timeZone: timeZone)
    }

    /// The rows' workouts, in file order.
    mutating func workouts(_ rows: [(line: Int, fields: [String])]) throws(ImportError) -> [ImportedWorkout] {
        var workouts: [ImportedWorkout] = []
        var index: [String: Int] = [:]
        let columns = layout.columns
        // Without a unit, weights cannot be read, nor distances (kilometres or miles by the file's unit).
        guard unit != nil || layout.weightUnit != nil || columns[.weightUnit] != nil else {
            throw ImportError(
                .unit, "the file gives its weights and distances no unit",
                remedy: "say which with --unit kg or --unit lb")
        }
        let needed = (columns.values.max() ?? 0) + 1
        for (line, fields) in rows {
            // A row cut short (a file truncated in transfer, say) would read its missing fields as empty.
            guard fields.count >= needed else {
                throw ImportError(
                    .malformed, "line \(line) has \(fields.count) fields where the header has \(needed)",
                    remedy: "the file looks cut short or edited: export it from the app again")
            }
            // A row longer than the header, past it with more than empty fields (a note's comma left unquoted, two
            // rows joined by a lost line break), would read its values in the wrong columns, or leave some out.
            if fields.count > layout.fieldCount,
                fields[layout.fieldCount...].contains(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty })
            {
                throw ImportError(
                    .malformed, "line \(line) has \(fields.count) fields where the header has \(layout.fieldCount)",
                    remedy: "quote a field that holds the delimiter (\"felt good, tired\"), or put back a lost line "
                        + "break; or export the file from the app again")
            }
            func field(_ column: ExportLayout.Column) -> String {
                columns[column].map { fields[$0] } ?? ""
            }
            let (key, start, end, name, note) = try workoutFields(field, line: line)
            let slot: Int
            if let existing = index[key] {
                slot = existing
            } else {
                slot = workouts.count
                index[key] = slot
                workouts.append(
                    ImportedWorkout(
                        key: key, firstLine: line, name: name, start: start, end: max(end, start), note: note))
            }
            if workouts[slot].note == nil, let note { workouts[slot].note = note }
            if let rest = try restSeconds(field, line: line) {
                workouts[slot].items.append(.rest(seconds: rest))
                continue
            }
            workouts[slot].items.append(.set(try set(field, line: line, workout: workouts[slot])))
        }
        return workouts
    }

    /// The workout a row belongs to: its key, start, end, name and note.
    private mutating func workoutFields(
        _ field: (ExportLayout.Column) -> String, line: Int
    ) throws(ImportError) -> (String, Timestamp, Timestamp, String, String?) {
        switch layout.format {
        case .strong:
            let start = try parser.instant(field(.date), line: line)
            let limit = FieldParser.maximumWorkoutDuration
            var seconds = try FieldParser.duration(field(.duration), line: line, limit: limit)
            if seconds == nil { seconds = try FieldParser.duration(field(.durationSeconds), line: line, limit: limit) }
            let name = try Self.workoutName(field(.workoutName), line: line)
            // Not the `;` layout's `Workout #`: a running count, which deleting an older workout in the app shifts.
            let key = "\(field(.date))\u{0}\(name)"
            return (
                key, start, start.adding(seconds: seconds ?? 0), name.isEmpty ? "Workout" : name,
                Self.text(field(.workoutNotes), escapes: true)
            )
        case .hevy:
            let start = try parser.instant(field(.startTime), line: line, "start_time")
            var end = field(.endTime).isEmpty ? start : try parser.instant(field(.endTime), line: line, "end_time")
            // A duration, as Strong's is: from 0 to a year. An end before the start is the hour the
            // clocks go back: both local times are read as its first pass, and the end belongs to its second.
            if end < start { end = parser.secondPass(of: end, before: start) ?? end }
            let seconds = (end.microsecondsSinceEpoch - start.microsecondsSinceEpoch) / 1_000_000
            guard (0...FieldParser.maximumWorkoutDuration).contains(seconds) else {
                throw ImportError(
                    .malformed,
                    "line \(line): end_time \(field(.endTime).debugDescription) is "
                        + (seconds < 0 ? "before start_time" : "more than a year after start_time"),
                    remedy: "fix that row in the file (or remove it), then import again")
            }
            let name = try Self.workoutName(field(.title), line: line)
            return (
                "\(field(.startTime))\u{0}\(name)", start, end, name.isEmpty ? "Workout" : name,
                Self.text(field(.workoutDescription))
            )
        case .fitnotes:
            let start = try parser.instant(field(.date), line: line)
            // The day, however the row writes it (`2022-9-14` is `2022-09-14`): written as FitNotes writes it, so that
            // the workout's identity is the one an import of its own file gave it.
            let day = LocalDate(dayNumber: LocalDate.dayNumber(of: start, in: parser.timeZone))
            return (day.description, start, start, "Workout", nil)
        }
    }

    /// A workout's name as `start --name` takes names: on one line.
    private static func workoutName(_ name: String, line: Int) throws(ImportError) -> String {
        guard name.holdsControlCharacters else { return name }
        throw ImportError(
            .malformed, "line \(line) names a workout with a line break or another control character",
            remedy: "put the name on one line in the file, then import again")
    }

    /// The seconds of a rest pseudo-row (`Rest Timer`, `Ruhezeit`), or nil for a set.
    private func restSeconds(_ field: (ExportLayout.Column) -> String, line: Int) throws(ImportError) -> UInt32? {
        guard layout.format == .strong else { return nil }
        let order = field(.setOrder).trimmingCharacters(in: .whitespaces).lowercased()
        guard ["rest timer", "ruhezeit", "休息计时器", "rest_timer"].contains(order) else { return nil }
        return try FieldParser.seconds(field(.seconds), line: line) ?? 0
    }

    private mutating func set(
        _ field: (ExportLayout.Column) -> String, line: Int, workout: ImportedWorkout
    ) throws(ImportError) -> ImportedSet {
        let exercise = field(.exercise).trimmingCharacters(in: .whitespaces)
        // A name of invisible characters alone (U+202E, U+2066) is none: every such name would make one exercise.
        guard !ExerciseCatalog.key(exercise).isEmpty else {
            throw ImportError(
                .malformed, "line \(line) names no exercise",
                remedy: "fix that row in the file (or remove it), then import again")
        }
        // As `exercise add` takes names: on one line, and not too long for read-model keys.
        guard !exercise.holdsControlCharacters else {
            throw ImportError(
                .malformed, "line \(line) names an exercise with a line break or another control character",
                remedy: "put the name on one line in the file, then import again")
        }
        guard Exercise.fitsName(exercise) else {
            throw ImportError(
                .malformed, "line \(line) names an exercise longer than \(Exercise.maximumNameLength) characters",
                remedy: "shorten the name in the file, then import again")
        }
        var set = ImportedSet(
            line: line, exercise: exercise, kind: try kind(field, line: line), weight: nil,
            reps: try FieldParser.reps(field(.reps), line: line), rpe: try FieldParser.rpe(field(.rpe), line: line))
        if let value = try FieldParser.decimal(field(.weight), line: line, "weight") {
            guard !value.isNegative else { throw FieldParser.malformed(line, "weight", field(.weight)) }
            let unit = try weightUnit(field(.weightUnit), line: line)
            let mayBeNoise = FieldParser.decimalsWritten(field(.weight)) > 4
            // Only weights that take their unit from --unit tell whether --unit is right.
            if mayBeNoise, layout.weightUnit == nil, field(.weightUnit).trimmingCharacters(in: .whitespaces).isEmpty {
                let other: MassUnit = unit == .kilograms ? .pounds : .kilograms
                noisyWeights.append(
                    (line, value, FieldParser.cleanConversion(value, from: unit, to: other) != nil))
            }
            set.weight = mayBeNoise ? FieldParser.weight(value, unit) : Weight(value, unit)
        }
        switch layout.format {
        case .strong, .hevy:
            set.durationSeconds = try FieldParser.seconds(field(.seconds), line: line)
        case .fitnotes:
            set.durationSeconds = try FieldParser.duration(
                field(.time), line: line, limit: FieldParser.maximumSetDuration
            ).flatMap { UInt32(exactly: $0) }
                .flatMap { $0 == 0 ? nil : $0 }
            set.category = Self.text(field(.category))
        }
        let distance = try FieldParser.decimal(field(.distance), line: line, "distance")
        // A negative distance is no distance run: it does not parse, as a negative weight or time does not.
        if let distance, distance.isNegative { throw FieldParser.malformed(line, "distance", field(.distance)) }
        if let distance, distance.significand > 0 {
            set.distanceMeters = try metres(
                distance, unit: field(.distanceUnit), mayBeNoise: FieldParser.decimalsWritten(field(.distance)) > 4,
                line: line)
        }
        let escapes = layout.format == .strong
        var notes = [field(.notes), field(.comment)].compactMap { Self.text($0, escapes: escapes) }
        if layout.format == .hevy {
            let superset = field(.supersetID).trimmingCharacters(in: .whitespaces)
            if !superset.isEmpty { notes.append("superset \(superset)") }
            // Hevy repeats an exercise's notes on each of its sets: keep them on the first.
            let first = !workout.sets.contains { $0.exercise == exercise }
            if first, let exerciseNotes = Self.text(field(.exerciseNotes)) { notes.insert(exerciseNotes, at: 0) }
        }
        set.note = notes.isEmpty ? nil : notes.joined(separator: "; ")
        return set
    }

    private func kind(_ field: (ExportLayout.Column) -> String, line: Int) throws(ImportError) -> SetKind {
        switch layout.format {
        case .strong:
            let order = field(.setOrder).trimmingCharacters(in: .whitespaces).uppercased()
            if order.allSatisfy(\.isNumber) && !order.isEmpty { return .normal }
            switch order {
            case "W", "WARM_UP", "WARMUP": return .warmup
            case "D", "DROP_SET", "DROPSET": return .drop
            case "F", "FAILURE": return .failure
            default: throw FieldParser.malformed(line, "set order", field(.setOrder))
            }
        case .hevy:
            switch field(.setType).trimmingCharacters(in: .whitespaces).lowercased() {
            case "normal", "": return .normal
            case "warmup": return .warmup
            case "dropset": return .drop
            case "failure": return .failure
            default: throw FieldParser.malformed(line, "set type", field(.setType))
            }
        case .fitnotes:
            return .normal
        }
    }

    /// The unit of a row's weight: the row's own (`lbs`, `kgs`), else the header's, else the one given.
    private func weightUnit(_ text: String, line: Int) throws(ImportError) -> MassUnit {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if !trimmed.isEmpty {
            guard let unit = MassUnit(parsing: trimmed) else { throw FieldParser.malformed(line, "weight unit", text) }
            return unit
        }
        if let unit = layout.weightUnit ?? unit { return unit }
        throw ImportError(
            .unit, "the file gives its weights no unit (line \(line))",
            remedy: "say which with --unit kg or --unit lb")
    }

    /// A distance in metres: the row's unit, else the header's, else kilometres for a file in kg and miles for one in
    /// pounds (as Strong writes them). A value written with more than four decimals is binary noise of a conversion
    /// (LiftLedger's export in pounds writes 1 km as `0.621371192237334` miles, and Strong 5.22 miles as
    /// `5.220000000000001`): its metres are taken in whole micrometres when they are within a thousandth of one of
    /// them (and more than none); else the value is taken as the number of fewest decimals within two units in its
    /// last place, converted exactly; else as it is written; else its metres are rounded to the micrometre.
    private func metres(
        _ value: ExactDecimal, unit text: String, mayBeNoise: Bool, line: Int
    ) throws(ImportError) -> ExactDecimal {
        let named = text.trimmingCharacters(in: .whitespaces).lowercased()
        let factor: ExactDecimal
        if !named.isEmpty {
            guard let known = ExportLayout.metres[named] else {
                throw FieldParser.malformed(line, "distance unit", text)
            }
            factor = known
        } else if let header = layout.metresPerDistanceUnit {
            factor = header
        } else {
            factor = (layout.weightUnit ?? unit) == .pounds ? ExportLayout.metres["mi"]! : ExportLayout.metres["km"]!
        }
        guard mayBeNoise else {
            guard let product = value.multiplied(by: factor) else {
                throw FieldParser.malformed(line, "distance", value.description)
            }
            return product
        }
        let metres = value.doubleValue * factor.doubleValue
        if let micrometres = FieldParser.near(metres, decimals: 6), micrometres.significand > 0 { return micrometres }
        // Else the value meant, in the file's unit (`13.109399999999999` miles is 13.1094), converted exactly; else the
        // value as written, converted exactly; else the metres to the micrometre, when that does not fit.
        if let meant = FieldParser.shortestDecimal(near: value.doubleValue), meant.significand > 0,
            let product = meant.multiplied(by: factor)
        {
            return product
        }
        if let product = value.multiplied(by: factor) { return product }
        guard let rounded = ExactDecimal(rounding: metres, toDigits: 6), rounded.significand > 0 else {
            throw FieldParser.malformed(line, "distance", value.description)
        }
        return rounded
    }

    /// The text of a field, spaces around it dropped, nil when empty. `\n` is read as a line break (Strong writes a
    /// note's line breaks so); with `escapes` (Strong's layout, which LiftLedger's export writes), `\r` as a carriage
    /// return and `\\` as a backslash (see ``StrongExport``). Another backslash is kept.
    static func text(_ field: String, escapes: Bool = false) -> String? {
        let trimmed = field.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return nil }
        guard trimmed.contains("\\") else { return trimmed }
        guard escapes else { return trimmed.replacingOccurrences(of: "\\n", with: "\n") }
        var text = ""
        var afterBackslash = false
        for character in trimmed {
            if afterBackslash {
                switch character {
                case "n": text.append("\n")
                case "r": text.append("\r")
                case "\\": text.append("\\")
                default: text += "\\\(character)"
                }
                afterBackslash = false
            } else if character == "\\" {
                afterBackslash = true
            } else {
                text.append(character)
            }
        }
        if afterBackslash { text.append("\\") }
        return text
    }
}
