import Foundation
import Training

/// Maps other apps' exercise names to exercises: a user's `--map` file first, then a custom exercise of that name, then
/// the shipped table of app names, then the catalog (ids, names, aliases), then the name with its equipment moved in
/// front (`Bench Press (Barbell)` as `barbell bench press`). A name that matches nothing becomes a custom exercise of
/// its own.
struct ExerciseMapper {
    enum Outcome {
        case exercise(Exercise)
        /// A new custom exercise, to be added with the import.
        case custom(CustomExerciseAdded)

        var exerciseId: String {
            switch self {
            case .exercise(let exercise): exercise.id
            case .custom(let added): added.exerciseId
            }
        }

        var name: String {
            switch self {
            case .exercise(let exercise): exercise.name
            case .custom(let added): added.name
            }
        }
    }

    let catalog: ExerciseCatalog
    /// Normalised app name → exercise, from the user's mapping file.
    private let overrides: [String: Exercise]
    /// The mapping file's names as written, by their normal form.
    let mappedNames: [String: String]
    /// Normalised app name → catalog id, shipped.
    private let table: [String: String]

    init(catalog: ExerciseCatalog, mappingFile: String?) throws(ImportError) {
        self.catalog = catalog
        table = try Self.shipped.get()
        var overrides: [String: Exercise] = [:]
        var names: [String: String] = [:]
        if let mappingFile {
            // Names are compared as imports compare them (case, blanks and punctuation aside): two that compare
            // alike would map one name two ways, the one taken left to the order a dictionary gives.
            for (name, target) in try Self.readMapping(mappingFile).sorted(by: { $0.key < $1.key }) {
                let key = ExerciseCatalog.key(name)
                guard !key.isEmpty else {
                    throw ImportError(
                        .mapping, "the mapping file \(mappingFile) maps an empty name",
                        remedy: "give each app exercise's name as its export writes it")
                }
                if let other = names.updateValue(name, forKey: key) {
                    throw ImportError(
                        .mapping,
                        "the mapping file \(mappingFile) maps \(other.debugDescription) and \(name.debugDescription), "
                            + "one name written two ways",
                        remedy: "keep one exercise for each name")
                }
                // A catalog name or id as the catalog reads it, else another app's name for one, as every command
                // takes it (`Bicep Curl (Dumbbell)`).
                guard let exercise = catalog.lookup(target) ?? Self.known(target, catalog: catalog, table: table) else {
                    throw ImportError(
                        .mapping,
                        "the mapping file maps \(name.debugDescription) to \(target.debugDescription), "
                            + "which is no exercise",
                        remedy: "use a catalog name or id (see liftledger exercise list)")
                }
                overrides[key] = exercise
            }
        }
        self.overrides = overrides
        mappedNames = names
    }

    /// What `name` maps to; `category` (FitNotes') gives a custom exercise its muscles.
    func map(_ name: String, category: String?) -> Outcome {
        let key = ExerciseCatalog.key(name)
        if let exercise = overrides[key] { return .exercise(exercise) }
        if let exercise = Self.known(name, catalog: catalog, table: table) { return .exercise(exercise) }
        let id = "custom-" + key.replacingOccurrences(of: " ", with: "-")
        let muscles = category.flatMap { Self.categoryMuscles[$0.lowercased()] } ?? ([], [])
        return .custom(
            CustomExerciseAdded(
                exerciseId: id, name: name, primaryMuscles: muscles.0, secondaryMuscles: muscles.1,
                category: category?.lowercased() == "cardio" ? "cardio" : "strength"))
    }

    /// The exercise an app's `name` is, when the catalog has one for it: a custom exercise of that very name (the
    /// user's own, or an earlier import's) before the apps' names, so that an export of it reads back as it; then the
    /// shipped table of app names; then the catalog's names and aliases, with the equipment in brackets moved in front
    /// or behind (`Curl (Dumbbell)`). A mapping file's targets are read so too.
    private static func known(_ name: String, catalog: ExerciseCatalog, table: [String: String]) -> Exercise? {
        let key = ExerciseCatalog.key(name)
        if let existing = catalog.exercise(id: "custom-" + key.replacingOccurrences(of: " ", with: "-")) {
            return existing
        }
        if let id = table[key], let exercise = catalog.exercise(id: id) { return exercise }
        if let exercise = catalog.lookup(name) { return exercise }
        if let open = name.firstIndex(of: "("), let close = name.lastIndex(of: ")"), open < close {
            let base = String(name[..<open])
            let equipment = String(name[name.index(after: open)..<close])
            for candidate in ["\(equipment) \(base)", "\(base) \(equipment)"] {
                if let exercise = catalog.lookup(candidate) { return exercise }
            }
        }
        return nil
    }

    /// FitNotes' categories, as muscles.
    private static let categoryMuscles: [String: ([String], [String])] = [
        "chest": (["chest"], []), "back": (["lats"], ["middle back"]), "shoulders": (["shoulders"], []),
        "biceps": (["biceps"], []), "triceps": (["triceps"], []), "legs": (["quadriceps"], ["hamstrings", "glutes"]),
        "abs": (["abdominals"], []),
    ]

    /// The shipped table of app names: `Resources/app-exercise-names.json`, names normalised. Without it every app
    /// name would become a custom exercise for good, so an installation that lacks it imports nothing.
    private static let shipped: Result<[String: String], ImportError> = {
        guard
            let url = Bundle.module.url(
                forResource: "app-exercise-names", withExtension: "json", subdirectory: "Resources"),
            let data = try? Data(contentsOf: url),
            let table = try? JSONSerialization.jsonObject(with: data) as? [String: String]
        else {
            return .failure(
                ImportError(
                    .file, "the table of app exercise names (Resources/app-exercise-names.json) is missing or damaged",
                    remedy: "reinstall liftledger, or build it again with tools/liftledger"))
        }
        return .success(
            Dictionary(table.map { (ExerciseCatalog.key($0.key), $0.value) }, uniquingKeysWith: min))
    }()

    /// A mapping file: a JSON object from app names to exercise names or ids.
    private static func readMapping(_ path: String) throws(ImportError) -> [String: String] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ImportError(
                .mapping,
                path.isEmpty ? "no mapping file is named by an empty path" : "cannot read the mapping file \(path)",
                remedy: "check the path")
        }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: String] else {
            throw ImportError(
                .mapping, "the mapping file \(path) is not a JSON object of names to exercises",
                remedy: #"write it as {"App Exercise Name": "catalog name or id", ...}"#)
        }
        // JSONSerialization keeps the last of a name given twice, unseen: a file that gives one name twice is refused.
        var scanner = JSONScanner(Array(data))
        var names: Set<String> = []
        var repeated: String?
        try? scanner.object { scanner, name throws(JSONSyntaxError) in
            if !names.insert(name).inserted, repeated == nil { repeated = name }
            try scanner.skipValue()
        }
        if let repeated {
            throw ImportError(
                .mapping, "the mapping file \(path) maps \(repeated.debugDescription) more than once",
                remedy: "keep one exercise for each name")
        }
        return object
    }
}
