import EventJournal
import Foundation
import Testing

@testable import Training

struct CodecTests {
    /// Bytes worked out by hand from docs/FORMAT.md.
    @Test func fieldsAreLaidOutAsDocumented() throws {
        // Field 1, varint: key 1 << 3 | 0 = 0x08; 300 = 0b10_0101100 → 0xAC 0x02.
        #expect(SetRemoved(setNumber: 300).encoded == [0x08, 0xAC, 0x02])
        // Field 1 sint -1 → zigzag 1; field 2 time 1 µs → zigzag 2, key 2 << 3 = 0x10.
        let extended = RestTimerExtended(bySeconds: -1, endsAt: Timestamp(microsecondsSinceEpoch: 1))
        #expect(extended.encoded == [0x08, 0x01, 0x10, 0x02])
        // Field 1, length-delimited: key 0x0A, length 3, "Leg" — then field 2 absent.
        #expect(WorkoutStarted(name: "Leg").encoded == [0x0A, 0x03, 0x4C, 0x65, 0x67])
        // A nested weight: field 1 = message { 1: "225", 2: 2 (lb) } → 0x0A 0x07 | 0x0A 0x03 "225" 0x10 0x02.
        let body = BodyWeightRecorded(weight: weight("225", .pounds)).encoded
        #expect(body == [0x0A, 0x07, 0x0A, 0x03, 0x32, 0x32, 0x35, 0x10, 0x02])
    }

    @Test func everyEventTypeRoundTrips() async throws {
        let time = Timestamp(rfc3339: "2026-11-22T18:00:00.123456Z")!
        let set = SetDetails(
            exerciseId: "Barbell_Squat", weight: weight("102.5"), reps: 5, kind: .failure, rpe: RPE(8.5),
            note: "grind", durationSeconds: 40, distanceMeters: ExactDecimal("12.5"))
        let events: [TrainingEvent] = [
            .profileUpdated(
                ProfileUpdated(
                    name: "Ana", age: 34, heightCentimeters: ExactDecimal("171.5"), unit: .pounds,
                    timeZone: "Europe/Berlin")),
            .bodyWeightRecorded(BodyWeightRecorded(weight: weight("176.4", .pounds))),
            .customExerciseAdded(
                CustomExerciseAdded(
                    exerciseId: "custom-zercher", name: "Zercher", primaryMuscles: ["quadriceps", "glutes"],
                    secondaryMuscles: ["abdominals"], equipment: "barbell", force: "push", mechanic: "compound",
                    category: "strength")),
            .routineCreated(RoutineCreated(routineId: "push", name: "Push")),
            .routineExerciseAdded(
                RoutineExerciseAdded(
                    exerciseId: "Dips", exerciseName: "Dips", targetSets: 3, minimumReps: 8, maximumReps: 12,
                    restSeconds: 90)),
            .routineExerciseRemoved(RoutineExerciseRemoved(exerciseId: "Dips")),
            .routineExerciseMoved(RoutineExerciseMoved(exerciseId: "Dips", toIndex: 2)),
            .scheduleSet(ScheduleSet(kind: .split, days: ["Push", "", "Pull"], startDate: "2026-11-01")),
            .workoutStarted(WorkoutStarted(name: "Legs", routineId: "legs")),
            .workoutPaused(WorkoutPaused()), .workoutResumed(WorkoutResumed()),
            .workoutFinished(WorkoutFinished(note: "good")), .workoutDiscarded(WorkoutDiscarded()),
            .workoutEdited(WorkoutEdited(startedAt: time, note: "moved", name: "Legs B")),
            .workoutDeleted(WorkoutDeleted(reason: "duplicate")), .workoutRestored(WorkoutRestored(finishedAt: time)),
            .exerciseAdded(ExerciseAdded(exerciseId: "Barbell_Squat", exerciseName: "Barbell Squat")),
            .exerciseRemoved(ExerciseRemoved(exerciseId: "Barbell_Squat")),
            .exerciseMoved(ExerciseMoved(exerciseId: "Barbell_Squat", toIndex: 0)),
            .setLogged(SetLogged(setNumber: 7, set: set)),
            .setLogged(SetLogged(setNumber: 8, set: SetDetails(exerciseId: "Pullups", weight: nil, reps: 12))),
            .setCorrected(SetCorrected(setNumber: 7, set: set)),
            .setRemoved(SetRemoved(setNumber: 7)),
            .restTimerStarted(RestTimerStarted(durationSeconds: 90, endsAt: time, afterSet: 7)),
            .restTimerExtended(RestTimerExtended(bySeconds: -15, endsAt: time)),
            .restTimerSkipped(RestTimerSkipped()),
            .restTimerFinished(RestTimerFinished(endedAt: time)),
            .rulesChanged(RulesChanged(key: "e1rm.formula", value: "brzycki")),
        ]
        let covered = Set(events.map { type(of: $0.payload).typeName })
        #expect(covered == TrainingEvent.typeNames, "every registered type is exercised")
        let journal = try TestJournal().journal
        for event in events {
            let payload = event.payload
            _ = try await journal.append([payload.proposed()], to: "codec", expectedVersion: .any)
        }
        let decoded = try journal.readStream("codec").map { try TrainingEvent.decode($0) }
        #expect(decoded == events)
    }

    @Test func unknownFieldsAreSkippedAndMissingRequiredOnesRefused() throws {
        var writer = PayloadWriter()
        writer.double(40, 1.5)
        writer.string(41, "from a newer build")
        writer.unsigned(1, 3)
        writer.message(42) { $0.unsigned(1, 1) }
        let removed = try Self.decode(SetRemoved.self, version: 1, writer.finish())
        #expect(removed == SetRemoved(setNumber: 3))
        #expect(throws: PayloadError.self) { try Self.decode(SetRemoved.self, version: 1, []) }
        // Wire type 3 does not exist; a length past the end is cut short.
        #expect(throws: PayloadError.self) { try Self.decode(SetRemoved.self, version: 1, [0x0B]) }
        #expect(throws: PayloadError.self) { try Self.decode(WorkoutStarted.self, version: 1, [0x0A, 0x05, 0x41]) }
        #expect(throws: PayloadError.self) { try Self.decode(WorkoutStarted.self, version: 1, [0x0A, 0x01, 0xFF]) }
        #expect(throws: PayloadError.self) { try Self.decode(SetRemoved.self, version: 2, writer.finish()) }
    }

    @Test func varintsRoundTripAtTheirBoundaries() throws {
        for value: UInt64 in [0, 1, 127, 128, 16_383, 16_384, UInt64(UInt32.max), .max] {
            var writer = PayloadWriter()
            writer.unsigned(5, value)
            #expect(
                try Self.firstField(writer.finish()) { field throws(PayloadError) in try field.unsigned() } == value)
        }
        for value: Int64 in [0, -1, 1, .min, .max] {
            var writer = PayloadWriter()
            writer.signed(5, value)
            #expect(try Self.firstField(writer.finish()) { field throws(PayloadError) in try field.signed() } == value)
        }
        // Eleven continuation bytes overflow 64 bits.
        let overlong = [0x08] + [UInt8](repeating: 0xFF, count: 10) + [0x01]
        #expect(throws: PayloadError.self) {
            try Self.firstField(overlong) { field throws(PayloadError) in try field.unsigned() }
        }
    }

    /// Nested messages are written into their parent's buffer with a one-byte length that grows when it must; bytes
    /// worked out by hand. Innermost: key 3 << 3 | 2 = 0x1A, length 200 = 0xC8 0x01, 200 × "a": 203 bytes. Around
    /// it: key 0x12, length 203 = 0xCB 0x01: 206 bytes. Outermost: key 0x0A, length 206 = 0xCE 0x01. Then a
    /// short nested message after it (key 0x22, length 2, field 1 = 7) keeps its one-byte length.
    @Test func nestedMessagesOfEveryLengthAreLaidOutAsDocumented() throws {
        var writer = PayloadWriter()
        writer.message(1) { middle in
            middle.message(2) { inner in inner.string(3, String(repeating: "a", count: 200)) }
        }
        writer.message(4) { $0.unsigned(1, 7) }
        let header: [UInt8] = [0x0A, 0xCE, 0x01, 0x12, 0xCB, 0x01, 0x1A, 0xC8, 0x01]
        let expected = header + [UInt8](repeating: 0x61, count: 200) + [0x22, 0x02, 0x08, 0x07]
        #expect(writer.finish() == expected)
    }

    /// A writer emptied and written again holds the new bytes alone, even after a longer message had grown it and
    /// moved its bytes to make room for a two-byte length.
    @Test func aWriterEmptiedWritesTheNextRowAlone() throws {
        var writer = PayloadWriter()
        writer.message(1) { $0.string(1, String(repeating: "a", count: 300)) }
        writer.unsigned(2, 300)
        writer.removeAll()
        writer.withBytes { #expect($0.isEmpty) }
        // Field 4, message { field 1 varint 7 }: 0x22 0x02 0x08 0x07; then field 5, "Leg": 0x2A 0x03 "Leg".
        writer.message(4) { $0.unsigned(1, 7) }
        writer.string(5, "Leg")
        writer.withBytes { #expect(Array($0) == [0x22, 0x02, 0x08, 0x07, 0x2A, 0x03, 0x4C, 0x65, 0x67]) }
        #expect(writer.finish() == [0x22, 0x02, 0x08, 0x07, 0x2A, 0x03, 0x4C, 0x65, 0x67])
    }

    /// Read-model rows keep decimals as a significand and a scale; bytes worked out by hand from docs/FORMAT.md.
    @Test func readModelRowsNestDecimalsAsDocumented() throws {
        // 102.5 lb: weight { 1: decimal { 1: sint 1025 → zigzag 2050 = 0x82 0x10, 2: scale 1 }, 2: unit 2 }.
        var writer = PayloadWriter()
        weight("102.5", .pounds).writeRow(to: &writer)
        #expect(writer.finish() == [0x0A, 0x05, 0x08, 0x82, 0x10, 0x10, 0x01, 0x10, 0x02])
        #expect(try Self.decodeRow(writer.finish(), Weight.init(row:)) == weight("102.5", .pounds))

        let set = SetDetails(
            exerciseId: "Rowing", weight: weight("-7.25"), reps: 0, kind: .normal, rpe: nil, note: "easy",
            durationSeconds: 600, distanceMeters: ExactDecimal("2000.5"))
        let rowing = row { set.writeRow(to: &$0) }
        #expect(try Self.decodeRow(rowing, SetDetails.init(row:)) == set)

        // A set keeps its weight in its own fields: 2 sint 1025 (0x10 0x82 0x10), 9 scale 1 (0x48 0x01), 10 unit 2
        // (0x50 0x02); then 3 reps 5 (0x18 0x05). A normal set's kind is left out; a warm-up's is 4: 2 (0x20 0x02).
        let pounds = SetDetails(exerciseId: "Squat", weight: weight("102.5", .pounds), reps: 5)
        let poundsRow = row { pounds.writeRow(to: &$0, withExercise: false) }
        #expect(poundsRow == [0x10, 0x82, 0x10, 0x48, 0x01, 0x50, 0x02, 0x18, 0x05])
        var decoded = try Self.decodeRow(poundsRow, SetDetails.init(row:))
        decoded.exerciseId = "Squat"
        #expect(decoded == pounds)
        let warmup = SetDetails(exerciseId: "Squat", weight: nil, reps: 8, kind: .warmup)
        #expect(row { warmup.writeRow(to: &$0, withExercise: false) } == [0x18, 0x08, 0x20, 0x02])
        // A set's weight with a scale past what a decimal holds is refused, not misread.
        #expect(throws: PayloadError.self) {
            try Self.decodeRow([0x10, 0x02, 0x48, 0xC8, 0x01], SetDetails.init(row:))
        }

        // A scale past what a decimal holds is refused, not misread.
        var bad = PayloadWriter()
        bad.signed(1, 1)
        bad.unsigned(2, 200)
        #expect(throws: PayloadError.self) { try Self.decodeRow(bad.finish(), ExactDecimal.init(row:)) }
    }

    /// Long text decoded twice is one string, sharing its storage; short text lives inside its `String`; other text
    /// stays other text; text beyond ASCII is read as UTF-8, and invalid UTF-8 is refused, short or long; and once the
    /// table is full, new text is decoded but not kept.
    @Test func recurringTextIsSharedUpToABound() throws {
        let shared = SharedText()
        let squat = Array("Barbell_Full_Squat".utf8)
        let first = try #require(Self.text(shared, squat))
        let second = try #require(Self.text(shared, squat))
        #expect(first == "Barbell_Full_Squat" && Self.storage(first) == Self.storage(second))
        #expect(Self.text(shared, Array("Barbell_Bench_Press".utf8)) == "Barbell_Bench_Press")
        #expect(Self.text(shared, Array("Squat".utf8)) == "Squat")
        #expect(Self.text(shared, [UInt8](repeating: 0xFF, count: 20)) == nil)
        #expect(Self.text(shared, [0x53, 0xFF]) == nil)
        #expect(Self.text(shared, Array("Übung".utf8)) == "Übung")
        let accented = Array("Kniebeuge – Langhantel".utf8)
        let accentedFirst = try #require(Self.text(shared, accented))
        #expect(accentedFirst == "Kniebeuge – Langhantel")
        #expect(Self.storage(try #require(Self.text(shared, accented))) == Self.storage(accentedFirst))

        for index in 0..<SharedText.capacity { _ = Self.text(shared, Array("exercise number \(index)".utf8)) }
        let late = Array("one exercise too many".utf8)
        let lateFirst = try #require(Self.text(shared, late))
        let lateSecond = try #require(Self.text(shared, late))
        #expect(lateFirst == lateSecond && Self.storage(lateFirst) != Self.storage(lateSecond))
        // Text kept before the table filled is still shared.
        #expect(Self.storage(try #require(Self.text(shared, squat))) == Self.storage(first))
    }

    /// What `body` makes of a reader over `bytes`.
    private static func reading<Value>(
        _ bytes: [UInt8], _ body: (inout PayloadReader) throws(PayloadError) -> Value
    ) throws(PayloadError) -> Value {
        // `withUnsafeBytes` rethrows untyped errors: the result comes out as a `Result` to keep the error's type.
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(PayloadError) -> Value in
                var reader = PayloadReader(raw)
                return try body(&reader)
            }
        }
        return try result.get()
    }

    /// `bytes` decoded as a `Payload` of schema `version`.
    private static func decode<Payload: TrainingEventPayload>(
        _: Payload.Type, version: UInt32, _ bytes: [UInt8]
    ) throws -> Payload {
        try bytes.withUnsafeBytes { try Payload.decode(version: version, payload: $0) }
    }

    /// What `read` makes of the first field of `bytes`.
    private static func firstField<Value>(
        _ bytes: [UInt8], _ read: (Field) throws(PayloadError) -> Value
    ) throws(PayloadError) -> Value? {
        try Self.reading(bytes) { reader throws(PayloadError) in try reader.next().map(read) }
    }

    /// A read-model row decoded from `bytes` by `decode`.
    private static func decodeRow<Row>(
        _ bytes: [UInt8], _ decode: (PayloadReader) throws(PayloadError) -> Row
    ) throws(PayloadError) -> Row {
        try Self.reading(bytes) { reader throws(PayloadError) in try decode(reader) }
    }

    private static func text(_ shared: SharedText, _ bytes: [UInt8]) -> String? {
        bytes.withUnsafeBytes { shared.text($0) }
    }

    private static func storage(_ text: String) -> UnsafePointer<UInt8>? {
        var text = text
        return text.withUTF8 { $0.baseAddress }
    }
}
