/// A user-defined exercise joined the catalog (stream `catalog`).
public struct CustomExerciseAdded: TrainingEventPayload {
    public static let typeName = "CustomExerciseAdded"

    public var exerciseId: String
    public var name: String
    public var primaryMuscles: [String]
    public var secondaryMuscles: [String]
    public var equipment: String?
    public var force: String?
    public var mechanic: String?
    public var category: String?

    public init(
        exerciseId: String, name: String, primaryMuscles: [String], secondaryMuscles: [String] = [],
        equipment: String? = nil, force: String? = nil, mechanic: String? = nil, category: String? = nil
    ) {
        self.exerciseId = exerciseId
        self.name = name
        self.primaryMuscles = primaryMuscles
        self.secondaryMuscles = secondaryMuscles
        self.equipment = equipment
        self.force = force
        self.mechanic = mechanic
        self.category = category
    }

    public func write(to writer: inout PayloadWriter) {
        writer.string(1, exerciseId)
        writer.string(2, name)
        writer.strings(3, primaryMuscles)
        writer.strings(4, secondaryMuscles)
        writer.string(5, equipment)
        writer.string(6, force)
        writer.string(7, mechanic)
        writer.string(8, category)
    }

    public init(reading reader: inout PayloadReader) throws(PayloadError) {
        var exerciseId: String?
        var name: String?
        self.init(exerciseId: "", name: "", primaryMuscles: [])
        while let field = try reader.next() {
            switch field.number {
            case 1: exerciseId = try field.string()
            case 2: name = try field.string()
            case 3: primaryMuscles.append(try field.string())
            case 4: secondaryMuscles.append(try field.string())
            case 5: equipment = try field.string()
            case 6: force = try field.string()
            case 7: mechanic = try field.string()
            case 8: category = try field.string()
            default: continue
            }
        }
        guard let exerciseId else { throw .missing("exerciseId", in: Self.typeName) }
        guard let name else { throw .missing("name", in: Self.typeName) }
        self.exerciseId = exerciseId
        self.name = name
    }

    /// The exercise as the catalog holds it.
    public var exercise: Exercise {
        Exercise(
            id: exerciseId, name: name, primaryMuscles: primaryMuscles, secondaryMuscles: secondaryMuscles,
            equipment: equipment, force: force, mechanic: mechanic, category: category, isCustom: true)
    }
}
