import EventJournal

/// Writes a payload in the binary encoding of docs/FORMAT.md: a sequence of fields, each a varint key
/// (`field number << 3 | wire type`) and a value. Absent optional values are simply not written.
public struct PayloadWriter: Sendable {
    /// The bytes written; a nested message's writer (see ``message(_:_:)``) shares its parent's buffer from `start`.
    private var buffer: [UInt8] = []
    private var start = 0

    /// What this writer has written.
    public var bytes: [UInt8] { start == 0 ? buffer : Array(buffer[start...]) }

    public init() {}

    /// A writer with room for `capacity` bytes: a row of known rough size is written without regrowing its buffer.
    init(capacity: Int) { buffer.reserveCapacity(capacity) }

    public mutating func unsigned(_ field: UInt32, _ value: UInt64) {
        key(field, .varint)
        varint(value)
    }

    public mutating func unsigned(_ field: UInt32, _ value: UInt64?) {
        if let value { unsigned(field, value) }
    }

    /// A signed integer, zigzag-encoded so that small negative numbers stay short.
    public mutating func signed(_ field: UInt32, _ value: Int64) {
        key(field, .varint)
        varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    public mutating func signed(_ field: UInt32, _ value: Int64?) {
        if let value { signed(field, value) }
    }

    public mutating func bool(_ field: UInt32, _ value: Bool) {
        unsigned(field, value ? 1 : 0)
    }

    /// An IEEE 754 binary64, 8 bytes big-endian.
    public mutating func double(_ field: UInt32, _ value: Double) {
        key(field, .fixed64)
        withUnsafeBytes(of: value.bitPattern.bigEndian) { buffer.append(contentsOf: $0) }
    }

    public mutating func string(_ field: UInt32, _ value: String) {
        key(field, .lengthDelimited)
        var value = value
        value.withUTF8 { utf8 in
            varint(UInt64(utf8.count))
            buffer.append(contentsOf: utf8)
        }
    }

    public mutating func string(_ field: UInt32, _ value: String?) {
        if let value { string(field, value) }
    }

    /// Every element as a field of its own, in order.
    public mutating func strings(_ field: UInt32, _ values: [String]) {
        for value in values { string(field, value) }
    }

    public mutating func bytes(_ field: UInt32, _ value: [UInt8]) {
        key(field, .lengthDelimited)
        varint(UInt64(value.count))
        buffer.append(contentsOf: value)
    }

    /// An instant as zigzag microseconds since 1970-01-01T00:00:00Z.
    public mutating func timestamp(_ field: UInt32, _ value: Timestamp?) {
        if let value { signed(field, value.microsecondsSinceEpoch) }
    }

    /// A nested message: its own fields, length-delimited.
    public mutating func message(_ field: UInt32, _ write: (inout PayloadWriter) -> Void) {
        key(field, .lengthDelimited)
        // The nested fields go straight into this buffer after a one-byte length, which most messages fit; a longer
        // length takes the room it needs afterwards. No buffer of its own, no copy.
        let lengthAt = buffer.count
        buffer.append(0)
        var nested = PayloadWriter()
        nested.start = buffer.count
        swap(&nested.buffer, &buffer)
        write(&nested)
        swap(&nested.buffer, &buffer)
        let length = buffer.count - lengthAt - 1
        if length < 0x80 {
            buffer[lengthAt] = UInt8(length)
        } else {
            var prefix = PayloadWriter()
            prefix.varint(UInt64(length))
            buffer.replaceSubrange(lengthAt..<(lengthAt + 1), with: prefix.buffer)
        }
    }

    private mutating func key(_ field: UInt32, _ type: WireType) {
        precondition(field > 0 && field < 1 << 29, "field numbers run from 1 to 2^29 - 1")
        varint(UInt64(field) << 3 | UInt64(type.rawValue))
    }

    private mutating func varint(_ value: UInt64) {
        if value < 0x80 {
            buffer.append(UInt8(truncatingIfNeeded: value))
            return
        }
        // Laid out in a local first, then appended at once: one capacity check rather than one per byte.
        var bytes: (UInt64, UInt64) = (0, 0)
        let count = withUnsafeMutableBytes(of: &bytes) { raw in
            var rest = value
            var count = 0
            while rest >= 0x80 {
                raw[count] = UInt8(truncatingIfNeeded: rest) | 0x80
                rest >>= 7
                count += 1
            }
            raw[count] = UInt8(rest)
            return count + 1
        }
        withUnsafeBytes(of: &bytes) { buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: $0[..<count])) }
    }
}

/// How a field's value is laid out after its key.
public enum WireType: UInt8, Sendable {
    /// An unsigned LEB128 integer (signed integers zigzag-encoded first).
    case varint = 0
    /// 8 bytes, big-endian.
    case fixed64 = 1
    /// A varint byte count, then that many bytes: text, identifiers, nested messages.
    case lengthDelimited = 2
}
