import Crypto
import EventJournal
import Foundation
import TestSupport
import Testing

/// The record layout of docs/FORMAT.md, checked field by field against bytes decoded here by hand.
struct FormatTests {
    @Test func aStoredRecordHasTheDocumentedLayout() async throws {
        let test = try TestJournal()
        let occurred = Timestamp(microsecondsSinceEpoch: 1_700_000_000_123_456)
        let proposed = ProposedEvent(
            type: "SetLogged", schemaVersion: 2, encoding: .json, payload: Array(#"{"reps":5}"#.utf8),
            occurredAt: occurred, metadata: EventMetadata(correlationID: "corr", causationID: "", source: "cli"))
        _ = try await test.journal.append([event("first")], to: "s")
        _ = try await test.journal.append([proposed], to: "workout-7")
        let first = try #require(try test.journal.record(at: 1))
        let bytes = try #require(try test.journal.record(at: 2)).bytes

        func integer(_ offset: Int, _ size: Int) -> UInt64 {
            bytes[offset..<offset + size].reduce(0) { $0 << 8 | UInt64($1) }
        }
        #expect(bytes[0] == 1 && bytes[1] == 1 && integer(2, 2) == 0)
        #expect(integer(4, 4) == UInt64(bytes.count))
        #expect(integer(8, 8) == 2 && integer(16, 8) == 1)
        #expect(integer(32, 8) == 1_700_000_000_123_456)
        #expect(integer(40, 4) == 2)
        #expect(Array(bytes[44..<60]) == withUnsafeBytes(of: proposed.id.uuid) { Array($0) })
        #expect(Array(bytes[60..<92]) == first.hash)
        var offset = 92
        var fields: [String] = []
        for size in [2, 2, 2, 2, 2, 4] {
            let length = Int(integer(offset, size))
            fields.append(String(decoding: bytes[offset + size..<offset + size + length], as: UTF8.self))
            offset += size + length
        }
        #expect(fields == ["workout-7", "SetLogged", "corr", "", "cli", #"{"reps":5}"#])
        #expect(offset == bytes.count - 4)
        #expect(UInt32(integer(offset, 4)) == crc32c(bytes[0..<offset]))
        #expect(Array(SHA256.hash(data: first.hash + bytes)) == (try test.journal.head().hash))
    }

    @Test func timestampsPrintAsRFC3339WithMicroseconds() {
        #expect(Timestamp(microsecondsSinceEpoch: 0).description == "1970-01-01T00:00:00.000000Z")
        // 1,700,000,000 s after the epoch is 2023-11-14 22:13:20 UTC.
        #expect(Timestamp(microsecondsSinceEpoch: 1_700_000_000_123_456).description == "2023-11-14T22:13:20.123456Z")
        #expect(Timestamp(microsecondsSinceEpoch: -1).description == "1969-12-31T23:59:59.999999Z")
        // 0001-01-01 is -62,135,596,800 s; year 0 (a leap year, proleptic) 366 days before it, year -1 365 before
        // that; 10000-01-01 is 253,402,300,800 s. Years outside 0000 to 9999 have a sign.
        let second: Int64 = 1_000_000
        #expect(
            Timestamp(microsecondsSinceEpoch: -62_135_596_800 * second).description == "0001-01-01T00:00:00.000000Z")
        #expect(
            Timestamp(microsecondsSinceEpoch: -62_167_219_200 * second).description == "0000-01-01T00:00:00.000000Z")
        #expect(
            Timestamp(microsecondsSinceEpoch: -62_198_755_200 * second).description == "-0001-01-01T00:00:00.000000Z")
        #expect(
            Timestamp(microsecondsSinceEpoch: 253_402_300_800 * second - 1).description == "9999-12-31T23:59:59.999999Z"
        )
        #expect(
            Timestamp(microsecondsSinceEpoch: 253_402_300_800 * second).description == "+10000-01-01T00:00:00.000000Z")
    }

    @Test func eventIDsAreVersion7AndSortByTime() {
        let early = UUID.timeOrdered(at: Timestamp(microsecondsSinceEpoch: 1_700_000_000_000_000))
        let late = UUID.timeOrdered(at: Timestamp(microsecondsSinceEpoch: 1_700_000_000_001_000))
        let bytes = withUnsafeBytes(of: early.uuid) { Array($0) }
        #expect(bytes[6] >> 4 == 7)
        #expect(bytes[8] >> 6 == 0b10)
        // The first 48 bits are the Unix time in milliseconds: 1,700,000,000,000 = 0x018BCFE56800.
        #expect(Array(bytes[0..<6]) == [0x01, 0x8B, 0xCF, 0xE5, 0x68, 0x00])
        #expect(early.uuidString < late.uuidString)
    }
}

/// Every stored record's checksum is the reference CRC-32C of its bytes, for records of every length from about a
/// hundred bytes to a few hundred: the hardware path's words, with every remainder after them.
@Test func checksumsMatchTheReferenceAtEveryLength() async throws {
    let test = try TestJournal()
    let payloads = (0..<400).map { length in
        ProposedEvent(
            type: "Probe", encoding: .json,
            payload: Array(repeating: UInt8(ascii: "a") &+ UInt8(length % 26), count: length))
    }
    _ = try await test.journal.append(payloads, to: "lengths")
    let records = try test.journal.readStream("lengths")
    #expect(records.count == 400)
    for record in records {
        let bytes = record.bytes
        let stored = bytes[(bytes.count - 4)...].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        #expect(stored == crc32c(bytes[0..<(bytes.count - 4)]), "record of \(bytes.count) bytes")
    }
}

@Test func theReferenceCRCHasTheStandardCheckValue() {
    #expect(crc32c(Array("123456789".utf8)) == 0xE306_9283)
}

struct TimestampParsingTests {
    @Test func rfc3339ParsesExactlyInIntegers() {
        // Expected values from Python's datetime (timestamp() of aware datetimes), computed outside this code.
        #expect(Timestamp(rfc3339: "2020-01-02T03:04:05.5Z")?.microsecondsSinceEpoch == 1_577_934_245_500_000)
        #expect(Timestamp(rfc3339: "0001-01-01T00:00:00Z")?.microsecondsSinceEpoch == -62_135_596_800_000_000)
        #expect(Timestamp(rfc3339: "9999-12-31T23:59:59.9999999Z")?.microsecondsSinceEpoch == 253_402_300_799_999_999)
        // 1600-03-01 is 135,080 days before 1970-01-01 (Gregorian): −11,670,912,000 s, plus one microsecond.
        #expect(Timestamp(rfc3339: "1600-03-01T00:00:00.000001Z")?.microsecondsSinceEpoch == -11_670_911_999_999_999)
        #expect(
            Timestamp(rfc3339: "2026-11-21T18:05:00.250+01:00")?.description == "2026-11-21T17:05:00.250000Z")
        for bad in [
            "0000-01-01T00:00:00Z", "2026-02-29T00:00:00Z", "2026-11-21", "2026-11-21T25:00:00Z",
            "2026-11-21T18:05:00", "2026-11-21T18:05:00.Z", "2026-11-21T18:05:00+1:00", "10000-01-01T00:00:00Z",
        ] {
            #expect(Timestamp(rfc3339: bad) == nil, "\(bad)")
        }
    }

    @Test func formattingAndParsingRoundTrip() {
        var generator = SystemRandomNumberGenerator()
        let range = Timestamp.appendable
        for _ in 0..<10_000 {
            let micros = Int64.random(
                in: range.lowerBound.microsecondsSinceEpoch...range.upperBound.microsecondsSinceEpoch,
                using: &generator)
            let time = Timestamp(microsecondsSinceEpoch: micros)
            #expect(Timestamp(rfc3339: time.description) == time, "\(time)")
        }
        #expect(Timestamp(microsecondsSinceEpoch: .min).description.hasPrefix("-"))
        #expect(Timestamp(microsecondsSinceEpoch: .max).description.hasPrefix("+"))
    }
}
