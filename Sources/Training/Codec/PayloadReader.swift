import EventJournal

/// A payload that does not follow the binary encoding, or lacks a field its event requires.
public struct PayloadError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

/// Reads the fields of a payload in the binary encoding of docs/FORMAT.md, one at a time, in stored order.
///
/// Decoders loop over `next()` and switch on the field number; fields they do not know are skipped, which is what
/// lets an older build read a newer event.
///
/// The reader and the fields it returns point into the bytes they were made from, without holding them: use them only
/// inside the closure that lends the bytes (such as `withUnsafeBytes`), and copy what must outlive it.
public struct PayloadReader {
    private let bytes: UnsafeRawBufferPointer
    private var index: Int

    /// A reader over `bytes`, which must stay valid while the reader or a field it returns is in use.
    public init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        index = 0
    }

    /// The next field, or nil at the end of the payload.
    public mutating func next() throws(PayloadError) -> Field? {
        guard index < bytes.count else { return nil }
        let key = try varint()
        let number = key >> 3
        guard number > 0, number < 1 << 29 else { throw PayloadError("field number \(number) out of range") }
        guard let type = WireType(rawValue: UInt8(key & 7)) else {
            throw PayloadError("unknown wire type \(key & 7) for field \(number)")
        }
        let value: Field.Value
        switch type {
        case .varint:
            value = .varint(try varint())
        case .fixed64:
            guard bytes.count - index >= 8 else { throw PayloadError("field \(number) is cut short") }
            value = .fixed64(UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)))
            index += 8
        case .lengthDelimited:
            let length = try varint()
            guard length <= UInt64(bytes.count - index) else { throw PayloadError("field \(number) is cut short") }
            value = .bytes(UnsafeRawBufferPointer(rebasing: bytes[index..<index + Int(length)]))
            index += Int(length)
        }
        return Field(number: UInt32(number), value: value)
    }

    private mutating func varint() throws(PayloadError) -> UInt64 {
        // Most varints (every field's key, and most values) are one byte.
        if index < bytes.count, bytes[index] < 0x80 {
            index += 1
            return UInt64(bytes[index - 1])
        }
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            guard shift < 64, shift < 63 || byte <= 1 else { throw PayloadError("varint longer than 64 bits") }
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
        }
        throw PayloadError("varint cut short")
    }
}

/// One field of a payload: its number and its raw value, read into a Swift type by the event that knows it. Its bytes
/// are the payload's, valid as long as the reader's (see ``PayloadReader``).
public struct Field {
    public enum Value {
        case varint(UInt64)
        case fixed64(UInt64)
        case bytes(UnsafeRawBufferPointer)
    }

    public let number: UInt32
    public let value: Value

    public func unsigned() throws(PayloadError) -> UInt64 {
        guard case .varint(let raw) = value else { throw mismatch("an integer") }
        return raw
    }

    public func signed() throws(PayloadError) -> Int64 {
        let raw = try unsigned()
        return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
    }

    /// An unsigned integer that must fit `T`.
    public func integer<T: FixedWidthInteger>(_: T.Type = T.self) throws(PayloadError) -> T {
        guard let value = T(exactly: try unsigned()) else { throw PayloadError("field \(number) is out of range") }
        return value
    }

    public func bool() throws(PayloadError) -> Bool {
        switch try unsigned() {
        case 0: return false
        case 1: return true
        default: throw PayloadError("field \(number) is not a boolean")
        }
    }

    public func double() throws(PayloadError) -> Double {
        guard case .fixed64(let raw) = value else { throw mismatch("a binary64") }
        return Double(bitPattern: raw)
    }

    /// The bytes, pointing into the payload: copy them to keep them.
    public func bytes() throws(PayloadError) -> UnsafeRawBufferPointer {
        guard case .bytes(let raw) = value else { throw mismatch("length-delimited bytes") }
        return raw
    }

    /// UTF-8 text; invalid UTF-8 is an error, not replaced.
    public func string() throws(PayloadError) -> String {
        guard let text = try bytes().withMemoryRebound(to: UInt8.self, { String(validating: $0, as: UTF8.self) }) else {
            throw PayloadError("field \(number) is not valid UTF-8")
        }
        return text
    }

    public func timestamp() throws(PayloadError) -> Timestamp {
        Timestamp(microsecondsSinceEpoch: try signed())
    }

    /// A reader over a nested message.
    public func message() throws(PayloadError) -> PayloadReader {
        PayloadReader(try bytes())
    }

    private func mismatch(_ expected: String) -> PayloadError {
        PayloadError("field \(number) is not \(expected)")
    }
}
