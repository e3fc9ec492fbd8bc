import Foundation

extension ExerciseCatalog {
    /// `text` as the catalog compares it: lowercased, diacritics folded ("é" → "e"), fullwidth forms made ASCII ("Ｐ" →
    /// "p"), invisible characters left out (an emoji's variation selector, a zero-width joiner), every run of
    /// characters other than letters, marks and digits made one space, and trimmed. Letters of every script are kept.
    public static func normalized(_ text: String) -> String { normalized(text, foldingWidth: true) }

    /// ``normalized(_:)``, with fullwidth forms and invisible characters kept (`foldingWidth` false) as versions before
    /// they were folded kept them, in the routine ids they made (`Curl 🏋️`'s variation selector, a mark, was kept
    /// after the space the emoji made).
    static func normalized(_ text: String, foldingWidth: Bool) -> String {
        let isASCII = text.utf8.allSatisfy { $0 < 0x80 }
        if isASCII { return normalized(ascii: text) }
        let folded = text.folding(
            options: foldingWidth
                ? [.caseInsensitive, .diacriticInsensitive, .widthInsensitive]
                : [.caseInsensitive, .diacriticInsensitive], locale: nil)
        var result = String.UnicodeScalarView()
        var spaceDue = false
        for var scalar in folded.unicodeScalars {
            if foldingWidth && scalar.properties.isDefaultIgnorableCodePoint { continue }
            if ("A"..."Z").contains(scalar) { scalar = Unicode.Scalar(scalar.value + 0x20)! }
            guard isWordScalar(scalar) else {
                spaceDue = !result.isEmpty
                continue
            }
            if spaceDue {
                result.append(" ")
                spaceDue = false
            }
            result.append(scalar)
        }
        return String(result)
    }

    /// `normalized` of ASCII text, byte by byte: the same rules, without going through Unicode scalars.
    private static func normalized(ascii text: String) -> String {
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count)
        var spaceDue = false
        for var byte in text.utf8 {
            if (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) { byte += 0x20 }
            guard
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            else {
                spaceDue = !result.isEmpty
                continue
            }
            if spaceDue {
                result.append(UInt8(ascii: " "))
                spaceDue = false
            }
            result.append(byte)
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// What a name is found by and its id made from: ``normalized(_:)``, or for a name with no letter or digit (an
    /// emoji, `???`), which normalizes to nothing or to marks alone, its visible characters in hex after an
    /// underscore, which no normalized name has (`💪` is `_1f4aa`; `🏋️` is `_1f3cb`, its variation selector left
    /// out), so that such names stay apart; past eight of them, the first eight and a hash of them all, so that the
    /// key stays short. Nothing for a name of blanks and invisible characters alone.
    public static func key(_ name: String) -> String {
        let normalized = normalized(name)
        if normalized.unicodeScalars.contains(where: { isWordScalar($0) && !isMark($0) }) { return normalized }
        let visible = name.unicodeScalars.filter {
            !$0.properties.isWhitespace && !$0.properties.isDefaultIgnorableCodePoint
        }
        var parts = visible.prefix(8).map { String($0.value, radix: 16) }
        if visible.count > 8 {
            // FNV-1a, 64 bits, over the scalars' values: the same in every process, unlike Hasher.
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for scalar in visible {
                hash = (hash ^ UInt64(scalar.value)) &* 0x100_0000_01b3
            }
            parts.append(String(hash, radix: 16))
        }
        return parts.map { "_" + $0 }.joined()
    }

    private static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: true
        default: false
        }
    }

    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber:
            return true
        default:
            return false
        }
    }
}
