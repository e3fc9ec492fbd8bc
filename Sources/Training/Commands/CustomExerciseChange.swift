/// What `exercise edit` changes of a custom exercise: each field given replaces the exercise's; nil leaves it as it is.
public struct CustomExerciseChange: Sendable, Equatable {
    public var primaryMuscles: [String]?
    /// An empty list clears them.
    public var secondaryMuscles: [String]?
    /// An empty text clears it.
    public var equipment: String?
    /// An empty text clears it.
    public var force: String?
    /// An empty text clears it.
    public var mechanic: String?

    public init(
        primaryMuscles: [String]? = nil, secondaryMuscles: [String]? = nil, equipment: String? = nil,
        force: String? = nil, mechanic: String? = nil
    ) {
        self.primaryMuscles = primaryMuscles
        self.secondaryMuscles = secondaryMuscles
        self.equipment = equipment
        self.force = force
        self.mechanic = mechanic
    }
}
