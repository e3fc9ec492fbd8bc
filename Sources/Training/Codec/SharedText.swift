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

    /// Texts by the FNV-1a hash of their UTF-8 bytes. Two texts with one hash share only the first one kept.
    private let texts = Mutex<[UInt64: String]>([:])

    /// The UTF-8 text in `bytes`, shared when it was seen before; nil when it is not valid UTF-8.
    func text(_ bytes: UnsafeRawBufferPointer) -> String? {
        bytes.withMemoryRebound(to: UInt8.self) { utf8 in
            guard utf8.count > Self.inlineLength else { return String(validating: utf8, as: UTF8.self) }
            let hash = Self.hash(utf8)
            if let kept = texts.withLock({ $0[hash] }), Self.equal(kept, utf8) { return kept }
            guard let text = String(validating: utf8, as: UTF8.self) else { return nil }
            texts.withLock { texts in
                if texts.count < Self.capacity, texts[hash] == nil { texts[hash] = text }
            }
            return text
        }
    }

    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return hash
    }

    private static func equal(_ text: String, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var text = text
        return text.withUTF8 { utf8 in
            utf8.count == bytes.count && memcmp(utf8.baseAddress!, bytes.baseAddress!, bytes.count) == 0
        }
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
