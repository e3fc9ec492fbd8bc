import EventJournal
import LMDB

/// Builds read-model keys whose byte order is the order the queries need: text ends with a 0 byte (so that a
/// shorter id never sorts inside a longer one's range), and signed numbers are stored big-endian with the sign bit
/// flipped, so that negative numbers sort first (docs/FORMAT.md, "Read models").
struct Key {
    private(set) var bytes: [UInt8] = []

    /// An empty key with room for most (a few ids and instants), so that building it does not regrow its buffer.
    init() { bytes.reserveCapacity(64) }

    // Each builder consumes the key it extends, so that a chain of them appends to one buffer rather than copying it
    // at each step.

    /// `text` and a 0 byte.
    consuming func text(_ text: String) -> Key {
        bytes.append(contentsOf: text.utf8)
        bytes.append(0)
        return self
    }

    consuming func instant(_ time: Timestamp) -> Key { signed(time.microsecondsSinceEpoch) }

    consuming func signed(_ value: Int64) -> Key {
        bytes.appendBigEndian(UInt64(bitPattern: value) ^ (1 << 63))
        return self
    }

    consuming func signed(_ value: Int32) -> Key {
        bytes.appendBigEndian(UInt32(bitPattern: value) ^ (1 << 31))
        return self
    }

    consuming func unsigned(_ value: UInt32) -> Key {
        bytes.appendBigEndian(value)
        return self
    }

    consuming func unsigned(_ value: UInt64) -> Key {
        bytes.appendBigEndian(value)
        return self
    }

    consuming func byte(_ value: UInt8) -> Key {
        bytes.append(value)
        return self
    }

    /// Reads keys built this way, field by field, from the start.
    struct Reader {
        private let bytes: UnsafeRawBufferPointer
        private var offset = 0

        init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        mutating func text() -> String {
            let end = bytes[offset...].firstIndex(of: 0) ?? bytes.count
            defer { offset = min(end + 1, bytes.count) }
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<end]), as: UTF8.self)
        }

        mutating func signed64() -> Int64 {
            defer { offset += 8 }
            return Int64(bitPattern: bytes.bigEndian(UInt64.self, at: offset) ^ (1 << 63))
        }

        mutating func signed32() -> Int32 {
            defer { offset += 4 }
            return Int32(bitPattern: bytes.bigEndian(UInt32.self, at: offset) ^ (1 << 31))
        }

        mutating func instant() -> Timestamp { Timestamp(microsecondsSinceEpoch: signed64()) }
    }
}
