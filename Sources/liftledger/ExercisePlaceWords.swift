import ArgumentParser

/// The words of an exercise and then its new place counted from 1 (`bench press 2`), as `move-exercise` and `routine
/// move` take them.
enum ExercisePlaceWords {
    /// Refuses words that do not end in a place, saying what was wrong with the place when one was given: a negative
    /// one, which the argument parser reads as an option (and leaves out of `words`), or one too large to count.
    static func validate(_ words: [String], example: String) throws {
        let arguments = CommandLine.arguments
        let negative = arguments.indices.first { index in
            Int(arguments[index]).map { $0 < 0 } == true && !LiftLedger.isOptionValue(index, in: arguments)
        }
        if let negative {
            throw ValidationError("the place \(arguments[negative]) reads as an option; give a place of 1 or more")
        }
        if let last = words.last, Int(last) == nil, !last.isEmpty, last.allSatisfy({ ("0"..."9").contains($0) }) {
            throw ValidationError("the place \(last) is past the end; give a place of 1 or more, within the list")
        }
        guard words.count >= 2, Int(words.last!) != nil else {
            throw ValidationError("give the exercise and then its new place, such as: \(example)")
        }
    }
}
