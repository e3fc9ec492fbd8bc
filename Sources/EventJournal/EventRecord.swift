import Crypto
import Foundation
import LMDB

/// A stored event: the exact record bytes (see docs/FORMAT.md) and the fields decoded from them.
public struct EventRecord: Sendable {
    /// The record exactly as stored, checksum included. Records read together share one buffer.
    public let bytes: ArraySlice<UInt8>
    /// The fields read from `bytes`, with the byte ranges of the variable-length ones.
    private let header: RecordFormat.Header

    /// Decodes and checks a stored record; a record that fails its checksum or does not parse throws
    /// `JournalError.Code.corruptRecord`.
    init(decoding raw: UnsafeRawBufferPointer, at expectedPosition: UInt64) throws(JournalError) {
        try self.init(decoding: Array(raw)[...], at: expectedPosition)
    }

    /// Decodes and checks a record already copied out of the map.
    init(decoding bytes: ArraySlice<UInt8>, at expectedPosition: UInt64) throws(JournalError) {
        let parsed = bytes.withUnsafeBytes { raw in
            Result { () throws(JournalError) -> RecordFormat.Header in
                try RecordFormat.parse(raw, at: expectedPosition)
            }
        }
        header = try parsed.get()
        self.bytes = bytes
    }

    public var position: UInt64 { header.position }
    public var streamVersion: UInt64 { header.streamVersion }
    public var recordedAt: Timestamp { header.recordedAt }
    public var occurredAt: Timestamp { header.occurredAt }
    public var schemaVersion: UInt32 { header.schemaVersion }
    public var encoding: PayloadEncoding { header.encoding }
    private var fields: RecordFormat.FieldRanges { header.fields }

    public var id: UUID { UUID(bytes: Array(field(RecordFormat.eventIDOffset..<RecordFormat.eventIDOffset + 16))) }
    public var streamID: String { string(fields.streamID) }
    public var type: String { string(fields.type) }
    /// The type's UTF-8 bytes, for matching it without making a string.
    public var typeUTF8: ArraySlice<UInt8> { field(fields.type) }
    public var metadata: EventMetadata {
        EventMetadata(
            correlationID: string(fields.correlationID), causationID: string(fields.causationID),
            source: string(fields.source))
    }
    public var payload: ArraySlice<UInt8> { field(fields.payload) }

    /// The chain hash of the previous record (32 zero bytes for position 1).
    public var previousHash: [UInt8] {
        Array(field(RecordFormat.previousHashOffset..<RecordFormat.previousHashOffset + 32))
    }

    /// This record's chain hash: SHA-256(previous hash ‖ record bytes).
    public var hash: [UInt8] { RecordFormat.chainHash(previous: previousHash, record: bytes) }

    private func string(_ range: Range<UInt32>) -> String { String(decoding: field(range), as: UTF8.self) }

    /// The bytes at `range`, counted from the start of the record.
    private func field<Offset: BinaryInteger>(_ range: Range<Offset>) -> ArraySlice<UInt8> {
        bytes[(bytes.startIndex + Int(range.lowerBound))..<(bytes.startIndex + Int(range.upperBound))]
    }

    /// Calls `body` with a view of this record, valid during the call.
    public func withView<Result>(_ body: (RecordView) throws -> Result) rethrows -> Result {
        try bytes.withUnsafeBytes { try body(RecordView($0, header)) }
    }

    /// True when `event` has the same content as this record (its id, type, payload and metadata; and its
    /// occurrence time, when the event names one).
    func hasSameContent(as event: ProposedEvent, in stream: String) -> Bool {
        id == event.id && type == event.type && schemaVersion == event.schemaVersion
            && encoding == event.encoding && payload.elementsEqual(event.payload) && metadata == event.metadata
            && streamID == stream && (event.occurredAt.map { $0 == occurredAt } ?? true)
    }
}

/// The record layout, version 1. All integers are big-endian. Documented in docs/FORMAT.md.
@usableFromInline
enum RecordFormat {
    static let version: UInt8 = 1
    static let fixedHeaderSize = 92
    static let eventIDOffset = 44
    static let previousHashOffset = 60
    static let checksumSize = 4
    static let zeroHash = [UInt8](repeating: 0, count: 32)

    /// Offsets from the start of the record (32 bits: a record is at most 16 MiB and some bytes).
    @usableFromInline
    struct FieldRanges: Sendable {
        @usableFromInline var streamID: Range<UInt32>
        @usableFromInline var type: Range<UInt32>
        var correlationID: Range<UInt32>
        var causationID: Range<UInt32>
        var source: Range<UInt32>
        @usableFromInline var payload: Range<UInt32>
    }

    @usableFromInline
    struct Header: Sendable {
        @usableFromInline var position: UInt64
        @usableFromInline var streamVersion: UInt64
        @usableFromInline var recordedAt: Timestamp
        @usableFromInline var occurredAt: Timestamp
        @usableFromInline var schemaVersion: UInt32
        @usableFromInline var encoding: PayloadEncoding
        @usableFromInline var fields: FieldRanges
    }

    /// SHA-256(previous ‖ record).
    static func chainHash(previous: [UInt8], record: some DataProtocol) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(data: previous)
        hasher.update(data: record)
        return hasher.finalize().withUnsafeBytes { Array($0) }
    }

    static func encode(
        _ event: ProposedEvent, stream: String, position: UInt64, streamVersion: UInt64, recordedAt: Timestamp,
        previousHash: [UInt8]
    ) -> [UInt8] {
        let metadata = event.metadata
        let strings = [stream, event.type, metadata.correlationID, metadata.causationID, metadata.source]
        let length =
            fixedHeaderSize + strings.reduce(0) { $0 + 2 + $1.utf8.count } + 4 + event.payload.count + checksumSize
        var bytes = [UInt8]()
        bytes.reserveCapacity(length)
        bytes.append(version)
        bytes.append(event.encoding.rawValue)
        bytes.appendBigEndian(UInt16(0))
        bytes.appendBigEndian(UInt32(length))
        bytes.appendBigEndian(position)
        bytes.appendBigEndian(streamVersion)
        bytes.appendBigEndian(UInt64(bitPattern: recordedAt.microsecondsSinceEpoch))
        bytes.appendBigEndian(UInt64(bitPattern: (event.occurredAt ?? recordedAt).microsecondsSinceEpoch))
        bytes.appendBigEndian(event.schemaVersion)
        withUnsafeBytes(of: event.id.uuid) { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: previousHash)
        for string in strings {
            bytes.appendBigEndian(UInt16(string.utf8.count))
            bytes.append(contentsOf: string.utf8)
        }
        bytes.appendBigEndian(UInt32(event.payload.count))
        bytes.append(contentsOf: event.payload)
        let checksum = bytes.withUnsafeBytes { RecordChecksum.compute($0) }
        bytes.appendBigEndian(checksum)
        return bytes
    }

    /// Checks the checksum and structure of a stored record and returns its header.
    static func parse(_ raw: UnsafeRawBufferPointer, at expected: UInt64) throws(JournalError) -> Header {
        guard raw.count >= fixedHeaderSize + 5 * 2 + 4 + checksumSize else {
            throw .corrupt(expected, "only \(raw.count) bytes")
        }
        let storedChecksum = raw.bigEndian(UInt32.self, at: raw.count - checksumSize)
        let computed = RecordChecksum.compute(UnsafeRawBufferPointer(rebasing: raw[0..<(raw.count - checksumSize)]))
        guard storedChecksum == computed else {
            throw .corrupt(expected, "checksum mismatch (stored \(hex(storedChecksum)), computed \(hex(computed)))")
        }
        guard raw[0] == version else {
            throw .corrupt(expected, "unknown record format version \(raw[0])")
        }
        guard let encoding = PayloadEncoding(rawValue: raw[1]) else {
            throw .corrupt(expected, "unknown payload encoding \(raw[1])")
        }
        guard Int(raw.bigEndian(UInt32.self, at: 4)) == raw.count else {
            throw .corrupt(expected, "length field does not match the stored size \(raw.count)")
        }
        let position = raw.bigEndian(UInt64.self, at: 8)
        guard position == expected else {
            throw .corrupt(expected, "record says position \(position)")
        }
        var offset = fixedHeaderSize
        @inline(__always) func field(lengthBytes: Int) throws(JournalError) -> Range<UInt32> {
            guard offset + lengthBytes <= raw.count - checksumSize else {
                throw .corrupt(expected, "field length beyond the record")
            }
            let length =
                lengthBytes == 2
                ? Int(raw.bigEndian(UInt16.self, at: offset)) : Int(raw.bigEndian(UInt32.self, at: offset))
            let start = offset + lengthBytes
            guard start + length <= raw.count - checksumSize else {
                throw .corrupt(expected, "field beyond the record")
            }
            offset = start + length
            return UInt32(start)..<UInt32(offset)
        }
        let fields = FieldRanges(
            streamID: try field(lengthBytes: 2), type: try field(lengthBytes: 2),
            correlationID: try field(lengthBytes: 2), causationID: try field(lengthBytes: 2),
            source: try field(lengthBytes: 2), payload: try field(lengthBytes: 4))
        guard offset == raw.count - checksumSize else {
            throw .corrupt(expected, "\(raw.count - checksumSize - offset) unexplained bytes before the checksum")
        }
        // The five text fields and their lengths lie together: when all those bytes are ASCII, so is every field.
        let text = UnsafeRawBufferPointer(
            rebasing: raw[Int(fields.streamID.lowerBound)..<Int(fields.source.upperBound)])
        if !isASCII(text) {
            func requireUTF8(_ range: Range<UInt32>, _ name: StaticString) throws(JournalError) {
                let bytes = UnsafeRawBufferPointer(rebasing: raw[Int(range.lowerBound)..<Int(range.upperBound)])
                if String(validating: bytes, as: UTF8.self) == nil {
                    throw .corrupt(expected, "the \(name) is not valid UTF-8")
                }
            }
            try requireUTF8(fields.streamID, "stream id")
            try requireUTF8(fields.type, "event type")
            try requireUTF8(fields.correlationID, "correlation id")
            try requireUTF8(fields.causationID, "causation id")
            try requireUTF8(fields.source, "source")
        }
        return Header(
            position: position, streamVersion: raw.bigEndian(UInt64.self, at: 16),
            recordedAt: Timestamp(microsecondsSinceEpoch: Int64(bitPattern: raw.bigEndian(UInt64.self, at: 24))),
            occurredAt: Timestamp(microsecondsSinceEpoch: Int64(bitPattern: raw.bigEndian(UInt64.self, at: 32))),
            schemaVersion: raw.bigEndian(UInt32.self, at: 40), encoding: encoding, fields: fields)
    }

    /// Whether every byte is below 0x80, read eight at a time.
    private static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        while index + 8 <= bytes.count {
            guard bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 else {
                return false
            }
            index += 8
        }
        return bytes[index...].allSatisfy { $0 < 0x80 }
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }
}
