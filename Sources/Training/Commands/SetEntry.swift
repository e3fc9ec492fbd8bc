/// A set as people type it: `100kg x 5`, `225lb x 5`, `100 5`, `100x5`, `100kg x5`, `bw x 12`, after the exercise's
/// name.
public struct SetEntry: Sendable, Equatable {
    /// The exercise's name as typed.
    public let exercise: String
    /// Nil for body weight.
    public let weight: Weight?
    public let reps: UInt32

    /// The heaviest weight accepted, in kilograms: more is a typo.
    public static let maximumKilograms = ExactDecimal(1_000)

    /// A set of `exercise` with the weight and reps given (a timed set of the exercise alone: nil and 0).
    public init(exercise: String, weight: Weight?, reps: UInt32) {
        self.exercise = exercise
        self.weight = weight
        self.reps = reps
    }

    /// Splits `words` into an exercise name and a trailing weight and reps. A weight without a unit is in
    /// `defaultUnit`. Throws a one-line error with the fix for anything that is not a valid set.
    public init(words: [String], defaultUnit: MassUnit) throws(TrainingError) {
        try Self.refuseRPE(among: words, defaultUnit: defaultUnit)
        var tokens = SetEntry.tokens(words.joined(separator: " "))
        // "x 5 reps": the word says what the number is.
        if tokens.count > 3, let last = tokens.last?.lowercased(), last == "reps" || last == "rep",
            UInt32(tokens[tokens.count - 2]) != nil
        {
            tokens.removeLast()
        }
        guard tokens.count >= 3 else {
            // "rowing 2000m": a time or distance after a name of one word.
            if tokens.count == 2,
                let refusal = Self.timeOrDistance(
                    tokens[1], after: nil, name: [tokens[0]], in: words.joined(separator: " ").debugDescription)
            {
                throw refusal
            }
            throw TrainingError(
                .invalidValue,
                "expected an exercise, a weight and reps, got \(words.joined(separator: " ").debugDescription)",
                remedy:
                    "write it as: liftledger log \"bench press\" 100kg x 5 (or 225lb x 5, 100 5, bw x 12; a timed or "
                    + "distance set as liftledger log plank --time 60s)")
        }
        // "100 x 5 x 3": sets as well as reps, as some apps write a session.
        let count = tokens.count
        if count >= 6, tokens[count - 2].lowercased() == "x", tokens[count - 4].lowercased() == "x",
            UInt32(tokens[count - 1]) != nil,
            UInt32(tokens[count - 3]) != nil
        {
            let set = tokens[..<(count - 2)].joined(separator: " ")
            throw TrainingError(
                .invalidValue, "\(words.joined(separator: " ").debugDescription) gives sets as well as reps",
                remedy: "log one set at a time: liftledger log \(set), once for each set")
        }
        var repsText = tokens.removeLast()
        // "x5": the x written against the reps.
        if let first = repsText.first, "xX".contains(first), repsText.dropFirst().first?.isNumber == true {
            repsText.removeFirst()
            tokens.append("x")
        }
        // "100kg" last, or "kg" split from it: a weight and no reps.
        if repsText.last?.isLetter == true, repsText.first?.isNumber == true || MassUnit(parsing: repsText) != nil {
            // "60s", "30m": a time where the reps go; "5km": a distance. The exercise is the words before the load.
            let isTime = (try? TimeAndDistance.seconds(repsText)) != nil
            let isDistance = !isTime && (try? TimeAndDistance.metres(repsText)) != nil
            var name = tokens
            if name.last?.lowercased() == "x" { name.removeLast() }
            let hasUnit = name.last.flatMap(MassUnit.init(parsing:)) != nil
            if hasUnit { name.removeLast() }
            let weight = name.popLast() ?? ""
            // "5 x 100kg": the reps first, the weight last; "3x5 100kg": sets and reps first.
            var before = name
            if before.last?.lowercased() == "x" { before.removeLast() }
            if !isTime, !isDistance, before.count >= 2, let reps = before.last, UInt32(reps) != nil {
                var exercise = Array(before.dropLast())
                if exercise.count >= 3, exercise.last?.lowercased() == "x", UInt32(exercise[exercise.count - 2]) != nil
                {
                    exercise.removeLast(2)
                    throw TrainingError(
                        .invalidValue, "\(words.joined(separator: " ").debugDescription) gives sets as well as reps",
                        remedy: "log one set at a time: liftledger log \(Self.quoted(exercise)) \(weight)\(repsText) "
                            + "x \(reps), once for each set")
                }
                throw TrainingError(
                    .invalidValue, "the reps come before the weight in \"\(words.joined(separator: " "))\"",
                    remedy:
                        "write the weight first: liftledger log \(Self.quoted(exercise)) \(weight)\(repsText) x \(reps)"
                )
            }
            let given = words.joined(separator: " ").debugDescription
            if let refusal = Self.timeOrDistance(
                repsText, after: weight, isLoad: hasUnit || Self.isBodyWeight(weight),
                name: name, in: given)
            {
                throw refusal
            }
            throw TrainingError(
                .invalidValue, "no reps after the weight in \(given)",
                remedy: "give the reps after it: liftledger log \"bench press\" 100kg x 5")
        }
        if tokens.last?.lowercased() == "x" { tokens.removeLast() }
        var unit: MassUnit?
        if let last = tokens.last, let parsed = MassUnit(parsing: last) {
            unit = parsed
            tokens.removeLast()
        }
        guard let weightText = tokens.popLast(), !tokens.isEmpty else {
            throw TrainingError(
                .invalidValue, "no exercise name before the weight",
                remedy: "name the exercise first: liftledger log squat 100kg x 5")
        }
        // "3x5 100": sets and reps, then the weight, which was read as the reps.
        if tokens.count >= 3, tokens.last?.lowercased() == "x", UInt32(tokens[tokens.count - 2]) != nil,
            UInt32(weightText) != nil
        {
            throw TrainingError(
                .invalidValue, "\(words.joined(separator: " ").debugDescription) gives sets as well as reps",
                remedy: "log one set at a time: liftledger log \(Self.quoted(Array(tokens.dropLast(2)))) "
                    + "\(repsText)\(unit.map(\.rawValue) ?? "") x \(weightText), once for each set")
        }
        // "100kg 5x5", "bw 3x10": a load, then sets and reps, the sets read as the weight.
        if unit == nil, UInt32(weightText) != nil, let load = Self.trailingLoad(tokens) {
            throw TrainingError(
                .invalidValue, "\(words.joined(separator: " ").debugDescription) gives sets as well as reps",
                remedy: "log one set at a time: liftledger log \(Self.quoted(Array(tokens.dropLast(load.words)))) "
                    + "\(load.text) x \(repsText), once for each set")
        }
        // "bw + 20kg", "bw +20kg", "bw+ 20kg": a load added to body weight, in words of its own.
        if let typed = Self.bodyWeightAndSign(before: weightText, in: tokens) {
            throw Self.bodyWeightAndLoad("\(typed)\(unit.map(\.rawValue) ?? "")")
        }
        exercise = tokens.joined(separator: " ")
        weight = try SetEntry.weight(weightText, unit: unit ?? defaultUnit, explicitUnit: unit != nil)
        reps = try SetEntry.reps(repsText)
    }

    /// The refusal of a time or a distance typed where the reps go (`plank 60s`, `"running treadmill" 5km 25m`), with
    /// the `--time` and `--distance` that give it, after `name` and the word before it (`before`: a load, which the
    /// fix leaves out, a time or distance of its own, or the name's last word); nil when `last` is neither. A number
    /// and `m` (`2000m`) is minutes to `--time` and metres to `--distance`. `isLoad`: `before` had a mass unit or is
    /// body weight.
    private static func timeOrDistance(
        _ last: String, after before: String?, isLoad: Bool = false, name: [String], in given: String
    ) -> TrainingError? {
        func kinds(_ word: String) -> (time: Bool, distance: Bool) {
            ((try? TimeAndDistance.seconds(word)) != nil, (try? TimeAndDistance.metres(word)) != nil)
        }
        let kind = kinds(last)
        guard kind.time || kind.distance else { return nil }
        let word = before ?? ""
        let isNumber = ExactDecimal(word) != nil
        // A load (`plank 20kg 60s`) is no time. A bare number is seconds before a distance (`run 1800 5km`), and a load
        // before a time (`plank 20 60s`: `--time "20 60s"` reads as no time).
        let wordKind =
            isLoad || (isNumber && kind.time)
            ? (time: false, distance: false) : before.map(kinds) ?? (time: false, distance: false)
        let exercise = quoted(
            before == nil || isLoad || isNumber || wordKind.time || wordKind.distance ? name : name + [word])
        let what = kind.time && kind.distance ? "a distance or a time" : kind.time ? "a time" : "a distance"
        func refusal(_ remedy: String) -> TrainingError {
            TrainingError(.invalidValue, "\(last) is \(what), not reps, in \(given)", remedy: remedy)
        }
        let command = "liftledger log \(exercise)"
        switch (wordKind.time, wordKind.distance, kind.time, kind.distance) {
        // "1m 30s", "1h 30m": a time of two words.
        case (true, _, true, false), (true, false, true, true):
            return refusal("give a set's time with --time, in quotes: \(command) --time \"\(word) \(last)\"")
        // "5km 25m": a distance, then a time.
        case (false, true, true, _):
            return refusal(
                "give a set's distance and time with --distance and --time: \(command) --distance \(word) --time \(last)"
            )
        // "30m 5km": a time, then a distance.
        case (true, _, false, true):
            return refusal(
                "give a set's time and distance with --time and --distance: \(command) --time \(word) --distance \(last)"
            )
        // "8m 2000m": which is which, only the user knows.
        case (true, true, true, true):
            return refusal(
                "give the set's time with --time and its distance with --distance (a number and m is minutes to "
                    + "--time, metres to --distance)")
        case (_, _, true, true):
            return refusal("for metres: \(command) --distance \(last); for minutes: \(command) --time \(last)")
        case (_, _, true, false):
            return refusal("give a set's time with --time: \(command) --time \(last)")
        default:
            return refusal("give a set's distance with --distance: \(command) --distance \(last)")
        }
    }

    /// Refuses an RPE typed among a set's words (`x 5 @8`, `x 5@8`, `x 5 rpe 8`), which `--rpe` gives: an RPE after
    /// words that are a set without it.
    public static func refuseRPE(among words: [String], defaultUnit: MassUnit) throws(TrainingError) {
        let split = words.joined(separator: " ").split(whereSeparator: \.isWhitespace).map(String.init)
        guard let last = split.last else { return }
        var kept = Array(split.dropLast())
        var rpe = last
        if let at = last.firstIndex(of: "@") {
            rpe = String(last[last.index(after: at)...])
            if at > last.startIndex { kept.append(String(last[..<at])) }
        } else if let word = kept.last?.lowercased(), word == "rpe" || word == "@" {
            kept.removeLast()
        } else {
            return
        }
        guard let value = ExactDecimal(rpe), RPE(value) != nil,
            let entry = try? SetEntry(words: kept, defaultUnit: defaultUnit)
        else { return }
        // The name quoted for a shell, the set's words as typed.
        let typed = kept.joined(separator: " ")
        let set =
            typed.hasPrefix(entry.exercise)
            ? quoted([entry.exercise]) + typed.dropFirst(entry.exercise.count)
            : kept.map(Shell.word).joined(separator: " ")
        throw TrainingError(
            .invalidValue, "\(words.joined(separator: " ").debugDescription) gives an RPE among the set's words",
            remedy: "give it with --rpe: liftledger log \(set) --rpe \(rpe)")
    }

    /// The load that ends `tokens` (a number and its unit, or body weight), as typed together and in how many tokens;
    /// nil when they end in none, or when no name comes before it.
    private static func trailingLoad(_ tokens: [String]) -> (text: String, words: Int)? {
        if tokens.count >= 3, let unit = MassUnit(parsing: tokens[tokens.count - 1]),
            ExactDecimal(tokens[tokens.count - 2]) != nil
        {
            return (tokens[tokens.count - 2] + unit.rawValue, 2)
        }
        if tokens.count >= 2, isBodyWeight(tokens[tokens.count - 1]) { return ("bw", 1) }
        return nil
    }

    /// Body weight and a sign before the load `weightText` (`bw + 20`, `bw +20`, `bw+ 20`) as typed, when `tokens`, the
    /// words before the load, end with them.
    private static func bodyWeightAndSign(before weightText: String, in tokens: [String]) -> String? {
        guard let last = tokens.last?.lowercased() else { return nil }
        let signs: Set<Character> = ["+", "-"]
        if tokens.count >= 3, last.count == 1, signs.contains(last.first!), isBodyWeight(tokens[tokens.count - 2]) {
            return "\(tokens[tokens.count - 2]) \(last) \(weightText)"
        }
        if tokens.count >= 2, isBodyWeight(last), let sign = weightText.first, signs.contains(sign) {
            return "\(tokens[tokens.count - 1]) \(weightText)"
        }
        if tokens.count >= 2, let sign = last.last, signs.contains(sign), isBodyWeight(String(last.dropLast())) {
            return "\(tokens[tokens.count - 1]) \(weightText)"
        }
        return nil
    }

    /// The refusal of a weight added to body weight (`bw+20kg`): a set's weight is what is added, or an assisted
    /// exercise's help.
    private static func bodyWeightAndLoad(_ typed: String) -> TrainingError {
        TrainingError(
            .invalidValue, "weight \(typed.debugDescription) adds to body weight",
            remedy: "give the weight added alone, such as liftledger log \"pull up\" 20kg x 5 (an assisted exercise's "
                + "weight is the help: liftledger log \"band assisted pull-up\" 20kg x 5)")
    }

    /// Whether `word` is body weight's: `bw` or `bodyweight`, in any case.
    public static func isBodyWeight(_ word: String) -> Bool { ["bw", "bodyweight"].contains(word.lowercased()) }

    /// Whether `word` reads as a load: body weight, a number, a unit, or a number with its unit (`100kg`).
    public static func isLoad(_ word: String) -> Bool {
        let lowered = word.lowercased()
        if isBodyWeight(word) || MassUnit(parsing: lowered) != nil { return true }
        let number = lowered.prefix { $0.isNumber || $0 == "." }
        let unit = String(lowered.dropFirst(number.count))
        return ExactDecimal(String(number)) != nil && (unit.isEmpty || MassUnit(parsing: unit) != nil)
    }

    /// An exercise's name as words to type after `liftledger log`: one word of a shell (see ``Shell/word(_:)``).
    private static func quoted(_ words: [String]) -> String { Shell.word(words.joined(separator: " ")) }

    /// Reads reps: a whole number from 0 to 1,000 (`10.0` is 10).
    public static func reps(_ text: String) throws(TrainingError) -> UInt32 {
        var digits = Substring(text)
        if let point = digits.firstIndex(of: "."), digits[digits.index(after: point)...].allSatisfy({ $0 == "0" }) {
            digits = digits[..<point]
        }
        guard let reps = UInt32(digits), reps <= 1_000 else {
            throw TrainingError(
                .invalidValue, "reps \(text.debugDescription) are not a whole number from 0 to 1000",
                remedy: "give the number of repetitions done, a whole number such as 5")
        }
        return reps
    }

    /// Reads a weight in `unit`: `bw` (or `bodyweight`) is body weight (nil); otherwise a finite, non-negative
    /// decimal of at most 1,000 kg.
    public static func weight(
        _ text: String, unit: MassUnit, explicitUnit: Bool = true
    ) throws(TrainingError)
        -> Weight?
    {
        let lowered = text.lowercased()
        // As typed, with its unit: `-5kg`, `1,5kg`.
        let unitTyped = explicitUnit ? unit.rawValue : ""
        let typed = (text + unitTyped).debugDescription
        if isBodyWeight(text) {
            guard !explicitUnit else {
                throw TrainingError(
                    .invalidValue, "body weight takes no unit", remedy: "write bw x 12")
            }
            return nil
        }
        guard let value = ExactDecimal(lowered), !value.isNegative else {
            // "1,000": a thousands separator, or three decimals after a comma; which, only the user knows.
            let sides = lowered.split(separator: ",", omittingEmptySubsequences: false)
            if sides.count == 2, (1...3).contains(sides[0].count), sides[1].count == 3,
                sides.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) })
            {
                throw TrainingError(
                    .invalidValue, "weight \(typed) has a comma",
                    remedy:
                        "write a thousand or more without it (\(sides.joined())\(unitTyped)), a fraction with a point "
                        + "(\(sides.joined(separator: "."))\(unitTyped))")
            }
            // "1,5": a decimal comma.
            let pointed = String(lowered.map { $0 == "," ? "." : $0 })
            if lowered.contains(","), let value = ExactDecimal(pointed), !value.isNegative {
                throw TrainingError(
                    .invalidValue, "weight \(typed) has a decimal comma",
                    remedy: "write it with a point: \(pointed)\(unitTyped)")
            }
            // "bw+20": a load added to body weight.
            if let sign = lowered.firstIndex(where: { $0 == "+" || $0 == "-" }), isBodyWeight(String(lowered[..<sign]))
            {
                throw bodyWeightAndLoad(text + unitTyped)
            }
            // Digits and a point that do not fit an exact decimal: too many digits, not a mistyped weight.
            if lowered.contains(where: \.isWholeNumber), lowered.filter({ $0 == "." }).count <= 1,
                lowered.allSatisfy({ $0 == "." || ("0"..."9").contains($0) })
            {
                throw TrainingError(
                    .invalidValue, "weight \(typed) has more digits than a weight keeps",
                    remedy: "give it with fewer digits, such as 102.5")
            }
            // "1e2": an exponent, which a weight is never written with.
            let mantissaAndExponent = lowered.split(separator: "e", omittingEmptySubsequences: false)
            if mantissaAndExponent.count == 2, Double(lowered) != nil {
                throw TrainingError(
                    .invalidValue, "weight \(typed) is written with an exponent",
                    remedy: "give it in plain digits, such as 102.5")
            }
            // "100stone": a number, and a unit of no other weight than kilograms and pounds.
            let digits = lowered.prefix { $0.isNumber || $0 == "." }
            let word = lowered.dropFirst(digits.count).trimmingCharacters(in: .whitespaces)
            if ExactDecimal(String(digits)) != nil, !word.isEmpty, word.allSatisfy(\.isLetter) {
                throw TrainingError(
                    .invalidValue, "weight \(typed) is in \(word.debugDescription), which is neither kg nor lb",
                    remedy: "give it in kg or lb, such as 100kg or 225lb")
            }
            throw TrainingError(
                .invalidValue, "weight \(typed) is not a number of 0 or more",
                remedy: "give a weight such as 100kg, 225lb or 102.5, or bw for body weight")
        }
        let weight = Weight(value, unit)
        guard !(maximumKilograms < weight.kilograms) else {
            // In pounds too for a weight in pounds: 1000 kg is 2204.62 lb.
            let inPounds =
                unit == .pounds
                ? " (\(MassUnit.pounds.text(milligrams: maximumKilograms.doubleValue * 1_000_000, digits: 2)) lb)" : ""
            throw TrainingError(
                .invalidValue, "weight \(weight) is more than \(maximumKilograms) kg\(inPounds)",
                remedy: "check the number and the unit (kg or lb)")
        }
        return weight
    }

    /// Words, with `x`, `×` and `*` split off as their own token and a unit split from its number (`100kg`).
    private static func tokens(_ text: String) -> [String] {
        var tokens: [String] = []
        for word in text.split(whereSeparator: \.isWhitespace) {
            var current = ""
            for (index, character) in zip(word.indices, word) {
                let next = word.index(after: index) < word.endIndex ? word[word.index(after: index)] : nil
                let afterLoad =
                    current.last?.isNumber == true
                    || ["kg", "kgs", "lb", "lbs", "bw"].contains { current.lowercased().hasSuffix($0) }
                if character == "×" || character == "*"
                    || (character == "x" || character == "X") && afterLoad && (next?.isNumber ?? true)
                {
                    if !current.isEmpty { tokens.append(current) }
                    tokens.append("x")
                    current = ""
                } else {
                    current.append(character)
                }
            }
            if !current.isEmpty { tokens.append(current) }
        }
        // "100kg" → "100", "kg"; "5x" handled above.
        return tokens.flatMap { token -> [String] in
            let lower = token.lowercased()
            for suffix in ["kgs", "kg", "lbs", "lb"] where lower.hasSuffix(suffix) && lower.count > suffix.count {
                let number = String(token.dropLast(suffix.count))
                if number.last?.isNumber == true { return [number, suffix] }
            }
            return [token]
        }
    }
}
