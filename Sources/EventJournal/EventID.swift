import Foundation

extension UUID {
    /// A time-ordered UUID (version 7, RFC 9562): 48 bits of Unix milliseconds, 12 bits of the sub-millisecond
    /// fraction (the RFC's method 3), then 62 random bits. Ids made close in time sort close together, which keeps
    /// inserts into the `event_ids` index local.
    public static func timeOrdered(at time: Timestamp = .now()) -> UUID {
        let microseconds = UInt64(max(0, time.microsecondsSinceEpoch))
        let milliseconds = microseconds / 1_000
        let fraction = (microseconds % 1_000) * 4_096 / 1_000
        var generator = SystemRandomNumberGenerator()
        let random: UInt64 = generator.next()
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: milliseconds >> (40 - 8 * index)) }
        bytes[6] = 0x70 | UInt8(truncatingIfNeeded: fraction >> 8)
        bytes[7] = UInt8(truncatingIfNeeded: fraction)
        bytes[8] = 0x80 | UInt8(truncatingIfNeeded: random >> 58)
        for index in 9..<16 { bytes[index] = UInt8(truncatingIfNeeded: random >> (8 * (15 - index))) }
        return UUID(bytes: bytes)
    }

    init(bytes: [UInt8]) {
        precondition(bytes.count == 16)
        self = UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }

    var bytes: [UInt8] { withUnsafeBytes(of: uuid) { Array($0) } }
}
