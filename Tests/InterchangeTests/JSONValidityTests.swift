import Foundation
import Testing

@testable import Interchange

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

    /// Foundation's parser reads 512 containers inside one another and no more (found by trying 512 and 513), so a
    /// value nested 513 deep is valid by the grammar and refused for its depth alone; one nested 512 deep is read.
    /// Objects and arrays count alike, and the innermost counts when empty.
    @Test func nestingPastTheReadersDepthIsToldApart() {
        func nested(_ depth: Int, innermost: String) -> String {
            String(repeating: #"{"a":["#, count: depth / 2) + innermost + String(repeating: "]}", count: depth / 2)
        }
        for innermost in ["[]", "[1]"] {
            let deepest =
                String(repeating: "[", count: 512) + innermost.dropFirst().dropLast()
                + String(repeating: "]", count: 512)
            #expect(JSONValidity.isValid(deepest.utf8) && !JSONValidity.isNestedTooDeeply(deepest.utf8))
            let tooDeep = "[" + deepest + "]"
            #expect(!JSONValidity.isValid(tooDeep.utf8) && JSONValidity.isNestedTooDeeply(tooDeep.utf8))
        }
        // 512 levels of objects and arrays taking turns, then one more.
        #expect(JSONValidity.isValid(nested(512, innermost: "1").utf8))
        let past = nested(512, innermost: "[]")
        #expect(!JSONValidity.isValid(past.utf8) && JSONValidity.isNestedTooDeeply(past.utf8))
        // Invalid for another reason: not too deep.
        #expect(!JSONValidity.isNestedTooDeeply((String(repeating: "[", count: 600) + "1,]").utf8))
    }

    /// Nested past any stack a recursive reader would have: read, not a crash.
    @Test func deepNestingIsRead() {
        let depth = 200_000
        #expect(
            !JSONValidity.isValid(
                (String(repeating: "[", count: depth) + String(repeating: "]", count: depth - 1)).utf8))
    }
}

/// The canonical form a restore compares an export's readable fields by: the same data gives the same text whatever
/// the order of keys and the spacing; other data, another text. Each pair is told equal or not by hand.
struct CanonicalJSONTests {
    @Test(arguments: [
        (#"{"b":1,"a":[2,{"d":null,"c":"x"}]}"#, #"{ "a" : [ 2 , { "c" : "x" , "d" : null } ] , "b" : 1 }"#, true),
        (#"{"reps":5}"#, #"{"reps":5.0}"#, true),
        (#"{"weight":"102.5"}"#, #"{"weight":"102.50"}"#, false),
        (#"{"flag":true}"#, #"{"flag":1}"#, false),
        (#"{"flag":false}"#, #"{"flag":0}"#, false),
        (#"{"reps":5}"#, #"{"reps":6}"#, false),
        (#"{"rpe":8.5}"#, #"{"rpe":8.5}"#, true),
        (#"{"big":18446744073709551615}"#, #"{"big":18446744073709551615}"#, true),
        (#"{"note":"a\"b"}"#, #"{"note":"a\u0022b"}"#, true),
        (#"[1,2]"#, #"[2,1]"#, false),
        // What a comparison of Swift strings or of binary64 values would let through.
        (#"{"note":"caf\u00e9"}"#, #"{"note":"cafe\u0301"}"#, false),
        (#"{"reps":5.0000000000000001}"#, #"{"reps":5}"#, false),
        (#"{"reps":-0.0}"#, #"{"reps":0}"#, false),
    ])
    func sameDataGivesTheSameText(_ first: String, _ second: String, _ same: Bool) throws {
        func canonical(_ text: String) throws -> [UInt8]? {
            let value = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
            return JSON(canonicalizing: value).map { Array($0.rendered.utf8) }
        }
        let left = try #require(try canonical(first))
        let right = try #require(try canonical(second))
        #expect((left == right) == same, "\(first) against \(second)")
    }
}
