import Foundation
import Testing
import Training

/// The rules as `rules set` takes them.
struct RulesTests {
    /// Offsets from UTC are refused as time zones, but for zero, which reads the same east and west; IANA's own
    /// `Etc/GMT+5` is a name.
    @Test func anOffsetIsNoTimeZoneName() {
        for offset in ["GMT+5", "UTC-3", "utc-03:00", "UT+1", "GMT+05:30"] { #expect(TimeZone.isOffsetName(offset)) }
        for name in ["GMT+0", "GMT-0", "UTC+00:00", "UTC", "GMT", "Etc/GMT+5", "Europe/Berlin"] {
            #expect(!TimeZone.isOffsetName(name), "\(name)")
        }
    }

    /// An abbreviation is no time zone's name: Foundation read `BST` as Dhaka and `IST` as Kolkata, where the zone files
    /// that the C library, Python and `TZ` go by have no such names (on Debian, /usr/share/zoneinfo has no `BST`).
    @Test func anAbbreviationIsNoTimeZoneName() throws {
        for abbreviation in ["BST", "IST", "JST", "PST"] {
            #expect(throws: TrainingError.self, "\(abbreviation)") { try TimeZone.named(abbreviation) }
        }
        for name in ["Europe/London", "Asia/Tokyo", "UTC", "Etc/UTC"] {
            #expect(try TimeZone.named(name).identifier == TimeZone(identifier: name)?.identifier, "\(name)")
        }
    }

    /// A name in other letter cases than its zone file's is refused (names are read as written, as `TZ` reads them),
    /// pointing to the name as written: `europe/berlin` to `Europe/Berlin`. One that is no name in any case gets the
    /// example.
    @Test func aTimeZoneNameInOtherLetterCasesIsPointedToItsName() {
        for (given, meant) in [("europe/berlin", "Europe/Berlin"), ("AMERICA/NEW_YORK", "America/New_York")] {
            let error = #expect(throws: TrainingError.self) { try TimeZone.named(given) }
            #expect(error?.remedy == "names are read as written: give \(meant)", "\(given)")
        }
        let unknown = #expect(throws: TrainingError.self) { try TimeZone.named("europe/nowhere") }
        #expect(unknown?.remedy == "give an IANA name such as Europe/Berlin")
    }

    /// What a rule's remedy says it takes (``RuleKey/accepts``) is what it takes: both ends of a range and nothing past
    /// them, every word of a list and no other word.
    @Test(arguments: Rules.keys.map(\.name))
    func eachRuleTakesWhatItsRemedySaysAndNothingElse(key: String) throws {
        let accepts = try #require(Rules.key(key)).accepts
        func takes(_ value: String) -> Bool {
            var rules = Rules()
            return rules.set(key, to: value)
        }
        if let range = accepts.range(of: #"from [0-9]+ to [0-9]+"#, options: .regularExpression) {
            let bounds = accepts[range].split(separator: " ").compactMap { Int($0) }
            #expect(takes(String(bounds[0])) && takes(String(bounds[1])), "\(accepts)")
            #expect(!takes(String(bounds[0] - 1)) && !takes(String(bounds[1] + 1)), "\(accepts)")
            // Digits alone: a sign is refused, by every rule that takes a number alike.
            #expect(!takes("+\(bounds[1])"), "\(accepts)")
            if accepts.contains("at most three decimals") {
                #expect(takes("0.125") && !takes("0.1255"))
            } else {
                #expect(accepts.contains("whole number") && !takes("\(bounds[0]).5"), "\(accepts)")
            }
        } else if accepts.hasPrefix("a day of the week") {
            for day in ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] {
                #expect(takes(day))
            }
            #expect(!takes("someday"))
        } else {
            let choices = accepts.replacingOccurrences(of: " or ", with: ", ").components(separatedBy: ", ")
            #expect(choices.count >= 2, "\(accepts)")
            for choice in choices { #expect(takes(choice), "\(choice) for \(key)") }
            #expect(!takes("neither"))
        }
    }
}
