import EventJournal
import Foundation
import Projections

/// The tables of the plan read model (their keys and rows are in docs/FORMAT.md).
enum PlanTable: Int, CaseIterable {
    /// `profile` → the profile's fields, merged, as a `ProfileUpdated` payload.
    case profile
    /// Instant ‖ position → a body-weight entry's weight.
    case bodyWeights
    /// Routine id → the routine: its id, name, creating position and exercises.
    case routines
    /// Position → a recorded schedule: when it was set, and its `ScheduleSet` payload.
    case schedules
    /// Custom exercise id → its position and `CustomExerciseAdded` payload.
    case exercises

    var name: String {
        switch self {
        case .profile: "profile"
        case .bodyWeights: "body-weights"
        case .routines: "routines"
        case .schedules: "schedules"
        case .exercises: "exercises"
        }
    }
}

/// What the user planned and told about themselves: profile and body weight, routines, schedules, custom exercises.
/// It follows no rules.
public struct PlanProjection: Projection {
    public typealias Event = RecordedTrainingEvent

    public static let name = "plan"
    public var name: String { Self.name }
    /// 1: the first version. 2: a time zone this machine does not know, or cannot use (past UTC+14), is passed over, as
    /// the rules pass it over. 3: a custom exercise changed (`exercise edit`) keeps the position it was added at.
    public let version: UInt32 = 3
    public let rulesDigest: [UInt8] = []
    public let tables = PlanTable.allCases.map(\.name)
    public let eventTypes: Set<String>? = [
        ProfileUpdated.typeName, BodyWeightRecorded.typeName, CustomExerciseAdded.typeName, RoutineCreated.typeName,
        RoutineExerciseAdded.typeName, RoutineExerciseRemoved.typeName, RoutineExerciseMoved.typeName,
        ScheduleSet.typeName,
    ]

    public init() {}

    public func fold(_ events: ArraySlice<RecordedTrainingEvent>, into model: ReadModel) throws {
        func table(_ table: PlanTable) -> ReadModelTable { model.table(table.rawValue) }
        var routines: [String: StoredRoutine] = [:]
        func routine(_ id: String) throws -> StoredRoutine? {
            if let cached = routines[id] { return cached }
            return try table(.routines).withValue(forKey: Array(id.utf8)) { raw in
                try ReadModelRow.decode(raw, table: "routines", StoredRoutine.init(decoding:))
            }
        }
        // Most events are a workout's, which this read model passes over: they are looked at in place, not copied.
        for index in events.indices where !events[index].event.isWorkoutEvent {
            let recorded = events[index]
            switch recorded.event {
            case .profileUpdated(let update):
                let key = Array("profile".utf8)
                var profile =
                    try table(.profile).withValue(forKey: key) { raw in
                        try ReadModelRow.decode(raw, table: "profile") { bytes throws(PayloadError) in
                            var reader = PayloadReader(bytes)
                            return try ProfileUpdated(reading: &reader)
                        }
                    } ?? ProfileUpdated()
                profile.merge(update)
                try table(.profile).put(profile.encoded, forKey: key)
            case .bodyWeightRecorded(let recordedWeight):
                var weight = PayloadWriter()
                recordedWeight.weight.write(to: &weight)
                try table(.bodyWeights).put(
                    weight.finish(), forKey: Key().instant(recorded.occurredAt).unsigned(recorded.position).bytes)
            case .customExerciseAdded(let added):
                let key = Array(added.exerciseId.utf8)
                // A change keeps the exercise where it was added, among the others.
                let addedAt =
                    try table(.exercises).withValue(forKey: key) { raw in
                        try ReadModelRow.decode(raw, table: "exercises", Self.positionAdded(decoding:))
                    } ?? recorded.position
                var writer = PayloadWriter()
                writer.unsigned(1, addedAt)
                writer.bytes(2, added.encoded)
                try table(.exercises).put(writer.finish(), forKey: key)
            case .routineCreated(let created):
                var stored = try routine(created.routineId) ?? StoredRoutine(position: recorded.position)
                stored.routine = Routine(id: created.routineId, name: created.name, exercises: stored.routine.exercises)
                routines[created.routineId] = stored
            case .routineExerciseAdded, .routineExerciseRemoved, .routineExerciseMoved:
                guard recorded.streamID.hasPrefix(Routine.streamPrefix) else { continue }
                let id = String(recorded.streamID.dropFirst(Routine.streamPrefix.count))
                guard var stored = try routine(id) else { continue }
                stored.routine.apply(recorded.event)
                routines[id] = stored
            case .scheduleSet(let set):
                var writer = PayloadWriter()
                writer.timestamp(1, recorded.occurredAt)
                writer.bytes(2, set.encoded)
                try table(.schedules).put(writer.finish(), forKey: Key().unsigned(recorded.position).bytes)
            default:
                continue
            }
        }
        for (id, stored) in routines { try table(.routines).put(stored.encoded, forKey: Array(id.utf8)) }
    }

    /// The position that added the custom exercise an `exercises` row holds.
    static func positionAdded(decoding bytes: UnsafeRawBufferPointer) throws(PayloadError) -> UInt64 {
        var reader = PayloadReader(bytes)
        while let field = try reader.next() {
            if field.number == 1 { return try field.unsigned() }
        }
        throw PayloadError("a stored custom exercise lacks its position")
    }
}

extension ProfileUpdated {
    /// Takes the fields `update` has, but a time zone this machine does not know: the one set before stays in force,
    /// as for the rules (``Rules/load(from:through:including:)``).
    mutating func merge(_ update: ProfileUpdated) {
        if let name = update.name { self.name = name }
        if let age = update.age { self.age = age }
        if let height = update.heightCentimeters { heightCentimeters = height }
        if let unit = update.unit { self.unit = unit }
        if let zone = update.timeZone, TimeZone.usable(zone) != nil { timeZone = zone }
    }
}

/// A routine as the `routines` table keeps it, with the position that created it (routines are listed in that order).
struct StoredRoutine {
    var routine: Routine
    var position: UInt64

    init(position: UInt64) {
        routine = Routine(id: "", name: "")
        self.position = position
    }

    var encoded: [UInt8] {
        var writer = PayloadWriter()
        writer.string(1, routine.id)
        writer.string(2, routine.name)
        writer.unsigned(3, position)
        for exercise in routine.exercises { writer.bytes(4, exercise.encoded) }
        return writer.finish()
    }

    init(decoding bytes: UnsafeRawBufferPointer) throws(PayloadError) {
        var reader = PayloadReader(bytes)
        self.init(position: 0)
        var id = ""
        var name = ""
        var exercises: [RoutineExerciseAdded] = []
        while let field = try reader.next() {
            switch field.number {
            case 1: id = try field.string()
            case 2: name = try field.string()
            case 3: position = try field.unsigned()
            case 4:
                var nested = try field.message()
                exercises.append(try RoutineExerciseAdded(reading: &nested))
            default: continue
            }
        }
        routine = Routine(id: id, name: name, exercises: exercises)
    }
}
