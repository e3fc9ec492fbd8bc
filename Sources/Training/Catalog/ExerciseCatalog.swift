/// The exercises a log can refer to — the bundled ones, then the user's custom ones — found by id, by name or by
/// an alias (a common name such as "ohp").
public struct ExerciseCatalog: Sendable {
    /// Every exercise: the catalog's in their order, then the custom ones in the order they were added.
    public private(set) var exercises: [Exercise] = []
    /// The normalized name and id of each of `exercises`, in the same order.
    private(set) var keys: [(name: String, id: String)] = []
    /// Normalized alias → exercise id.
    let aliases: [String: String]
    /// Exercise id → position in `exercises`.
    private(set) var positionsByID: [String: Int] = [:]
    /// Normalized name or id → position in `exercises`.
    private var positionsByKey: [String: Int] = [:]

    /// The muscle names exercises use (free-exercise-db's 17), in alphabetical order.
    public static let muscleNames = [
        "abdominals", "abductors", "adductors", "biceps", "calves", "chest", "forearms", "glutes", "hamstrings", "lats",
        "lower back", "middle back", "neck", "quadriceps", "shoulders", "traps", "triceps",
    ]

    /// The equipment exercises use (free-exercise-db's 12), in alphabetical order.
    public static let equipmentNames = [
        "bands", "barbell", "body only", "cable", "dumbbell", "e-z curl bar", "exercise ball", "foam roll",
        "kettlebells", "machine", "medicine ball", "other",
    ]

    /// A catalog of `exercises`, where `aliases` maps text people type to exercise ids (compared normalized).
    ///
    /// Of exercises sharing an id, the later replaces the earlier in place. An alias whose id is not in the catalog
    /// finds nothing; of aliases that normalize alike, the one to the smallest id counts.
    public init(exercises: [Exercise], aliases: [String: String]) {
        self.aliases = Dictionary(aliases.map { (Self.normalized($0.key), $0.value) }, uniquingKeysWith: min)
        insert(exercises)
    }

    /// This catalog with `custom` exercises added after the others; one with an id already present replaces it in
    /// place.
    ///
    /// Where a name (or normalized id) matches both a catalog and a custom exercise, ``lookup(_:)`` finds the custom
    /// one, which the user defined on purpose; the catalog one is still found by its exact id.
    public func adding(_ custom: [Exercise]) -> ExerciseCatalog {
        var catalog = self
        catalog.insert(custom)
        return catalog
    }

    /// The exercise with exactly this id.
    public func exercise(id: String) -> Exercise? {
        positionsByID[id].map { exercises[$0] }
    }

    /// The exercise `text` names: the one with exactly that id, else, compared normalized (see ``key(_:)``), one
    /// with that id or name (a custom exercise before a catalog one), else the one an alias names.
    public func lookup(_ text: String) -> Exercise? {
        if let exercise = exercise(id: text) { return exercise }
        let key = Self.key(text)
        if let position = positionsByKey[key] { return exercises[position] }
        return aliases[key].flatMap { exercise(id: $0) }
    }

    private mutating func insert(_ new: [Exercise]) {
        for exercise in new {
            let keys = (name: Self.key(exercise.name), id: Self.key(exercise.id))
            if let position = positionsByID[exercise.id] {
                exercises[position] = exercise
                self.keys[position] = keys
            } else {
                positionsByID[exercise.id] = exercises.count
                exercises.append(exercise)
                self.keys.append(keys)
            }
        }
        positionsByKey = [:]
        // Custom exercises last, so that their keys win.
        for isCustom in [false, true] {
            for (position, exercise) in exercises.enumerated() where exercise.isCustom == isCustom {
                for key in [keys[position].id, keys[position].name] where !key.isEmpty {
                    positionsByKey[key] = position
                }
            }
        }
    }
}
