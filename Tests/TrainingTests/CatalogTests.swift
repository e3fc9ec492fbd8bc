import Foundation
import TestSupport
import Testing

@testable import Training

struct CatalogTests {
    /// The shipped resources, read straight from the source tree rather than through the catalog code.
    static let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/Training/Resources")

    /// free-exercise-db's exercises as JSONSerialization reads them.
    static func dataFile() throws -> [[String: Any]] {
        let data = try Data(contentsOf: resources.appendingPathComponent("free-exercise-db.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
    }

    /// The shipped alias table as JSONSerialization reads it.
    static func aliasFile() throws -> [String: String] {
        let data = try Data(contentsOf: resources.appendingPathComponent("exercise-aliases.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: String])
    }

    /// `exercise` with every field as the data file's `object` has it.
    static func expectMatches(_ exercise: Exercise?, _ object: [String: Any]) {
        #expect(exercise?.id == object["id"] as? String)
        #expect(exercise?.name == object["name"] as? String)
        #expect(exercise?.primaryMuscles == object["primaryMuscles"] as? [String])
        #expect(exercise?.secondaryMuscles == object["secondaryMuscles"] as? [String])
        #expect(exercise?.equipment == object["equipment"] as? String)
        #expect(exercise?.force == object["force"] as? String)
        #expect(exercise?.mechanic == object["mechanic"] as? String)
        #expect(exercise?.category == object["category"] as? String)
        #expect(exercise?.isCustom == false)
    }

    /// A symbol name is searched for character by character: `+` (2b) finds `+`, not `⭐` (2b50), whose hex starts
    /// with the same digits; `🔥` finds `🔥🔥`.
    @Test func aSymbolSearchMatchesWholeCharacters() {
        func custom(_ name: String) -> Exercise {
            Exercise(
                id: "custom-" + ExerciseCatalog.key(name), name: name, primaryMuscles: [], secondaryMuscles: [],
                equipment: nil, force: nil, mechanic: nil, category: nil, isCustom: true)
        }
        let catalog = ExerciseCatalog(exercises: [custom("⭐"), custom("+"), custom("🔥🔥")], aliases: [:])
        #expect(catalog.search("+").map(\.name) == ["+"])
        #expect(catalog.search("🔥").map(\.name) == ["🔥🔥"])
        #expect(catalog.search("⭐").map(\.name) == ["⭐"])
    }

    @Test func bundledCatalogHoldsEveryExerciseOnceInFileOrder() throws {
        let catalog = try ExerciseCatalog.bundled()
        let objects = try Self.dataFile()
        #expect(catalog.exercises.count == 873)
        #expect(catalog.exercises.map(\.id) == objects.map { $0["id"] as? String })
        #expect(Set(catalog.exercises.map(\.id)).count == catalog.exercises.count)
    }

    @Test func everyExerciseHasTheDataFilesFields() throws {
        let catalog = try ExerciseCatalog.bundled()
        for object in try Self.dataFile() {
            Self.expectMatches(catalog.exercise(id: try #require(object["id"] as? String)), object)
        }
    }

    /// One exercise with every field set, one with equipment, force and mechanic null.
    @Test(arguments: ["Barbell_Bench_Press_-_Medium_Grip", "Carioca_Quick_Step"])
    func knownExerciseHasTheDataFilesFields(id: String) throws {
        let object = try #require(try Self.dataFile().first { $0["id"] as? String == id })
        Self.expectMatches(try ExerciseCatalog.bundled().exercise(id: id), object)
    }

    @Test(arguments: [
        "Barbell_Bench_Press_-_Medium_Grip", "BARBELL_BENCH_PRESS_-_MEDIUM_GRIP", "Barbell Bench Press - Medium Grip",
        "barbell bench press medium grip", "  Barbell-Bench  Press (medium grip)! ", "bench press", "BENCH",
        "Bench-Press",
    ])
    func lookupIgnoresCaseAndPunctuation(text: String) throws {
        #expect(try ExerciseCatalog.bundled().lookup(text)?.id == "Barbell_Bench_Press_-_Medium_Grip")
    }

    @Test func lookupFindsNamesWithApostrophesWithOrWithoutThem() throws {
        let catalog = try ExerciseCatalog.bundled()
        #expect(catalog.lookup("Farmer's Walk")?.id == "Farmers_Walk")
        #expect(catalog.lookup("farmers walk")?.id == "Farmers_Walk")
    }

    @Test func everyAliasFindsAnExistingTarget() throws {
        let catalog = try ExerciseCatalog.bundled()
        let ids = Set(try Self.dataFile().compactMap { $0["id"] as? String })
        let aliases = try Self.aliasFile()
        #expect((40...80).contains(aliases.count))
        for (alias, id) in aliases {
            #expect(ids.contains(id), "alias \"\(alias)\" names no exercise")
            // Also shows that no exercise's name or id shadows the alias.
            #expect(catalog.lookup(alias)?.id == id, "alias \"\(alias)\"")
            #expect(catalog.lookup(alias.uppercased().replacingOccurrences(of: " ", with: "-"))?.id == id)
        }
    }

    @Test(arguments: [
        ("squat", "Barbell_Squat"), ("Back Squat", "Barbell_Squat"), ("deadlift", "Barbell_Deadlift"),
        ("OHP", "Standing_Military_Press"), ("pull-up", "Pullups"), ("Pullup", "Pullups"), ("RDL", "Romanian_Deadlift"),
        ("romanian deadlift", "Romanian_Deadlift"), ("face pull", "Face_Pull"), ("Leg Press", "Leg_Press"),
    ])
    func lookupFindsCommonNames(text: String, id: String) throws {
        #expect(try ExerciseCatalog.bundled().lookup(text)?.id == id)
    }

    @Test(arguments: [
        ("bench pres", "Barbell_Bench_Press_-_Medium_Grip"), ("squaat", "Barbell_Squat"),
        ("dedlift", "Barbell_Deadlift"), ("pulup", "Pullups"), ("pull upp", "Pullups"),
        ("romanain deadlift", "Romanian_Deadlift"), ("lat pulldwon", "Wide-Grip_Lat_Pulldown"),
        ("hamer curls", "Hammer_Curls"),
    ])
    func unknownNameFindsNothingButSuggestsTheIntendedExercise(text: String, id: String) throws {
        let catalog = try ExerciseCatalog.bundled()
        #expect(catalog.lookup(text) == nil)
        let suggestions = catalog.suggestions(for: text)
        #expect(suggestions.count == 3)
        #expect(suggestions.contains { $0.id == id }, "\(suggestions.map(\.name))")
    }

    @Test(arguments: [
        ("pullup", "Pullups"), ("pull up", "Pullups"), ("Barbell Curl", "Barbell_Curl"), ("sit ups", "Sit-Up"),
        ("benchpress", "Barbell_Bench_Press_-_Medium_Grip"), ("legpress", "Leg_Press"),
    ])
    func suggestionsPutTheClosestFirst(text: String, id: String) throws {
        #expect(try ExerciseCatalog.bundled().suggestions(for: text).first?.id == id)
    }

    @Test func suggestionsAreLimitedDeterministicAndLeaveOutUnlikeNames() throws {
        let catalog = try ExerciseCatalog.bundled()
        #expect(catalog.suggestions(for: "curl", limit: 7).count == 7)
        #expect(catalog.suggestions(for: "curl", limit: 7) == catalog.suggestions(for: "curl", limit: 7))
        #expect(catalog.suggestions(for: "curl", limit: 0).isEmpty)
        #expect(catalog.suggestions(for: "?!").isEmpty)
        #expect(catalog.suggestions(for: "qxzjv").isEmpty)
    }

    @Test func suggestionsBreakTiesByName() {
        let names = ["Gamma Press", "Alpha Press", "Beta Press"]
        let catalog = ExerciseCatalog(exercises: names.map { exercise(id: $0, name: $0) }, aliases: [:])
        #expect(catalog.suggestions(for: "press", limit: 2).map(\.name) == ["Alpha Press", "Beta Press"])
    }

    @Test func customExerciseIsFoundByIdNameAndSuggestion() throws {
        let bundled = try ExerciseCatalog.bundled()
        let custom = exercise(id: "custom-my-press", name: "My Press", isCustom: true)
        let catalog = bundled.adding([custom])
        #expect(catalog.exercises.count == bundled.exercises.count + 1)
        #expect(catalog.exercises.last == custom)
        #expect(catalog.exercise(id: "custom-my-press") == custom)
        #expect(catalog.lookup("custom-my-press") == custom)
        #expect(catalog.lookup("MY PRESS") == custom)
        #expect(catalog.suggestions(for: "my pres").first == custom)
        #expect(bundled.lookup("my press") == nil)
    }

    @Test func customExerciseNamedLikeACatalogOneWinsByNameButNotById() throws {
        let custom = exercise(id: "custom-barbell-squat", name: "Barbell Squat", isCustom: true)
        let catalog = try ExerciseCatalog.bundled().adding([custom])
        #expect(catalog.lookup("barbell squat") == custom)
        #expect(catalog.lookup("custom-barbell-squat") == custom)
        #expect(catalog.lookup("Barbell_Squat")?.isCustom == false)
        #expect(catalog.exercise(id: "Barbell_Squat")?.name == "Barbell Squat")
    }

    @Test func exerciseAddedAgainReplacesTheEarlierInPlace() throws {
        let first = exercise(id: "custom-a", name: "Old Name", isCustom: true)
        let second = exercise(id: "custom-b", name: "Other", isCustom: true)
        let renamed = exercise(id: "custom-a", name: "New Name", isCustom: true)
        let catalog = try ExerciseCatalog.bundled().adding([first, second]).adding([renamed])
        #expect(catalog.exercises.suffix(2) == [renamed, second])
        #expect(catalog.lookup("old name") == nil)
        #expect(catalog.lookup("new name") == renamed)
    }

    @Test func catalogOfNonLatinNamesFindsThem() {
        let squat = exercise(id: "custom-1", name: "深蹲 (高杠)", isCustom: true)
        let catalog = ExerciseCatalog(exercises: [squat], aliases: ["Kniebeuge": "custom-1"])
        #expect(catalog.lookup("深蹲 高杠") == squat)
        #expect(catalog.lookup("KNIEBEUGE!") == squat)
        #expect(catalog.lookup("") == nil)
    }

    @Test(arguments: [
        ("Barbell Bench Press - Medium Grip", "barbell bench press medium grip"),
        ("  __Crème—Brûlée!!  ", "creme brulee"), ("Kniebeuge ÜBER Kopf", "kniebeuge uber kopf"),
        ("深蹲（高杠）", "深蹲 高杠"), ("3/4 Sit-Up", "3 4 sit up"), ("---", ""), ("", ""),
        // Fullwidth letters and digits, as an input method in its fullwidth mode types them, are the ASCII ones.
        ("Ｐｕｓｈ　Ｄａｙ　２", "push day 2"),
        // An emoji's variation selector (a mark) was kept after the space the emoji made: `curl \u{FE0F}`, which
        // `curl` did not find.
        ("Curl 🏋️", "curl"), ("Row ❤️ Deluxe", "row deluxe"), ("Row ❤ Deluxe", "row deluxe"),
    ])
    func normalizedFoldsCaseDiacriticsWidthAndPunctuation(text: String, expected: String) {
        #expect(ExerciseCatalog.normalized(text) == expected)
    }

    /// A name one letter from a catalog name, blanks and punctuation aside, is all but that exercise's (the catalog's
    /// names, checked in free-exercise-db's data: `Romanian Deadlift`, `Zercher Squats`); two letters off, or a name of
    /// fewer than six letters, is not.
    @Test func aNameOneLetterFromAnExercisesIsAllButItsName() throws {
        let catalog = try ExerciseCatalog.bundled()
        #expect(catalog.nearlyNamed("Romanian Deadlifts")?.id == "Romanian_Deadlift")
        #expect(catalog.nearlyNamed("zercher-squat")?.id == "Zercher_Squats")
        #expect(catalog.nearlyNamed("Romanian Deadliftss") == nil)
        #expect(catalog.nearlyNamed("Plank Hold") == nil)
        #expect(catalog.nearlyNamed("Dipss") == nil)
    }

    /// A plural names what its singular names: its last word's made singular first, then every word's; `ss` is no
    /// plural (`press`), nor a word of three letters.
    @Test func aPluralNamesWhatItsSingularNames() throws {
        let catalog = try ExerciseCatalog.bundled()
        for (plural, singular) in [("deadlifts", "deadlift"), ("Calf Raises", "calf raise"), ("rdls", "rdl")] {
            let expected = try #require(catalog.lookup(singular), "\(singular)")
            #expect(catalog.lookup(plural) == nil && catalog.exercise(pluralOf: plural) == expected, "\(plural)")
        }
        #expect(catalog.exercise(pluralOf: "bench press") == nil && catalog.exercise(pluralOf: "abs") == nil)
    }

    @Test func muscleNamesAreThoseOfTheDataFile() throws {
        let muscles = try Self.dataFile().flatMap {
            ($0["primaryMuscles"] as? [String] ?? []) + ($0["secondaryMuscles"] as? [String] ?? [])
        }
        #expect(ExerciseCatalog.muscleNames == Set(muscles).sorted())
        #expect(ExerciseCatalog.muscleNames.count == 17)
    }

    @Test func equipmentNamesAreThoseOfTheDataFile() throws {
        let equipment = try Self.dataFile().compactMap { $0["equipment"] as? String }
        #expect(ExerciseCatalog.equipmentNames == Set(equipment).sorted())
        #expect(ExerciseCatalog.equipmentNames.count == 12)
    }

    @Test func missingOrMalformedFileIsACatalogError() throws {
        let directory = try TemporaryDirectory()
        let aliases = Self.resources.appendingPathComponent("exercise-aliases.json")
        let missing = URL(fileURLWithPath: directory.child("missing.json"))
        let error = #expect(throws: CatalogError.self) {
            try ExerciseCatalog.load(exercises: missing, aliases: aliases)
        }
        #expect(error?.description == "\(error?.message ?? ""); \(error?.remedy ?? "")")
        #expect(error?.message.contains(missing.path) == true)

        let malformed = URL(fileURLWithPath: directory.child("malformed.json"))
        try Data(#"[{"id": "a", "name": "A", "primaryMuscles": [1]}]"#.utf8).write(to: malformed)
        let syntax = #expect(throws: CatalogError.self) {
            try ExerciseCatalog.load(exercises: malformed, aliases: aliases)
        }
        #expect(
            syntax?.message.contains("malformed: expected '\"' at byte 45") == true, "\(String(describing: syntax))")
    }

    @Test func loaderDecodesEscapesAndSkipsUnusedValues() throws {
        let directory = try TemporaryDirectory()
        let file = URL(fileURLWithPath: directory.child("exercises.json"))
        let json = #"""
            [ {"instructions": [{"a": [1.5e3, -2, true, false, null, "x\"]"]}], "id": "a\"b",
               "name": "caf\u00e9 \ud83d\udcaa \\ \/ \n", "primaryMuscles": ["chest"], "secondaryMuscles": [],
               "equipment": null, "force": "push", "mechanic": null, "category": "strength"} ]
            """#
        try Data(json.utf8).write(to: file)
        let catalog = try ExerciseCatalog.load(
            exercises: file, aliases: Self.resources.appendingPathComponent("exercise-aliases.json"))
        let expected = Exercise(
            id: "a\"b", name: "café 💪 \\ / \n", primaryMuscles: ["chest"], secondaryMuscles: [], equipment: nil,
            force: "push", mechanic: nil, category: "strength")
        #expect(catalog.exercises == [expected])
    }

    /// A value the loader skips is still checked as one it reads would be. Offsets by hand: the skipped string opens
    /// at byte 11 and its text starts at 12; a tab at 13 is reported where it is, a bad escape or `\u` after the
    /// backslash at 13 is reported just after its letter, at 15, and an end inside the string where the input ends, at
    /// 15.
    @Test(arguments: [
        (#"[{"notes": "a\qb", "id": "a", "name": "A"}]"#, "an escape sequence at byte 15"),
        ("[{\"notes\": \"a\tb\", \"id\": \"a\", \"name\": \"A\"}]", "no control character in a string at byte 13"),
        (#"[{"notes": "a\uZZZZ", "id": "a", "name": "A"}]"#, "four hexadecimal digits at byte 15"),
        (#"[{"notes": "abc"#, "'\"' at byte 15"),
        (#"[{"notes": "ab\"#, "'\"' at byte 15"),
    ])
    func skippedStringsAreCheckedAsReadOnesAre(json: String, expected: String) throws {
        let directory = try TemporaryDirectory()
        let file = URL(fileURLWithPath: directory.child("exercises.json"))
        try Data(json.utf8).write(to: file)
        let error = #expect(throws: CatalogError.self) {
            try ExerciseCatalog.load(
                exercises: file, aliases: Self.resources.appendingPathComponent("exercise-aliases.json"))
        }
        #expect(error?.message.contains("malformed: expected \(expected)") == true, "\(String(describing: error))")
    }

    @Test(arguments: [("kitten", "sitting", 3), ("ab", "ba", 1), ("ca", "abc", 3), ("", "abc", 3), ("abc", "abc", 0)])
    func editDistanceCountsSwapsAsOneEdit(a: String, b: String, distance: Int) {
        #expect(editDistance(Array(a), Array(b)) == distance)
    }

    private func exercise(id: String, name: String, isCustom: Bool = false) -> Exercise {
        Exercise(
            id: id, name: name, primaryMuscles: ["chest"], secondaryMuscles: [], equipment: nil, force: nil,
            mechanic: nil, category: nil, isCustom: isCustom)
    }
}
