import EventJournal
import Foundation
import TestSupport
import Testing

struct AppendTests {
    @Test func positionsAreGaplessAndVersionsCountPerStream() async throws {
        let test = try TestJournal()
        let journal = test.journal
        let first = try await journal.append([event("a1"), event("a2"), event("a3")], to: "stream-a")
        let second = try await journal.append([event("b1"), event("b2")], to: "stream-b")
        let third = try await journal.append([event("a4")], to: "stream-a", expectedVersion: .exact(3))
        #expect(first.positions == [1, 2, 3] && first.streamVersion == 3)
        #expect(second.positions == [4, 5] && second.streamVersion == 2)
        #expect(third.positions == [6] && third.streamVersion == 4)
        let streamA = try journal.readStream("stream-a").map { String(decoding: $0.payload, as: UTF8.self) }
        #expect(streamA == ["a1", "a2", "a3", "a4"].map { #"{"marker":"\#($0)"}"# })
        let backward = try journal.readStream("stream-a", from: 3, direction: .backward, limit: 2)
        #expect(backward.map(\.streamVersion) == [3, 2])
        #expect(backward.map(\.position) == [3, 2])
        #expect(try journal.readStream("stream-a", from: 2, limit: 2).map(\.position) == [2, 3])
        #expect(try journal.readStream("no-such-stream").isEmpty)
        #expect(try journal.head().position == 6)
        #expect(try journal.verify().isValid)
    }

    @Test func aWrongExpectedVersionNamesTheVersionsAndWritesNothing() async throws {
        let test = try TestJournal()
        let journal = test.journal
        _ = try await journal.append([event("1"), event("2")], to: "workout-1")
        let before = try journal.head()
        let conflict = await journalError {
            _ = try await journal.append([event("3")], to: "workout-1", expectedVersion: .exact(1))
        }
        #expect(conflict?.code == .wrongExpectedVersion)
        #expect(conflict?.actualVersion == 2)
        #expect(conflict?.message == "stream workout-1 is at version 2, the append expected 1")
        let exists = await journalError {
            _ = try await journal.append([event("3")], to: "workout-1", expectedVersion: .noStream)
        }
        #expect(exists?.code == .wrongExpectedVersion)
        let missing = await journalError {
            _ = try await journal.append([event("x")], to: "workout-2", expectedVersion: .exact(1))
        }
        #expect(missing?.actualVersion == 0)
        let after = try journal.head()
        #expect(after.position == before.position && after.hash == before.hash)
    }

    @Test func reappendingTheSameEventsIsAnIdempotentRetry() async throws {
        let test = try TestJournal()
        let journal = test.journal
        _ = try await journal.append([event("before")], to: "other")
        let events = [event("x"), event("y")]
        let first = try await journal.append(events, to: "workout-1", expectedVersion: .noStream)
        let headAfterFirst = try journal.head()
        // The retry's expected version no longer holds: the ids are checked first, as a client retrying expects.
        let retry = try await journal.append(events, to: "workout-1", expectedVersion: .noStream)
        #expect(retry.positions == first.positions)
        #expect(retry.wasAlreadyStored && !first.wasAlreadyStored)
        #expect(retry.streamVersion == 2)
        #expect(try journal.head().position == headAfterFirst.position)
    }

    @Test func aStoredIdWithOtherContentIsRefused() async throws {
        let test = try TestJournal()
        let journal = test.journal
        let id = UUID.timeOrdered()
        _ = try await journal.append([event("original", id: id)], to: "workout-1")
        let head = try journal.head()
        let changed = await journalError { _ = try await journal.append([event("changed", id: id)], to: "workout-1") }
        #expect(changed?.code == .duplicateEventID)
        #expect(changed?.position == 1)
        let elsewhere = await journalError {
            _ = try await journal.append([event("original", id: id)], to: "workout-2")
        }
        #expect(elsewhere?.code == .duplicateEventID)
        let partial = await journalError {
            _ = try await journal.append([event("original", id: id), event("new")], to: "workout-1")
        }
        #expect(partial?.code == .duplicateEventID)
        let repeated = UUID.timeOrdered()
        let twice = await journalError {
            _ = try await journal.append([event("a", id: repeated), event("b", id: repeated)], to: "workout-3")
        }
        #expect(twice?.code == .duplicateEventID)
        #expect(try journal.head().position == head.position)
    }

    @Test func invalidArgumentsAreRefusedBeforeAnythingIsQueued() async throws {
        let test = try TestJournal()
        let journal = test.journal
        // Past ASCII too: a line separator (U+2028), a C1 control (U+0085) break a line of `events` on a terminal.
        // Blanks and invisible characters alone print as nothing: a no-break space, a zero-width space, the Hangul
        // filler, the blank braille pattern, a variation selector, a combining grapheme joiner, a mark with nothing to
        // sit on.
        for stream in [
            "", "has\nnewline", String(repeating: "s", count: 501), "a\u{2028}b", "a\u{85}b", "   ", "\u{A0}",
            "\u{200B}", "\u{3164}", "\u{2800}", "\u{FE0F}", "\u{34F}", "\u{301}",
        ] {
            let error = await journalError { _ = try await journal.append([event("x")], to: stream) }
            #expect(error?.code == .invalidArgument, "stream id \(stream.debugDescription)")
        }
        let empty = await journalError { _ = try await journal.append([], to: "s") }
        #expect(empty?.code == .invalidArgument)
        // A type has no space of any kind: not a no-break space (U+00A0), an ideographic one (U+3000), nor a line
        // separator.
        for type in ["Set Logged", "Set\u{A0}Logged", "Set\u{3000}Logged", "Set\u{2028}Logged"] {
            let spaced = await journalError { _ = try await journal.append([event("x", type: type)], to: "s") }
            #expect(spaced?.code == .invalidArgument, "\(type.unicodeScalars.map(\.value))")
        }
        #expect(try journal.head().position == 0)
        // Reads take such a stream id, which an older version could store: only appends refuse it.
        #expect(try journal.readStream("a\u{2028}b").isEmpty)
        // Letters of any script are names.
        _ = try await journal.append([event("x", type: "Tÿpe流")], to: "Ünïcode-流 stream")
        #expect(try journal.head().position == 1)
    }

    @Test func theLongestStreamIDFitsLMDBsKeysAndDisturbsNoOtherAppend() async throws {
        let test = try TestJournal()
        let journal = test.journal
        let longest = String(repeating: "s", count: 500)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<8 {
                group.addTask {
                    for index in 0..<10 {
                        _ = try await journal.append(
                            [event("\(writer)-\(index)")], to: writer == 0 ? longest : "w-\(writer)")
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try journal.readStream(longest).count == 10)
        #expect(try journal.verify().recordsChecked == 80)
    }

    @Test func aRetryWithTheEventsReorderedIsRefused() async throws {
        let test = try TestJournal()
        let (first, second) = (event("a"), event("b"))
        _ = try await test.journal.append([first, second], to: "s")
        let reordered = await journalError { _ = try await test.journal.append([second, first], to: "s") }
        #expect(reordered?.code == .duplicateEventID)
        #expect(try test.journal.head().position == 2)
    }

    @Test func aJournalReopensAtOnceWithOtherDurability() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.child("journal")
        for (round, durability) in [Durability.durable, .relaxed, .durable].enumerated() {
            let journal = try Journal.open(at: path, options: JournalOptions(durability: durability), create: true)
            _ = try await journal.append([event("\(round)")], to: "s")
        }
        let journal = try Journal.open(at: path)
        #expect(try journal.readStream("s").count == 3)
    }

    @Test func concurrentAppendsAreAllStoredOnceAndVerify() async throws {
        let test = try TestJournal()
        let journal = test.journal
        let writers = 32
        let perWriter = 40
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    for index in 0..<perWriter {
                        _ = try await journal.append(
                            [event("w\(writer)-\(index)")], to: "writer-\(writer)",
                            expectedVersion: index == 0 ? .noStream : .exact(UInt64(index)))
                    }
                }
            }
            try await group.waitForAll()
        }
        let report = try journal.verify()
        #expect(report.isValid)
        #expect(report.recordsChecked == UInt64(writers * perWriter))
        #expect(report.streams == writers)
        for writer in [0, 17, 31] {
            let markers = try journal.readStream("writer-\(writer)").map { String(decoding: $0.payload, as: UTF8.self) }
            #expect(markers == (0..<perWriter).map { #"{"marker":"w\#(writer)-\#($0)"}"# })
        }
    }

    @Test func occurredAtAndMetadataAreStoredAsGiven() async throws {
        let test = try TestJournal()
        let occurred = Timestamp(microsecondsSinceEpoch: 1_577_934_245_500_000)  // 2020-01-02T03:04:05.5Z
        let metadata = EventMetadata(correlationID: "c-1", causationID: "cause", source: "import:strong:abc")
        let proposed = ProposedEvent(
            type: "SetLogged", schemaVersion: 3, encoding: .binary, payload: [0, 1, 2, 255], occurredAt: occurred,
            metadata: metadata)
        let before = Timestamp.now()
        _ = try await test.journal.append([proposed], to: "workout-9")
        let record = try #require(try test.journal.record(at: 1))
        #expect(record.occurredAt == occurred)
        #expect(record.recordedAt >= before && record.recordedAt <= .now())
        #expect(record.metadata == metadata)
        #expect(record.schemaVersion == 3 && record.encoding == .binary && Array(record.payload) == [0, 1, 2, 255])
        #expect(record.id == proposed.id && record.type == "SetLogged" && record.streamID == "workout-9")
        #expect(occurred.description == "2020-01-02T03:04:05.500000Z")
    }
}
