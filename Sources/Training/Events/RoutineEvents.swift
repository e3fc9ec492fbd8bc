/// A routine was created, empty (stream `routine-<id>`).
public struct RoutineCreated: TrainingEventPayload {
    public static let typeName = "RoutineCreated"

    public var routineId: String
    public var name: String

    public init(routineId: String, name: String) {
        self.routineId = routineId
        self.name = name
    }

    public func write(to writer: inout PayloadWriter) {
        writer.string(1, routineId)
        writer.string(2, name)
    }

    public init(reading reader: inout PayloadReader) throws(PayloadError) {
        var routineId: String?
        var name: String?
        while let field = try reader.next() {
            switch field.number {
            case 1: routineId = try field.string()
            case 2: name = try field.string()
            default: continue
            }
        }
        guard let routineId, let name else { throw .missing("routineId and name", in: Self.typeName) }
        self.init(routineId: routineId, name: name)
    }
}

/// An exercise joined the end of a routine, with its targets.
public struct RoutineExerciseAdded: TrainingEventPayload {
    public static let typeName = "RoutineExerciseAdded"

    public var exerciseId: String
    /// The exercise's name when it was added, so that the routine reads well without the catalog.
    public var exerciseName: String
    public var targetSets: UInt32
    public var minimumReps: UInt32
    public var maximumReps: UInt32
    public var restSeconds: UInt32

    public init(
        exerciseId: String, exerciseName: String, targetSets: UInt32, minimumReps: UInt32, maximumReps: UInt32,
        restSeconds: UInt32
    ) {
        self.exerciseId = exerciseId
        self.exerciseName = exerciseName
        self.targetSets = targetSets
        self.minimumReps = minimumReps
        self.maximumReps = maximumReps
        self.restSeconds = restSeconds
    }

    public func write(to writer: inout PayloadWriter) {
        writer.string(1, exerciseId)
        writer.string(2, exerciseName)
        writer.unsigned(3, UInt64(targetSets))
        writer.unsigned(4, UInt64(minimumReps))
        writer.unsigned(5, UInt64(maximumReps))
        writer.unsigned(6, UInt64(restSeconds))
    }

    public init(reading reader: inout PayloadReader) throws(PayloadError) {
        var exerciseId: String?
        self.init(exerciseId: "", exerciseName: "", targetSets: 0, minimumReps: 0, maximumReps: 0, restSeconds: 0)
        while let field = try reader.next() {
            switch field.number {
            case 1: exerciseId = try field.string()
            case 2: exerciseName = try field.string()
            case 3: targetSets = try field.integer()
            case 4: minimumReps = try field.integer()
            case 5: maximumReps = try field.integer()
            case 6: restSeconds = try field.integer()
            default: continue
            }
        }
        guard let exerciseId else { throw .missing("exerciseId", in: Self.typeName) }
        self.exerciseId = exerciseId
    }
}

/// An exercise left a routine.
public struct RoutineExerciseRemoved: TrainingEventPayload {
    public static let typeName = "RoutineExerciseRemoved"

    public var exerciseId: String

    public init(exerciseId: String) { self.exerciseId = exerciseId }

    public func write(to writer: inout PayloadWriter) { writer.string(1, exerciseId) }

    public init(reading reader: inout PayloadReader) throws(PayloadError) {
        self.init(exerciseId: try reader.requiredString(1, "exerciseId", in: Self.typeName))
    }
}

/// An exercise moved to another place in a routine (`toIndex` counts from 0).
public struct RoutineExerciseMoved: TrainingEventPayload {
    public static let typeName = "RoutineExerciseMoved"

    public var exerciseId: String
    public var toIndex: UInt32

    public init(exerciseId: String, toIndex: UInt32) {
        self.exerciseId = exerciseId
        self.toIndex = toIndex
    }

    public func write(to writer: inout PayloadWriter) {
        writer.string(1, exerciseId)
        writer.unsigned(2, UInt64(toIndex))
    }

    public init(reading reader: inout PayloadReader) throws(PayloadError) {
        var exerciseId: String?
        var toIndex: UInt32 = 0
        while let field = try reader.next() {
            switch field.number {
            case 1: exerciseId = try field.string()
            case 2: toIndex = try field.integer()
            default: continue
            }
        }
        guard let exerciseId else { throw .missing("exerciseId", in: Self.typeName) }
        self.init(exerciseId: exerciseId, toIndex: toIndex)
    }
}

/// The training schedule was replaced (stream `schedule`).
public struct ScheduleSet: TrainingEventPayload {
    public static let typeName = "ScheduleSet"

    public enum Kind: String, Sendable, Encodable {
        /// Seven days, Monday first, each a routine name or a rest day.
        case weekdays
        /// N days that repeat, advancing one day per calendar day from `startDate`.
        case split

        var code: UInt64 { self == .weekdays ? 1 : 2 }
    }

    public var kind: Kind
    /// Routine names; an empty string is a rest day.
    public var days: [String]
    /// The local date (`YYYY-MM-DD`) that is day 1 of a split.
    public var startDate: String?

    public init(kind: Kind, days: [String], startDate: String? = nil) {
        self.kind = kind
        self.days = days
        self.startDate = startDate
    }

    public func write(to writer: inout PayloadWriter) {
        writer.unsigned(1, kind.code)
        writer.strings(2, days)
        writer.string(3, startDate)
    }

    public init(reading reader: inout PayloadReader) throws(PayloadError) {
        self.init(kind: .weekdays, days: [])
        while let field = try reader.next() {
            switch field.number {
            case 1:
                switch try field.unsigned() {
                case 1: kind = .weekdays
                case 2: kind = .split
                case let other: throw PayloadError("unknown schedule kind \(other)")
                }
            case 2: days.append(try field.string())
            case 3: startDate = try field.string()
            default: continue
            }
        }
    }
}

extension PayloadReader {
    /// Reads a payload whose one required field is the text `number`.
    mutating func requiredString(_ number: UInt32, _ name: String, in type: String) throws(PayloadError) -> String {
        var value: String?
        while let field = try next() {
            if field.number == number { value = try field.string() }
        }
        guard let value else { throw .missing(name, in: type) }
        return value
    }
}
