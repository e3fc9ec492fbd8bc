import Foundation

extension ExerciseCatalog {
    /// The catalog shipped with LiftLedger: free-exercise-db's 873 exercises and the shipped alias table. Loaded
    /// once per process.
    public static func bundled() throws(CatalogError) -> ExerciseCatalog {
        try bundledResult.get()
    }

    private static let bundledResult = Result { () throws(CatalogError) in
        func resource(_ name: String) throws(CatalogError) -> URL {
            guard let url = Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Resources")
            else {
                throw CatalogError(
                    "the resource \(name).json is missing from \(Bundle.module.bundlePath)",
                    remedy:
                        "reinstall LiftLedger with its LiftLedger_Training.resources directory beside the executable")
            }
            return url
        }
        return try load(exercises: resource("free-exercise-db"), aliases: resource("exercise-aliases"))
    }

    /// Reads a catalog from a free-exercise-db JSON file and an alias table (a JSON object of names to ids).
    static func load(exercises exercisesURL: URL, aliases aliasesURL: URL) throws(CatalogError) -> ExerciseCatalog {
        let exercises = try read(exercisesURL) { (scanner: inout JSONScanner) throws(JSONSyntaxError) in
            var exercises: [Exercise] = []
            try scanner.array { (scanner: inout JSONScanner) throws(JSONSyntaxError) in
                exercises.append(try exercise(&scanner))
            }
            return exercises
        }
        let aliases = try read(aliasesURL) { (scanner: inout JSONScanner) throws(JSONSyntaxError) in
            var aliases: [String: String] = [:]
            try scanner.object { (scanner: inout JSONScanner, alias) throws(JSONSyntaxError) in
                aliases[alias] = try scanner.string()
            }
            return aliases
        }
        return ExerciseCatalog(exercises: exercises, aliases: aliases)
    }

    private static func read<Value>(
        _ url: URL, _ value: (inout JSONScanner) throws(JSONSyntaxError) -> Value
    ) throws(CatalogError) -> Value {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw CatalogError(
                "cannot read the catalog file \(url.path)",
                remedy: "check that it exists and is readable, or reinstall LiftLedger")
        }
        do {
            var scanner = JSONScanner([UInt8](data))
            let result = try value(&scanner)
            try scanner.end()
            return result
        } catch {
            throw CatalogError(
                "the catalog file \(url.path) is malformed: expected \(error.expected) at byte \(error.offset)",
                remedy: "reinstall LiftLedger to restore the file")
        }
    }

    /// One exercise of free-exercise-db, keeping the fields the catalog uses.
    private static func exercise(_ scanner: inout JSONScanner) throws(JSONSyntaxError) -> Exercise {
        var id: String?
        var name: String?
        var exercise = Exercise(
            id: "", name: "", primaryMuscles: [], secondaryMuscles: [], equipment: nil, force: nil, mechanic: nil,
            category: nil)
        try scanner.object { (scanner: inout JSONScanner, key) throws(JSONSyntaxError) in
            switch key {
            case "id": id = try scanner.string()
            case "name": name = try scanner.string()
            case "primaryMuscles": exercise.primaryMuscles = try scanner.strings()
            case "secondaryMuscles": exercise.secondaryMuscles = try scanner.strings()
            case "equipment": exercise.equipment = try scanner.optionalString()
            case "force": exercise.force = try scanner.optionalString()
            case "mechanic": exercise.mechanic = try scanner.optionalString()
            case "category": exercise.category = try scanner.optionalString()
            default: try scanner.skipValue()
            }
        }
        guard let id, let name else { throw JSONSyntaxError(offset: scanner.offset, expected: "an id and a name") }
        exercise.id = id
        exercise.name = name
        return exercise
    }
}
