/// A routine: exercises in order, each with its targets.
public struct Routine: Sendable {
    /// The part of the stream id after `routine-`: the name, normalized.
    public let id: String
    public let name: String
    public internal(set) var exercises: [RoutineExerciseAdded] = []

    static let streamPrefix = "routine-"

    public static func streamID(_ id: String) -> String { streamPrefix + id }

    /// The routine id for a name: normalized as catalog names are, spaces turned into hyphens.
    public static func id(forName name: String) -> String {
        ExerciseCatalog.normalized(name).replacingOccurrences(of: " ", with: "-")
    }

    /// The id versions before fullwidth letters were folded and invisible characters left out gave a routine of a name
    /// with them (`Ｐｕｓｈ` made `ｐｕｓｈ`, `Push 💪️` `push-` and a variation selector), by which it is still found;
    /// nil when it is the id ``id(forName:)`` gives.
    static func idBeforeWidthFolding(forName name: String) -> String? {
        let id = ExerciseCatalog.normalized(name, foldingWidth: false).replacingOccurrences(of: " ", with: "-")
        return id == self.id(forName: name) ? nil : id
    }

    mutating func apply(_ event: TrainingEvent) {
        switch event {
        case .routineExerciseAdded(let added):
            exercises.removeAll { $0.exerciseId == added.exerciseId }
            exercises.append(added)
        case .routineExerciseRemoved(let removed):
            exercises.removeAll { $0.exerciseId == removed.exerciseId }
        case .routineExerciseMoved(let moved):
            guard let from = exercises.firstIndex(where: { $0.exerciseId == moved.exerciseId }) else { return }
            let exercise = exercises.remove(at: from)
            exercises.insert(exercise, at: min(Int(moved.toIndex), exercises.count))
        default:
            break
        }
    }
}
