extension ExerciseCatalog {
    /// The exercise `name` names (see ``lookup(_:)``), or an error naming the closest ones, then `remedy`; a name of
    /// blanks alone is refused as none.
    public func exercise(named name: String, remedy: String) throws(TrainingError) -> Exercise {
        if let exercise = lookup(name) { return exercise }
        guard !name.allSatisfy(\.isWhitespace) else {
            throw TrainingError(
                .unknownExercise, "no exercise named", remedy: "give the exercise's name, such as \"bench press\"")
        }
        let close = suggestions(for: name, limit: 3).map { "\"\($0.name)\"" }
        throw TrainingError(
            .unknownExercise, "unknown exercise \"\(name)\"",
            remedy: (close.isEmpty ? "" : "did you mean \(close.joined(separator: ", "))? ") + remedy)
    }

    /// The exercises whose names or aliases come closest to `text`, best first and ties in name order, at most
    /// `limit` of them; those too unlike `text` are left out, so the result may be empty.
    public func suggestions(for text: String, limit: Int = 3) -> [Exercise] {
        let query = Words(Self.normalized(text))
        guard !query.words.isEmpty, limit > 0 else { return [] }
        var scores: [Int: Double] = [:]
        func consider(_ position: Int, _ key: String) {
            let score = query.similarity(to: Words(key))
            if score >= Self.minimumSuggestionScore, score > scores[position, default: 0] { scores[position] = score }
        }
        for (position, key) in keys.enumerated() { consider(position, key.name) }
        for (alias, id) in aliases {
            if let position = positionsByID[id] { consider(position, alias) }
        }
        let ranked = scores.sorted { first, second in
            if first.value != second.value { return first.value > second.value }
            let (a, b) = (exercises[first.key], exercises[second.key])
            return (a.name, a.id) < (b.name, b.id)
        }
        return ranked.prefix(limit).map { exercises[$0.key] }
    }

    private static let minimumSuggestionScore = 0.5

    /// The exercise `text` names with a plural made singular (`deadlifts`, `calf raises`, `rdls`): its last word's
    /// first, then every word's. A word's plural is its trailing `s`, past three letters and not of `ss` (`press`).
    /// Commands take it for the exercise; imports, which map names as docs/IMPORT.md lists, do not.
    public func exercise(pluralOf text: String) -> Exercise? {
        let words = Self.normalized(text).split(separator: " ").map(String.init)
        let singular = words.map { word in
            word.count > 3 && word.hasSuffix("s") && !word.hasSuffix("ss") ? String(word.dropLast()) : word
        }
        guard let last = singular.last, last != words.last else { return nil }
        var lastOnly = words
        lastOnly[lastOnly.count - 1] = last
        if let exercise = lookup(lastOnly.joined(separator: " ")) { return exercise }
        return lookup(singular.joined(separator: " "))
    }

    /// An exercise named all but as `text` is, one letter apart (`Romanian Deadlifts`, `Zercher Squat` beside
    /// `Zercher Squats`), blanks and punctuation aside: a new exercise of that name would split the sets of one
    /// between two. Nil for a name of fewer than six letters, where one letter makes another word.
    public func nearlyNamed(_ text: String) -> Exercise? {
        let joined = Array(Self.normalized(text).unicodeScalars.filter { $0 != " " })
        guard joined.count >= 6 else { return nil }
        for (position, key) in keys.enumerated() {
            let other = Array(key.name.unicodeScalars.filter { $0 != " " })
            if abs(other.count - joined.count) <= 1, editDistance(joined, other) <= 1 { return exercises[position] }
        }
        return nil
    }
}

/// Normalized text split into words, for scoring how alike two names are.
private struct Words {
    let words: [[Unicode.Scalar]]
    /// The words without the spaces between them.
    let joined: [Unicode.Scalar]

    init(_ normalized: String) {
        words = normalized.split(separator: " ").map { Array($0.unicodeScalars) }
        joined = Array(words.joined())
    }

    /// How alike `other` is to this query, from 0 to 1: the better of comparing the two whole, spaces ignored (so
    /// "pullup" matches "pull ups"), and comparing word by word, where each query word scores its best match among
    /// `other`'s words, weighted by its length, and words of `other` that match none cost up to a quarter.
    func similarity(to other: Words) -> Double {
        var covered = 0.0
        var matched = Set<Int>()
        for word in words {
            var best = (score: 0.0, index: 0)
            for (index, candidate) in other.words.enumerated() {
                var score = Self.similarity(word, candidate)
                // A word typed in part ("dead" for "deadlift").
                if word.count >= 3, candidate.starts(with: word) { score = max(score, 0.85) }
                // Singular for plural ("up" for "ups").
                if word + ["s"] == candidate || candidate + ["s"] == word { score = max(score, 0.95) }
                if score > best.score { best = (score, index) }
            }
            covered += best.score * Double(word.count)
            if best.score >= 0.75 { matched.insert(best.index) }
        }
        let coverage = covered / Double(joined.count)
        let precision = Double(matched.count) / Double(max(other.words.count, 1))
        return max(Self.similarity(joined, other.joined), coverage * (0.75 + 0.25 * precision))
    }

    /// 1 for equal texts, down to 0 as the edits needed approach the longer one's length.
    private static func similarity(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Double {
        let length = max(a.count, b.count)
        return length == 0 ? 1 : 1 - Double(editDistance(a, b)) / Double(length)
    }
}

/// The fewest insertions, deletions, substitutions and swaps of adjacent elements that turn `a` into `b`, editing
/// no element twice (optimal string alignment distance).
public func editDistance<Element: Equatable>(_ a: [Element], _ b: [Element]) -> Int {
    guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
    var beforePrevious = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            var distance = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                distance = min(distance, beforePrevious[j - 2] + 1)
            }
            current[j] = distance
        }
        (beforePrevious, previous, current) = (previous, current, beforePrevious)
    }
    return previous[b.count]
}
