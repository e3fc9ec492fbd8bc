import Interchange
import Testing

/// RFC 8259's grammar, case by case: each text's validity read from the RFC's grammar by hand (Python's `json.loads`
/// agrees on each, but for the last three of the invalid list, which it reads as JSON and Foundation does not).
struct JSONValidityTests {
    @Test(arguments: [
        "1", "-0", "0.5", "-12.5e+3", "1E-2", "true", "false", "null", #""""#, #""a\"\\\/\b\f\n\r\t\u00e9""#,
        "[]", "{}", " [ 1 , [ ] , { } ] ", #"{"a":{"b":[1,{"c":null}]},"d":"e"}"#, "\n\t\r 7 \n",
        #""\ud83d\ude00""#, "\"é😀\"",
    ])
    func valid(_ text: String) {
        #expect(JSONValidity.isValid(text.utf8))
    }

    @Test(arguments: [
        "", " ", "[1,2,]", #"{"a":1,}"#, "[,]", "[1,,2]", "[1 2]", #"{"a" 1}"#, #"{"a":}"#, #"{1:2}"#, "{,}", "[",
        "]", "[1]]", "[1] 2", "01", "-", "1.", ".5", "1e", "+1", "0x10", "NaN", "tru", "nulls", "'a'", #""a"#,
        "\"a\u{1}\"", #""\x41""#, #""\u12G4""#, "[1]//", "1E400", #""\ud800""#, #""\udc00\ud800""#,
    ])
    func invalid(_ text: String) {
        #expect(!JSONValidity.isValid(text.utf8))
    }

    /// Nested past any stack a recursive reader would have: read, not a crash.
    @Test func deepNestingIsRead() {
        let depth = 200_000
        #expect(
            !JSONValidity.isValid(
                (String(repeating: "[", count: depth) + String(repeating: "]", count: depth - 1)).utf8))
    }
}
