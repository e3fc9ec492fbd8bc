import EventJournal

/// Writes a payload in the binary encoding of docs/FORMAT.md: a sequence of fields, each a varint key
/// (`field number << 3 | wire type`) and a value. Absent optional values are simply not written.
public struct PayloadWriter: Sendable {
    /// The bytes written are `storage[..<count]`; the bytes after them are room to write into. Fields are written
    /// through a pointer into that room, so that a field costs one check of the buffer, not one per byte.
    private var storage: [UInt8]
    private var count = 0

    public init() { storage = [] }

    /// Ends the writing: what this writer has written.
    public consuming func finish() -> [UInt8] {
        storage.removeLast(storage.count - count)
        return storage
    }

    /// Calls `body` with what this writer has written so far, without copying it.
    func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try storage.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
    }

    /// Forgets what was written and keeps the buffer, so that one writer writes row after row without a buffer for
    /// each.
    mutating func removeAll() { count = 0 }

    @inline(__always)
    public mutating func unsigned(_ field: UInt32, _ value: UInt64) {
        let key = Self.key(field, .varint)
        write(atMost: 2 * Self.maximumVarintBytes) { at in
            let keyBytes = Self.put(varint: key, at: at)
            return keyBytes + Self.put(varint: value, at: at + keyBytes)
        }
    }

    public mutating func unsigned(_ field: UInt32, _ value: UInt64?) {
        if let value { unsigned(field, value) }
    }

    /// A signed integer, zigzag-encoded so that small negative numbers stay short.
    @inline(__always)
    public mutating func signed(_ field: UInt32, _ value: Int64) {
        unsigned(field, UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    public mutating func signed(_ field: UInt32, _ value: Int64?) {
        if let value { signed(field, value) }
    }

    public mutating func bool(_ field: UInt32, _ value: Bool) {
        unsigned(field, value ? 1 : 0)
    }

    /// An IEEE 754 binary64, 8 bytes big-endian.
    public mutating func double(_ field: UInt32, _ value: Double) {
        let key = Self.key(field, .fixed64)
        write(atMost: Self.maximumVarintBytes + 8) { at in
            let keyBytes = Self.put(varint: key, at: at)
            withUnsafeBytes(of: value.bitPattern.bigEndian) {
                UnsafeMutableRawPointer(at + keyBytes).copyMemory(from: $0.baseAddress!, byteCount: 8)
            }
            return keyBytes + 8
        }
    }

    public mutating func string(_ field: UInt32, _ value: String) {
        var value = value
        value.withUTF8 { lengthDelimited(field, $0) }
    }

    public mutating func string(_ field: UInt32, _ value: String?) {
        if let value { string(field, value) }
    }

    /// Every element as a field of its own, in order.
    public mutating func strings(_ field: UInt32, _ values: [String]) {
        for value in values { string(field, value) }
    }

    public mutating func bytes(_ field: UInt32, _ value: [UInt8]) {
        value.withUnsafeBufferPointer { lengthDelimited(field, $0) }
    }

    /// An instant as zigzag microseconds since 1970-01-01T00:00:00Z.
    public mutating func timestamp(_ field: UInt32, _ value: Timestamp?) {
        if let value { signed(field, value.microsecondsSinceEpoch) }
    }

    /// A nested message, length-delimited: the fields `write` writes, in this writer, after the message's key.
    @inline(__always)
    public mutating func message(_ field: UInt32, _ write: (inout PayloadWriter) -> Void) {
        let key = Self.key(field, .lengthDelimited)
        // The nested fields go straight into this buffer after a one-byte length, which most messages fit; a longer
        // length shifts them along to make room for its other bytes.
        self.write(atMost: Self.maximumVarintBytes + 1) { at in
            let keyBytes = Self.put(varint: key, at: at)
            at[keyBytes] = 0
            return keyBytes + 1
        }
        let lengthAt = count - 1
        write(&self)
        let length = count - lengthAt - 1
        if length < 0x80 {
            storage[lengthAt] = UInt8(length)
            return
        }
        let extra = Self.varintBytes(UInt64(length)) - 1
        self.write(atMost: extra) { _ in extra }
        storage.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress! + lengthAt
            (base + 1 + extra).moveInitialize(from: base + 1, count: length)
            _ = Self.put(varint: UInt64(length), at: base)
        }
    }

    // MARK: Writing bytes

    private static let maximumVarintBytes = 10

    private static func key(_ field: UInt32, _ type: WireType) -> UInt64 {
        precondition(field > 0 && field < 1 << 29, "field numbers run from 1 to 2^29 - 1")
        return UInt64(field) << 3 | UInt64(type.rawValue)
    }

    /// A key, a varint length, and `value`.
    @inline(__always)
    private mutating func lengthDelimited(_ field: UInt32, _ value: UnsafeBufferPointer<UInt8>) {
        let key = Self.key(field, .lengthDelimited)
        write(atMost: 2 * Self.maximumVarintBytes + value.count) { at in
            var written = Self.put(varint: key, at: at)
            written += Self.put(varint: UInt64(value.count), at: at + written)
            if let source = value.baseAddress { (at + written).initialize(from: source, count: value.count) }
            return written + value.count
        }
    }

    /// Writes at most `maximum` bytes with `body`, which is given where to write and returns how many it wrote.
    @inline(__always)
    private mutating func write(atMost maximum: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        if storage.count - count < maximum {
            storage.append(contentsOf: repeatElement(0, count: max(maximum, storage.count, 32)))
        }
        let start = count
        count += storage.withUnsafeMutableBufferPointer { body($0.baseAddress! + start) }
    }

    /// Writes `value` as an unsigned LEB128 integer at `at`; returns the number of bytes, at most 10.
    @inline(__always)
    private static func put(varint value: UInt64, at: UnsafeMutablePointer<UInt8>) -> Int {
        var rest = value
        var written = 0
        while rest >= 0x80 {
            at[written] = UInt8(truncatingIfNeeded: rest) | 0x80
            rest >>= 7
            written += 1
        }
        at[written] = UInt8(truncatingIfNeeded: rest)
        return written + 1
    }

    private static func varintBytes(_ value: UInt64) -> Int {
        max(1, (64 - value.leadingZeroBitCount + 6) / 7)
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
