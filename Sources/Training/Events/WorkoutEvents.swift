import EventJournal

/// A workout began (the first event of stream `workout-<number>`); it is the active one until finished or discarded.
public struct WorkoutStarted: TrainingEventPayload {
    public static let typeName = "WorkoutStarted"

    public var name: String
    /// The routine it follows, if any.
    public var routineId: String?

    public init(name: String, routineId: String? = nil) {
        self.name = name
        self.routineId = routineId
    }

    public func write(to writer: inout PayloadWriter) {
        writer.string(1, name)
        writer.string(2, routineId)
    }

    public init(reading reader: inout PayloadReader) throws(PayloadError) {
        self.init(name: "")
        while let field = try reader.next() {
            switch field.number {
            case 1: name = try field.string()
            case 2: routineId = try field.string()
            default: continue
            }
        }
    }
}

/// The workout's clock stopped; time until the next `WorkoutResumed` does not count as elapsed.
public struct WorkoutPaused: TrainingEventPayload {
    public static let typeName = "WorkoutPaused"
    public init() {}
    public func write(to writer: inout PayloadWriter) {}
    public init(reading reader: inout PayloadReader) throws(PayloadError) { try reader.skipAll() }
}

/// The workout's clock runs again.
public struct WorkoutResumed: TrainingEventPayload {
    public static let typeName = "WorkoutResumed"
    public init() {}
    public func write(to writer: inout PayloadWriter) {}
    public init(reading reader: inout PayloadReader) throws(PayloadError) { try reader.skipAll() }
}

/// The workout ended and joins the history.
public struct WorkoutFinished: TrainingEventPayload {
    public static let typeName = "WorkoutFinished"

    public var note: String?

    public init(note: String? = nil) { self.note = note }

    public func write(to writer: inout PayloadWriter) { writer.string(1, note) }

    public init(reading reader: inout PayloadReader) throws(PayloadError) {
        self.init()
        while let field = try reader.next() {
            if field.number == 1 { note = try field.string() }
        }
    }
}

/// The workout ended without joining the history.
public struct WorkoutDiscarded: TrainingEventPayload {
    public static let typeName = "WorkoutDiscarded"
    public init() {}
    public func write(to writer: inout PayloadWriter) {}
    public init(reading reader: inout PayloadReader) throws(PayloadError) { try reader.skipAll() }
}

/// A finished workout was edited: only the fields present change. A new start moves the whole workout.
public struct WorkoutEdited: TrainingEventPayload {
    public static let typeName = "WorkoutEdited"

    public var startedAt: Timestamp?
    public var note: String?
    public var name: String?

    public init(startedAt: Timestamp? = nil, note: String? = nil, name: String? = nil) {
        self.startedAt = startedAt
        self.note = note
        self.name = name
    }

    public func write(to writer: inout PayloadWriter) {
        writer.timestamp(1, startedAt)
        writer.string(2, note)
        writer.string(3, name)
    }

    public init(reading reader: inout PayloadReader) throws(PayloadError) {
        self.init()
        while let field = try reader.next() {
            switch field.number {
            case 1: startedAt = try field.timestamp()
            case 2: note = try field.string()
            case 3: name = try field.string()
            default: continue
            }
        }
    }

    private enum CodingKeys: String, CodingKey { case startedAt, note, name }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(startedAt?.description, forKey: .startedAt)
        try container.encodeIfPresent(note, forKey: .note)
        try container.encodeIfPresent(name, forKey: .name)
    }
}

/// A tombstone: the workout no longer counts anywhere. Its events stay in the journal.
public struct WorkoutDeleted: TrainingEventPayload {
    public static let typeName = "WorkoutDeleted"

    public var reason: String?

    public init(reason: String? = nil) { self.reason = reason }

    public func write(to writer: inout PayloadWriter) { writer.string(1, reason) }

    public init(reading reader: inout PayloadReader) throws(PayloadError) {
        self.init()
        while let field = try reader.next() {
            if field.number == 1 { reason = try field.string() }
        }
    }
}

/// A deleted workout counts again, as it did before it was deleted; a discarded one, given `finishedAt`, is finished
/// then after all. Its own time is when it was restored, so that as of a time before, the workout is still gone.
public struct WorkoutRestored: TrainingEventPayload {
    public static let typeName = "WorkoutRestored"

    /// For a discarded workout: when it ended.
    public var finishedAt: Timestamp?

    public init(finishedAt: Timestamp? = nil) { self.finishedAt = finishedAt }

    public func write(to writer: inout PayloadWriter) { writer.timestamp(1, finishedAt) }

    public init(reading reader: inout PayloadReader) throws(PayloadError) {
        self.init()
        while let field = try reader.next() {
            if field.number == 1 { finishedAt = try field.timestamp() }
        }
    }

    private enum CodingKeys: String, CodingKey { case finishedAt }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(finishedAt?.description, forKey: .finishedAt)
    }
}

/// An exercise joined the end of the workout.
public struct ExerciseAdded: TrainingEventPayload {
    public static let typeName = "ExerciseAdded"

    public var exerciseId: String
    /// The exercise's name when it was added.
    public var exerciseName: String

    public init(exerciseId: String, exerciseName: String) {
        self.exerciseId = exerciseId
        self.exerciseName = exerciseName
    }

    public func write(to writer: inout PayloadWriter) {
        writer.string(1, exerciseId)
        writer.string(2, exerciseName)
    }

    public init(reading reader: inout PayloadReader) throws(PayloadError) {
        var exerciseId: String?
        var exerciseName = ""
        while let field = try reader.next() {
            switch field.number {
            case 1: exerciseId = try field.sharedString()
            case 2: exerciseName = try field.sharedString()
            default: continue
            }
        }
        guard let exerciseId else { throw .missing("exerciseId", in: Self.typeName) }
        self.init(exerciseId: exerciseId, exerciseName: exerciseName)
    }
}

/// An exercise left the workout (its sets stay, and no longer count).
public struct ExerciseRemoved: TrainingEventPayload {
    public static let typeName = "ExerciseRemoved"

    public var exerciseId: String

    public init(exerciseId: String) { self.exerciseId = exerciseId }

    public func write(to writer: inout PayloadWriter) { writer.string(1, exerciseId) }

    public init(reading reader: inout PayloadReader) throws(PayloadError) {
        self.init(exerciseId: try reader.requiredString(1, "exerciseId", in: Self.typeName))
    }
}

/// An exercise moved to another place in the workout (`toIndex` counts from 0).
public struct ExerciseMoved: TrainingEventPayload {
    public static let typeName = "ExerciseMoved"

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
        let moved = try RoutineExerciseMoved(reading: &reader)
        self.init(exerciseId: moved.exerciseId, toIndex: moved.toIndex)
    }
}

extension PayloadReader {
    /// Reads past every field, checking that the payload is well formed.
    mutating func skipAll() throws(PayloadError) {
        while try next() != nil {}
    }
}
