import EventJournal

/// A workout in progress as the `workouts` table keeps it, in the binary encoding of the events (docs/FORMAT.md lists
/// the fields): the fold's state of it from one chunk to the next. It leaves out the rest timer and the last activity,
/// which the fold does not follow (it does not read rest timers' events); a query works them out from the workout's
/// events (``TrainingSnapshot/workout(_:)``).
extension Workout {
    /// Writes the `workouts` row.
    func writeRow(to writer: inout PayloadWriter) {
        writer.string(1, id)
        writer.string(2, name)
        writer.string(3, routineId)
        writer.timestamp(4, startedAt)
        switch status {
        case .active: break
        case .finished(let time):
            writer.unsigned(5, 2)
            writer.timestamp(6, time)
        case .discarded(let time):
            writer.unsigned(5, 3)
            writer.timestamp(6, time)
        }
        if isDeleted { writer.bool(7, true) }
        writer.string(8, note)
        writer.timestamp(9, pausedAt)
        if pausedMicroseconds != 0 { writer.signed(10, pausedMicroseconds) }
        for exercise in exercises {
            writer.message(11) { nested in
                nested.string(1, exercise.exerciseId)
                if exercise.name != exercise.exerciseId { nested.string(2, exercise.name) }
            }
        }
        for set in sets {
            writer.message(12) { nested in
                nested.unsigned(1, UInt64(set.number))
                // The set's exercise by its index among the workout's, when it is one of them.
                let index = exerciseIndex(of: set.details.exerciseId)
                nested.message(2) { set.details.writeRow(to: &$0, withExercise: index == nil) }
                nested.unsigned(3, index.map(UInt64.init))
                // Wrapping arithmetic both ways gives back any instant exactly.
                nested.signed(14, set.loggedAt.microsecondsSinceEpoch &- startedAt.microsecondsSinceEpoch)
                nested.timestamp(11, set.correctedAt)
                if set.isRemoved { nested.bool(12, true) }
                nested.unsigned(13, set.position)
            }
        }
        // Fields 13 and 14, the rest timer and the last activity, were kept up to version 5 of the projection.
        writer.timestamp(15, startRecordedAt)
        writer.unsigned(16, finishedPosition)
        writer.timestamp(17, resumedAt)
    }

    init(decoding bytes: UnsafeRawBufferPointer) throws(PayloadError) {
        var reader = PayloadReader(bytes)
        var id: String?
        var started = WorkoutStarted(name: "")
        var startedAt: Timestamp?
        var statusCode: UInt64 = 1
        var statusAt: Timestamp?
        var fields: [Field] = []
        while let field = try reader.next() {
            switch field.number {
            case 1: id = try field.string()
            case 2: started.name = try field.string()
            case 3: started.routineId = try field.string()
            case 4: startedAt = try field.timestamp()
            case 5: statusCode = try field.unsigned()
            case 6: statusAt = try field.timestamp()
            default: fields.append(field)
            }
        }
        guard let id, let startedAt else { throw PayloadError("a stored workout lacks its id or start") }
        self.init(id: id, started: started, at: startedAt, recordedAt: startedAt)
        switch (statusCode, statusAt) {
        case (1, _): status = .active
        case (2, let time?): status = .finished(at: time)
        case (3, let time?): status = .discarded(at: time)
        default: throw PayloadError("a stored workout has status \(statusCode)")
        }
        for field in fields {
            switch field.number {
            case 7: isDeleted = try field.bool()
            case 8: note = try field.string()
            case 9: pausedAt = try field.timestamp()
            case 10: pausedMicroseconds = try field.signed()
            case 11: exercises.append(try Self.exercise(field.message()))
            case 12: sets.append(try Self.set(field.message(), exercises: exercises, startedAt: startedAt))
            case 15: startRecordedAt = try field.timestamp()
            case 16: finishedPosition = try field.unsigned()
            case 17: resumedAt = try field.timestamp()
            default: continue
            }
        }
    }

    private static func exercise(_ reader: PayloadReader) throws(PayloadError) -> WorkoutExercise {
        var reader = reader
        var id = ""
        var name: String?
        while let field = try reader.next() {
            switch field.number {
            case 1: id = try field.sharedString()
            case 2: name = try field.sharedString()
            default: continue
            }
        }
        return WorkoutExercise(exerciseId: id, name: name ?? id)
    }

    /// A set, whose exercise is given by its index among `exercises` or in its fields, and which was logged at an
    /// offset from `startedAt`, the workout's start.
    private static func set(
        _ reader: PayloadReader, exercises: [WorkoutExercise], startedAt: Timestamp
    ) throws(PayloadError) -> LoggedSet {
        var reader = reader
        var number: UInt32 = 0
        var details = SetDetails(exerciseId: "", weight: nil, reps: 0)
        var loggedAt = Timestamp(microsecondsSinceEpoch: 0)
        var correctedAt: Timestamp?
        var isRemoved = false
        var position: UInt64 = 0
        var exerciseIndex: Int?
        while let field = try reader.next() {
            switch field.number {
            case 1: number = try field.integer()
            case 14:
                loggedAt = Timestamp(microsecondsSinceEpoch: startedAt.microsecondsSinceEpoch &+ (try field.signed()))
            case 11: correctedAt = try field.timestamp()
            case 12: isRemoved = try field.bool()
            case 13: position = try field.unsigned()
            case 2: details = try SetDetails(row: field.message())
            case 3: exerciseIndex = try field.integer()
            default: continue
            }
        }
        if let exerciseIndex {
            guard exerciseIndex < exercises.count else {
                throw PayloadError("a stored set names exercise \(exerciseIndex) of \(exercises.count)")
            }
            details.exerciseId = exercises[exerciseIndex].exerciseId
        }
        var set = LoggedSet(number: number, details: details, loggedAt: loggedAt, position: position)
        set.correctedAt = correctedAt
        set.isRemoved = isRemoved
        return set
    }
}
