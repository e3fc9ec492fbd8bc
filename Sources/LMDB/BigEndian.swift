// Big-endian integers in keys and values, so that byte order matches numeric order.

/// Big-endian encoding of integer keys, so that byte order matches numeric order.
public enum BigEndianKey {
    @inlinable
    public static func encode(_ value: UInt64) -> [UInt8] {
        withUnsafeBytes(of: value.bigEndian) { Array($0) }
    }

    @inlinable
    public static func decode(_ bytes: UnsafeRawBufferPointer) -> UInt64? {
        guard bytes.count == 8 else { return nil }
        return UInt64(bigEndian: bytes.loadUnaligned(as: UInt64.self))
    }
}

extension [UInt8] {
    /// Appends `value`'s bytes, most significant first.
    @inlinable
    public mutating func appendBigEndian<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
    }
}

extension UnsafeRawBufferPointer {
    /// The big-endian integer stored at `offset` (which need not be aligned).
    @inlinable
    public func bigEndian<T: FixedWidthInteger>(_: T.Type, at offset: Int) -> T {
        T(bigEndian: loadUnaligned(fromByteOffset: offset, as: T.self))
    }
}
