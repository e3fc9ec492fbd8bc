import Testing

@testable import Training

struct UnitsTests {
    @Test func decimalsKeepWhatWasEntered() throws {
        #expect(ExactDecimal("102.50")?.description == "102.5")
        #expect(ExactDecimal("0.5")?.description == "0.5")
        #expect(ExactDecimal(".5")?.description == "0.5")
        #expect(ExactDecimal("-3.000")?.description == "-3")
        #expect(ExactDecimal("007")?.description == "7")
        for bad in ["", ".", "-", "1e3", "nan", "inf", "1.2.3", "12a", "1,5", "0.1234567890123456789"] {
            #expect(ExactDecimal(bad) == nil, "\(bad)")
        }
        #expect(ExactDecimal("2.5")! < ExactDecimal("10")!)
        #expect(ExactDecimal("-1")! < ExactDecimal("0.001")!)
        #expect(ExactDecimal("100")! == ExactDecimal("100.000")!)
        #expect(ExactDecimal("97.5")!.adding(ExactDecimal("2.5")!) == ExactDecimal(100))
    }

    /// An RPE read from decimals is 1 to 10 in half steps exactly: nothing near one is rounded onto it.
    @Test func anRPEIsExactlyAHalfStep() throws {
        for (text, halfSteps) in [("1", 2), ("8.5", 17), ("8.50", 17), ("10", 20), ("10.0", 20)] {
            #expect(RPE(try #require(ExactDecimal(text)))?.halfSteps == UInt8(halfSteps), "\(text)")
        }
        for text in ["0.5", "8.4999999999999999", "8.25", "8.3", "10.5", "11", "-8"] {
            #expect(RPE(try #require(ExactDecimal(text))) == nil, "\(text)")
        }
    }

    /// 225 × 0.45359237 = 90.718474 (× 200) + 11.33980925 (× 25) = 102.05828325, by hand.
    @Test func poundsConvertExactly() {
        let entered = weight("225", .pounds)
        #expect(entered.kilograms.description == "102.05828325")
        #expect(entered.description == "225 lb")
        #expect(weight("1", .pounds).kilograms.description == "0.45359237")
        #expect(weight("100").kilograms.description == "100")
    }

    /// An estimate is worked out from the exact weight: 9.876543210987654310 kg is 987,654,321,098,765,431 / 10^11 mg
    /// (odd, so in lowest terms), and 1,000 times that numerator, for the RPE chart, does not fit 64 bits. It is then
    /// worked out from whole milligrams, 9,876,543: 5 reps at RPE 8 are 7 effective reps, 81.1%, so 9,876,543,000 / 811.
    @Test func anEstimateTooPreciseForAFractionIsOneOfWholeMilligrams() {
        var rules = Rules()
        rules.estimateFormula = .rpe
        let precise = weight("9.87654321098765431")
        #expect(precise.exactMilligrams == Score(987_654_321_098_765_431, over: 100_000_000_000))
        let estimate = OneRepMaximum.estimate(of: precise, reps: 5, rpe: RPE(8), rules: rules)
        #expect(estimate == Score(9_876_543_000, over: 811))
        // 30 lb is 13.6077711 kg: 136,077,711 / 10 mg in lowest terms.
        #expect(weight("30", .pounds).exactMilligrams.map { ($0.numerator, $0.denominator) }! == (136_077_711, 10))
    }

    /// A set's volume is the exact product rounded once, half to even; expected values from Python's decimal module.
    @Test func volumesAreExactProductsRoundedOnce() {
        // 60 lb × 15 = 75 lb × 12 = 900 lb = 408.233133 kg.
        #expect(weight("60", .pounds).milligrams(times: 15) == 408_233_133)
        #expect(weight("75", .pounds).milligrams(times: 12) == 408_233_133)
        #expect(weight("102.5").milligrams(times: 5) == 512_500_000)
        // 135.123456789 lb × 2 = 122.58193801503019986 kg: a product of more digits than 64 bits hold.
        #expect(weight("135.123456789", .pounds).milligrams(times: 2) == 122_581_938)
        // Half a milligram rounds to the even neighbour: 0 for 0.0000005 kg, 2 for 0.0000015 kg.
        #expect(weight("0.0000005").milligrams(times: 1) == 0 && weight("0.0000015").milligrams(times: 1) == 2)
        #expect(weight("0").milligrams(times: 10) == 0 && weight("100").milligrams(times: 0) == 0)
    }

    /// Estimates and masses for people are rounded half away from zero from the exact fraction, not from a binary64
    /// near it (1.005 and 10.005 are each a little off in binary64, one below and one above). By hand.
    @Test func exactFractionsRoundHalfAwayFromZero() {
        for (milligrams, text) in [
            (1_005_000, "1.01"), (10_005_000, "10.01"), (8_325_000, "8.33"), (140_625_000, "140.63"),
            (100_015_000, "100.02"), (-1_005_000, "-1.01"), (1_004_999, "1"), (0, "0"),
        ] as [(Int64, String)] {
            #expect(Score(milligrams).text(per: 1_000_000, digits: 2) == text, "\(milligrams)")
        }
        // 100 kg × 36 / (37 − 5) = 112.5 kg; 1/3 and 2/3.
        #expect(Score(100_000_000 * 36, over: 32).text(per: 1_000_000, digits: 2) == "112.5")
        #expect(
            Score(1, over: 3).text(per: 1, digits: 2) == "0.33" && Score(2, over: 3).text(per: 1, digits: 2) == "0.67")
        // A pound is 453,592.37 mg: 226,796,185 mg is 500 lb; 2,267.96185 mg is 0.005 lb, a half, up to 0.01.
        #expect(MassUnit.pounds.text(milligrams: Score(226_796_185), digits: 2) == "500")
        #expect(MassUnit.pounds.text(milligrams: Score(226_796_185, over: 100_000), digits: 2) == "0.01")
        #expect(MassUnit.kilograms.text(milligrams: Score(10_005_000), digits: 2) == "10.01")
        // A mass kept in whole milligrams within 0.00005 lb of whole hundredths of a pound is read as those: 1008.75 lb
        // (201.75 lb × 5) is 457,561,303.2375 mg, kept as 457,561,303, which is 1008.7499995 lb; 100.25 lb is
        // 45,472,635 mg, 100.2499998 lb; seven sets of 206.15 lb × 5, each kept as 467,540,335 mg, are 3,272,782,345 mg,
        // 7215.2499942 lb (each by hand: pounds × 453,592.37, rounded to the milligram). Rounded from the exact fraction
        // of the kept milligrams, each half went down.
        #expect(MassUnit.pounds.text(milligrams: Score(457_561_303), digits: 1) == "1008.8")
        #expect(MassUnit.pounds.text(milligrams: 45_472_635, digits: 1) == "100.3")
        #expect(MassUnit.pounds.text(milligrams: Score(3_272_782_345), digits: 1) == "7215.3")
        // Not a mass just short of a half of what is shown: 53 kg is 116.8449990 lb, and 12.005 lb, kept as 5,445,376
        // mg, is 12.0049991 lb, both rounded as they are to two decimals.
        #expect(MassUnit.pounds.text(milligrams: Score(53_000_000), digits: 2) == "116.84")
        #expect(MassUnit.pounds.text(milligrams: Score(5_445_376), digits: 2) == "12")
        // Nor a fraction of a milligram: 2,267.96184 mg is just under 0.005 lb.
        #expect(MassUnit.pounds.text(milligrams: Score(226_796_184, over: 100_000), digits: 2) == "0")
        // 115.2 − 106.875 = 8.325 exactly (Brzycki's 95 × 36/32 = 106.875 and 80 × 36/25 = 115.2), which rounded
        // through binary64 (8.3249999…) gave 8.32.
        #expect(Score(115_200_000).subtracting(Score(106_875_000)).text(per: 1_000_000, digits: 2) == "8.33")
        #expect(Score(1, over: 3).subtracting(Score(1, over: 2)) == Score(-1, over: 6))
    }

    /// A set's time and distance as people type them; by hand (a mile is 1609.344 m, a yard 0.9144 m, a foot 0.3048).
    @Test func timesAndDistancesParseTheWaysPeopleTypeThem() throws {
        for (text, seconds) in [
            ("90", 90), ("1:30", 90), ("1:02:03", 3_723), ("45s", 45), ("30m", 1_800), ("1h 5m", 3_900), ("1m30s", 90),
            ("2 min", 120), ("604800", 604_800),
        ] as [(String, UInt32)] {
            #expect(try TimeAndDistance.seconds(text) == seconds, "\(text)")
        }
        for bad in ["0", "0s", "1:75", "8d", "604801", "x", "", "5 5", "m", "1:", "-5"] {
            #expect(throws: TrainingError.self, "\(bad)") { try TimeAndDistance.seconds(bad) }
        }
        for (text, metres) in [
            ("5km", "5000"), ("400 m", "400"), ("3.1mi", "4988.9664"), ("100yd", "91.44"), ("50ft", "15.24"),
            ("2 miles", "3218.688"), ("1000km", "1000000"),
        ] {
            #expect(try TimeAndDistance.metres(text) == ExactDecimal(metres)!, "\(text)")
        }
        for bad in ["5", "-3km", "1001km", "0m", "km", "5 furlongs", "", "0.0009m", "1234.12345m"] {
            #expect(throws: TrainingError.self, "\(bad)") { try TimeAndDistance.metres(bad) }
        }
        // A time or distance read but out of bounds is said to be so: it was said not to be read.
        for (text, message) in [
            ("99999999", "a time of \"99999999\" is more than a week"), ("0", "a time of \"0\" is no time"),
        ] {
            #expect(Self.message { try TimeAndDistance.seconds(text) } == message, "\(text)")
        }
        for (text, message) in [
            ("5000km", "a distance of \"5000km\" is more than 1000km"),
            ("0.0009m", "a distance of \"0.0009m\" is less than 0.001m"),
            ("1234.12345m", "a distance of \"1234.12345m\" has more than four decimals"),
            ("5 furlongs", "cannot read the distance \"5 furlongs\""),
        ] {
            #expect(Self.message { try TimeAndDistance.metres(text) } == message, "\(text)")
        }
    }

    /// The message of the error `body` throws, or nil.
    private static func message(_ body: () throws -> Any) -> String? {
        do {
            _ = try body()
            return nil
        } catch let error as TrainingError {
            return error.message
        } catch {
            return "\(error)"
        }
    }

    private func parts(_ entry: SetEntry) -> String { parts(entry.exercise, entry.weight, entry.reps) }

    private func parts(_ exercise: String, _ weight: Weight?, _ reps: UInt32) -> String {
        "\(exercise) | \(weight?.description ?? "bw") | \(reps)"
    }

    @Test func setsParseTheWaysPeopleTypeThem() throws {
        func entry(_ text: String, unit: MassUnit = .kilograms) throws -> SetEntry {
            try SetEntry(words: text.split(separator: " ").map(String.init), defaultUnit: unit)
        }
        #expect(try parts(entry("bench press 100kg x 5")) == parts("bench press", weight("100"), 5))
        #expect(try parts(entry("squat 225lb x 5")) == parts("squat", weight("225", .pounds), 5))
        #expect(try entry("squat 225 lbs x 5").weight == weight("225", .pounds))
        #expect(try entry("deadlift 100 5", unit: .pounds).weight == weight("100", .pounds))
        #expect(try parts(entry("deadlift 100x5")) == parts("deadlift", weight("100"), 5))
        #expect(try parts(entry("pull up bw x 12")) == parts("pull up", nil, 12))
        #expect(try entry("row 60 × 10.0").reps == 10)
        #expect(try parts(entry("bench 90kgx8")) == parts("bench", weight("90"), 8))
        #expect(try parts(entry("dips bwx12")) == parts("dips", nil, 12))
        #expect(try parts(entry("box squat 100 x 3")) == parts("box squat", weight("100"), 3))
        #expect(try parts(entry("squat 100kg x5")) == parts("squat", weight("100"), 5))
        #expect(try parts(entry("front squat 225 lb X8")) == parts("front squat", weight("225", .pounds), 8))
        #expect(try parts(entry("pull up bw x12")) == parts("pull up", nil, 12))
        // The word reps after them says what the number is.
        #expect(try parts(entry("bench press 100kg x 5 reps")) == parts("bench press", weight("100"), 5))
        // The reps before the weight: refused, saying so.
        let reversed = #expect(throws: TrainingError.self) { try entry("bench press 5 x 100kg") }
        #expect(reversed?.message == "the reps come before the weight in \"bench press 5 x 100kg\"")
        for bad in [
            "bench 100kg x -5", "bench 100kg x 5.5", "bench -20kg x 5", "bench nan x 5", "bench 2000kg x 1",
            "100kg x 5", "bench", "bench 100 x five", "bench 100kg x", "bench 100kg xx5",
        ] {
            #expect(throws: TrainingError.self, "\(bad)") { try entry(bad) }
        }
        // 18 decimals fit a 64-bit significand after one digit, not after two: the number is too precise, not missing.
        #expect(try entry("curl 1.123456789012345678kg x 1").weight?.value.scale == 18)
        let precise = #expect(throws: TrainingError.self) { try entry("curl 10.123456789012345678kg x 1") }
        #expect(precise?.message == "weight \"10.123456789012345678kg\" has more digits than a weight keeps")
        let word = #expect(throws: TrainingError.self) { try entry("curl 1.2.3kg x 1") }
        #expect(word?.message == "weight \"1.2.3kg\" is not a number of 0 or more")
    }

    /// What people type that is no one set gets a refusal naming what it is and a command that logs it: sets and reps
    /// after a load, an RPE among the words, a decimal comma, a load added to body weight.
    @Test func setsTypedAsOtherAppsWriteThemAreRefusedWithTheirFix() throws {
        func refusal(_ text: String) -> TrainingError? {
            #expect(throws: TrainingError.self, "\(text)") {
                try SetEntry(words: text.split(separator: " ").map(String.init), defaultUnit: .kilograms)
            }
        }
        let cases: [(typed: String, message: String, remedy: String)] = [
            (
                "bench press 100kg 5x5", "\"bench press 100kg 5x5\" gives sets as well as reps",
                "log one set at a time: liftledger log \"bench press\" 100kg x 5, once for each set"
            ),
            (
                "pull up bw 3 x 10", "\"pull up bw 3 x 10\" gives sets as well as reps",
                "log one set at a time: liftledger log \"pull up\" bw x 10, once for each set"
            ),
            (
                "squat 100kg x 5 @8", "\"squat 100kg x 5 @8\" gives an RPE among the set's words",
                "give it with --rpe: liftledger log squat 100kg x 5 --rpe 8"
            ),
            (
                "squat 100kg x 5@8.5", "\"squat 100kg x 5@8.5\" gives an RPE among the set's words",
                "give it with --rpe: liftledger log squat 100kg x 5 --rpe 8.5"
            ),
            (
                "squat 100kg x 5 RPE 9", "\"squat 100kg x 5 RPE 9\" gives an RPE among the set's words",
                "give it with --rpe: liftledger log squat 100kg x 5 --rpe 9"
            ),
            ("bench 1,5kg x 5", "weight \"1,5kg\" has a decimal comma", "write it with a point: 1.5kg"),
            ("bench 102,5 x 5", "weight \"102,5\" has a decimal comma", "write it with a point: 102.5"),
            ("bench -5kg x 5", "weight \"-5kg\" is not a number of 0 or more", "give a weight such as 100kg"),
            // A number with a unit of no other weight: the unit is what is wrong.
            (
                "bench 100stone x 5", "weight \"100stone\" is in \"stone\", which is neither kg nor lb",
                "give it in kg or lb"
            ),
            ("pull up bw+20kg x 5", "weight \"bw+20kg\" adds to body weight", "give the weight added alone"),
            ("pull up bw + 20kg x 5", "weight \"bw + 20kg\" adds to body weight", "give the weight added alone"),
            ("dip bw-15 x 5", "weight \"bw-15\" adds to body weight", "an assisted exercise's weight is the help"),
            ("pull up bw +20kg x 5", "weight \"bw +20kg\" adds to body weight", "give the weight added alone"),
            ("pull up bw+ 20kg x 5", "weight \"bw+ 20kg\" adds to body weight", "give the weight added alone"),
            // A comma before three digits may be a thousands separator: both readings are offered.
            (
                "leg press 1,000lb x 10", "weight \"1,000lb\" has a comma",
                "write a thousand or more without it (1000lb), a fraction with a point (1.000lb)"
            ),
            // A name that needs quoting for a shell is quoted in the command suggested.
            (
                "Bench Press (Barbell) 100kg x 5 @8",
                "\"Bench Press (Barbell) 100kg x 5 @8\" gives an RPE among the set's words",
                "give it with --rpe: liftledger log \"Bench Press (Barbell)\" 100kg x 5 --rpe 8"
            ),
        ]
        for (typed, message, remedy) in cases {
            let error = refusal(typed)
            #expect(error?.message == message, "\(typed)")
            #expect(error?.remedy.contains(remedy) == true, "\(typed): \(error?.remedy ?? "")")
        }
        // What is no RPE, or no set without it, is not taken for an RPE: a set written as reps at a weight, the RPE
        // alone.
        for typed in ["squat 5 @ 100", "squat @8", "squat 100kg x 5 @11"] {
            #expect(refusal(typed)?.message.contains("gives an RPE") == false, "\(typed)")
        }
        // A bare weight is in the profile's unit: 1100 in pounds is a set (499 kg), where in kilograms it is too heavy.
        let inPounds = #expect(throws: TrainingError.self) {
            try SetEntry(words: ["leg", "press", "1100", "x", "10", "@8"], defaultUnit: .pounds)
        }
        #expect(inPounds?.remedy == "give it with --rpe: liftledger log \"leg press\" 1100 x 10 --rpe 8")
        // An exercise whose name has a number, and a set: not sets and reps.
        let named = try SetEntry(words: ["kettlebell", "figure", "8", "16kg", "x", "10"], defaultUnit: .kilograms)
        #expect(parts(named) == parts("kettlebell figure 8", weight("16"), 10))
        // The exercises the remedies name are the catalog's: "assisted pull up" was named, which is none.
        let remedy = refusal("dip bw-15 x 5")?.remedy ?? ""
        let catalog = try ExerciseCatalog.bundled()
        let suggested = remedy.matches(of: /liftledger log "([^"]+)"/).map { String($0.1) }
        #expect(suggested.count == 2 && suggested.allSatisfy { catalog.lookup($0) != nil }, "\(suggested)")
    }

    @Test func rpeIsOneToTenInHalfSteps() {
        #expect(RPE(8.5)?.halfSteps == 17)
        #expect(RPE(10)?.description == "10")
        for bad in [0.5, 10.5, 8.3, -1, .nan, .infinity] { #expect(RPE(bad) == nil, "\(bad)") }
    }
}
