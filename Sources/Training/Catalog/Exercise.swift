/// An exercise a log can refer to: one of the bundled free-exercise-db or one the user defined.
public struct Exercise: Sendable, Hashable {
    /// The stable identifier: free-exercise-db's (`Barbell_Bench_Press_-_Medium_Grip`) or a custom one
    /// (`custom-my-press`).
    public var id: String
    /// The name shown to people.
    public var name: String
    /// The muscles the exercise mainly works, from ``ExerciseCatalog/muscleNames``.
    public var primaryMuscles: [String]
    /// The muscles it works besides, from ``ExerciseCatalog/muscleNames``.
    public var secondaryMuscles: [String]
    /// The equipment it needs ("barbell", "body only", …), if known.
    public var equipment: String?
    /// "push", "pull" or "static", if known.
    public var force: String?
    /// "compound" or "isolation", if known.
    public var mechanic: String?
    /// "strength", "stretching", "plyometrics", …, if known.
    public var category: String?
    /// Whether the user defined the exercise rather than it coming with the catalog.
    public var isCustom: Bool

    /// The longest name a custom exercise may have, in Unicode scalars: its id, made of its name, is part of keys
    /// in the read models, and LMDB takes keys of at most 511 bytes.
    public static let maximumNameLength = 100

    /// Whether `name` is short enough for a custom exercise (see ``maximumNameLength``).
    public static func fitsName(_ name: String) -> Bool { name.unicodeScalars.count <= maximumNameLength }

    public init(
        id: String, name: String, primaryMuscles: [String], secondaryMuscles: [String], equipment: String?,
        force: String?, mechanic: String?, category: String?, isCustom: Bool = false
    ) {
        self.id = id
        self.name = name
        self.primaryMuscles = primaryMuscles
        self.secondaryMuscles = secondaryMuscles
        self.equipment = equipment
        self.force = force
        self.mechanic = mechanic
        self.category = category
        self.isCustom = isCustom
    }
}
