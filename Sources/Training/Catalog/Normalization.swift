import Foundation

extension ExerciseCatalog {
    /// `text` as the catalog compares it: lowercased, diacritics folded ("é" → "e"), every run of characters other
    /// than letters, marks and digits made one space, and trimmed. Letters of every script are kept.
    public static func normalized(_ text: String) -> String {
        let isASCII = text.utf8.allSatisfy { $0 < 0x80 }
        let folded = isASCII ? text : text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        var result = String.UnicodeScalarView()
        var spaceDue = false
        for var scalar in folded.unicodeScalars {
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
