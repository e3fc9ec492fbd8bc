import Training

extension ExerciseCatalog {
    /// The exercise an import takes another app's exercise name for (`Bench Press (Barbell)`, Strong's and Hevy's):
    /// by the shipped table of app names, or with the equipment in brackets moved in front; nil when an import would
    /// make the name an exercise of its own.
    public func exercise(appName name: String) -> Exercise? {
        guard let mapper = try? ExerciseMapper(catalog: self, mappingFile: nil),
            case .exercise(let exercise) = mapper.map(name, category: nil)
        else { return nil }
        return exercise
    }
}
