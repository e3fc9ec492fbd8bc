import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Text that recurs across many payloads, such as exercise ids and names, decoded once per process and shared after.
///
/// A replay decodes the same few hundred exercise ids hundreds of thousands of times. Shared, each is allocated and
/// validated once, and a fold that compares two of them finds them equal at once, by their storage.
final class SharedText: Sendable {
    static let shared = SharedText()

    /// At most this many texts are kept; others are decoded as usual, so that memory stays bounded.
    static let capacity = 16_384
    /// Text this short is stored inside the `String` itself: nothing to share.
    private static let inlineLength = 15

    /// The texts kept, by a hash of their UTF-8 bytes: open addressing in a table twice the capacity, probed from the
    /// hash's slot on.
    private let table = Mutex(Table())

    private struct Table {
        var slots = [(hash: UInt64, text: String)?](repeating: nil, count: 2 * SharedText.capacity)
        var count = 0
    }

    /// The UTF-8 text in `bytes`, shared when it was seen before; nil when it is not valid UTF-8.
    func text(_ bytes: UnsafeRawBufferPointer) -> String? {
        guard bytes.count > Self.inlineLength else { return Self.string(bytes) }
        let hash = Self.hash(bytes)
        let kept = table.withLock { table -> String? in
            var slot = Int(truncatingIfNeeded: hash) & (table.slots.count - 1)
            while let entry = table.slots[slot] {
                if entry.hash == hash, Self.equal(entry.text, bytes) { return entry.text }
                slot = (slot + 1) & (table.slots.count - 1)
            }
            return nil
        }
        if let kept { return kept }
        guard let text = Self.string(bytes) else { return nil }
        table.withLock { table in
            guard table.count < Self.capacity else { return }
            var slot = Int(truncatingIfNeeded: hash) & (table.slots.count - 1)
            while let entry = table.slots[slot] {
                if entry.hash == hash, Self.equal(entry.text, bytes) { return }
                slot = (slot + 1) & (table.slots.count - 1)
            }
            table.slots[slot] = (hash, text)
            table.count += 1
        }
        return text
    }

    /// `bytes` as a string, checked as UTF-8 (plain ASCII, which nearly all text is, by the quickest check).
    private static func string(_ bytes: UnsafeRawBufferPointer) -> String? {
        bytes.withMemoryRebound(to: UInt8.self) { utf8 in
            utf8.allSatisfy { $0 < 0x80 }
                ? String(decoding: utf8, as: UTF8.self) : String(validating: utf8, as: UTF8.self)
        }
    }

    /// A hash of `bytes`, eight at a time.
    private static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash = UInt64(bytes.count) &* 0x9e37_79b9_7f4a_7c15
        var offset = 0
        while offset + 8 <= bytes.count {
            hash = (hash ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0xff51_afd7_ed55_8ccd
            hash ^= hash >> 29
            offset += 8
        }
        if offset < bytes.count {
            // The last eight bytes, overlapping those hashed already: the length is hashed, so no two texts mix up.
            let last = bytes.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self)
            hash = (hash ^ last) &* 0xc4ce_b9fe_1a85_ec53
            hash ^= hash >> 29
        }
        return hash
    }

    /// Whether `text` holds `bytes`. A text kept is native, so its UTF-8 is read where it lies, without a copy.
    private static func equal(_ text: String, _ bytes: UnsafeRawBufferPointer) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { utf8 in
            utf8.count == bytes.count && memcmp(utf8.baseAddress!, bytes.baseAddress!, bytes.count) == 0
        } ?? text.utf8.elementsEqual(bytes)
    }
}

extension Field {
    /// UTF-8 text that recurs across payloads (an exercise's id or name), shared with earlier payloads that held the
    /// same; invalid UTF-8 is an error, as in ``string()``.
    func sharedString() throws(PayloadError) -> String {
        guard let text = SharedText.shared.text(try bytes()) else {
            throw PayloadError("field \(number) is not valid UTF-8")
        }
        return text
    }
}
