extension ExerciseCatalog {
    /// The exercises, in catalog order, with a name or an alias that has a word starting with each word of `text`,
    /// or a word starting with `text`'s words run together, as names write them: `run` finds Running, not Crunches;
    /// `pull up` finds Pullups; `ohp` finds the Standing Military Press through its alias. Compared as names are
    /// found (see ``key(_:)``): `💪` finds an exercise named with it.
    public func search(_ text: String) -> [Exercise] {
        let query = Self.key(text)
        let words = query.split(separator: " ")
        let joined = words.joined()
        func matches(_ key: String) -> Bool {
            // A symbol name's key, its characters in hex: matched character by character, not by hex digits.
            if query.hasPrefix("_") {
                return key.split(separator: "_").starts(with: query.split(separator: "_"))
            }
            let name = key.split(separator: " ")
            return words.allSatisfy { word in name.contains { $0.hasPrefix(word) } }
                || name.contains { $0.hasPrefix(joined) }
        }
        let byAlias = Set(aliases.compactMap { alias, id in matches(alias) ? id : nil })
        return exercises.indices.filter { matches(keys[$0].name) || byAlias.contains(exercises[$0].id) }
            .map { exercises[$0] }
    }
}
