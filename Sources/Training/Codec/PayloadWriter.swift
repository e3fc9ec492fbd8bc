import EventJournal

/// Writes a payload in the binary encoding of docs/FORMAT.md: a sequence of fields, each a varint key
/// (`field number << 3 | wire type`) and a value. Absent optional values are simply not written.
public struct PayloadWriter: Sendable {
    public private(set) var bytes: [UInt8] = []

    public init() {}

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
        withUnsafeBytes(of: value.bitPattern.bigEndian) { bytes.append(contentsOf: $0) }
    }

    public mutating func string(_ field: UInt32, _ value: String) {
        bytes(field, Array(value.utf8))
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
        bytes.append(contentsOf: value)
    }

    /// An instant as zigzag microseconds since 1970-01-01T00:00:00Z.
    public mutating func timestamp(_ field: UInt32, _ value: Timestamp?) {
        if let value { signed(field, value.microsecondsSinceEpoch) }
    }

    /// A nested message: its own fields, length-delimited.
    public mutating func message(_ field: UInt32, _ write: (inout PayloadWriter) -> Void) {
        var nested = PayloadWriter()
        write(&nested)
        bytes(field, nested.bytes)
    }

    private mutating func key(_ field: UInt32, _ type: WireType) {
        precondition(field > 0 && field < 1 << 29, "field numbers run from 1 to 2^29 - 1")
        varint(UInt64(field) << 3 | UInt64(type.rawValue))
    }

    private mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
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
