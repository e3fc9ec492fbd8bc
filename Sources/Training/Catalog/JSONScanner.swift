/// JSON that is not what the reader expected.
public struct JSONSyntaxError: Error {
    /// The byte offset where the reader stopped.
    public let offset: Int
    /// What it expected there.
    public let expected: String
}

/// Reads JSON from UTF-8 bytes one value at a time, so that a reader builds only the values it needs and skips the
/// rest.
public struct JSONScanner {
    private let bytes: [UInt8]
    private(set) var offset = 0

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Reads an array, calling `element` to read each of its elements.
    mutating func array(_ element: (inout JSONScanner) throws(JSONSyntaxError) -> Void) throws(JSONSyntaxError) {
        try expect("[")
        if try peek() == UInt8(ascii: "]") {
            offset += 1
            return
        }
        repeat {
            try element(&self)
        } while try separator(closing: "]")
    }

    /// Reads an object, calling `member` with each key to read its value.
    public mutating func object(
        _ member: (inout JSONScanner, String) throws(JSONSyntaxError) -> Void
    ) throws(JSONSyntaxError) {
        try expect("{")
        if try peek() == UInt8(ascii: "}") {
            offset += 1
            return
        }
        repeat {
            let key = try string()
            try expect(":")
            try member(&self, key)
        } while try separator(closing: "}")
    }

    /// Reads a string.
    mutating func string() throws(JSONSyntaxError) -> String {
        try expect("\"")
        let start = offset
        offset = nextSpecialByte(from: offset)
        guard offset < bytes.count else { throw failure("'\"'") }
        switch bytes[offset] {
        case UInt8(ascii: "\""):
            offset += 1
            return String(decoding: bytes[start..<offset - 1], as: UTF8.self)
        case UInt8(ascii: "\\"):
            return try escapedString(startingWith: bytes[start..<offset])
        default:
            throw failure("no control character in a string")
        }
    }

    /// A string, or nil for `null`.
    mutating func optionalString() throws(JSONSyntaxError) -> String? {
        guard try peek() == UInt8(ascii: "n") else { return try string() }
        try literal("null")
        return nil
    }

    /// An array of strings.
    mutating func strings() throws(JSONSyntaxError) -> [String] {
        var strings: [String] = []
        try array { (scanner: inout JSONScanner) throws(JSONSyntaxError) in strings.append(try scanner.string()) }
        return strings
    }

    /// Passes over a value of any kind.
    public mutating func skipValue() throws(JSONSyntaxError) {
        switch try peek() {
        case UInt8(ascii: "{"):
            try object { (scanner: inout JSONScanner, _) throws(JSONSyntaxError) in try scanner.skipValue() }
        case UInt8(ascii: "["):
            try array { (scanner: inout JSONScanner) throws(JSONSyntaxError) in try scanner.skipValue() }
        case UInt8(ascii: "\""):
            try skipString()
        case UInt8(ascii: "t"):
            try literal("true")
        case UInt8(ascii: "f"):
            try literal("false")
        case UInt8(ascii: "n"):
            try literal("null")
        default:
            let start = offset
            while offset < bytes.count, Self.numberBytes.contains(bytes[offset]) { offset += 1 }
            guard offset > start else { throw failure("a JSON value") }
        }
    }

    /// Passes over a string, checking it as `string()` does but without making it.
    private mutating func skipString() throws(JSONSyntaxError) {
        try expect("\"")
        while true {
            offset = nextSpecialByte(from: offset)
            guard offset < bytes.count else { throw failure("'\"'") }
            switch bytes[offset] {
            case UInt8(ascii: "\""):
                offset += 1
                return
            case UInt8(ascii: "\\"):
                offset += 1
                _ = try escapedScalar()
            default:
                throw failure("no control character in a string")
            }
        }
    }

    /// The offset of the first quote, backslash or control character at or after `start`, or the end: the bytes a
    /// string's scan stops at.
    private func nextSpecialByte(from start: Int) -> Int {
        bytes.withUnsafeBufferPointer { bytes in
            var offset = start
            while offset < bytes.count {
                let byte = bytes[offset]
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { return offset }
                offset += 1
            }
            return offset
        }
    }

    /// Checks that nothing but whitespace follows.
    public mutating func end() throws(JSONSyntaxError) {
        skipWhitespace()
        guard offset == bytes.count else { throw failure("the end of the JSON") }
    }

    private static let numberBytes = Set("0123456789+-.eE".utf8)

    private func failure(_ expected: String) -> JSONSyntaxError {
        JSONSyntaxError(offset: offset, expected: expected)
    }

    private mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x0A, 0x0D, 0x09: offset += 1
            default: return
            }
        }
    }

    /// The next byte that is not whitespace, left unread.
    private mutating func peek() throws(JSONSyntaxError) -> UInt8 {
        skipWhitespace()
        guard offset < bytes.count else { throw failure("more JSON") }
        return bytes[offset]
    }

    private mutating func expect(_ byte: Unicode.Scalar) throws(JSONSyntaxError) {
        guard try peek() == UInt8(ascii: byte) else { throw failure("'\(byte)'") }
        offset += 1
    }

    private mutating func literal(_ word: String) throws(JSONSyntaxError) {
        guard bytes[offset...].starts(with: word.utf8) else { throw failure(word) }
        offset += word.utf8.count
    }

    /// After a member or element: true if a comma follows, false if `closing` does.
    private mutating func separator(closing: Unicode.Scalar) throws(JSONSyntaxError) -> Bool {
        switch try peek() {
        case UInt8(ascii: ","):
            offset += 1
            return true
        case UInt8(ascii: closing):
            offset += 1
            return false
        default:
            throw failure("',' or '\(closing)'")
        }
    }

    /// The rest of a string from its first backslash, after `prefix`.
    private mutating func escapedString(startingWith prefix: ArraySlice<UInt8>) throws(JSONSyntaxError) -> String {
        var utf8 = Array(prefix)
        while offset < bytes.count {
            let byte = bytes[offset]
            offset += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                UTF8.encode(try escapedScalar()) { utf8.append($0) }
            case 0..<0x20:
                throw failure("no control character in a string")
            default:
                utf8.append(byte)
            }
        }
        throw failure("'\"'")
    }

    /// The character an escape stands for, its backslash read: `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`, or
    /// `\uXXXX`.
    private mutating func escapedScalar() throws(JSONSyntaxError) -> Unicode.Scalar {
        guard offset < bytes.count else { throw failure("'\"'") }
        let escape = bytes[offset]
        offset += 1
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return Unicode.Scalar(escape)
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"): return try unicodeEscape()
        default: throw failure("an escape sequence")
        }
    }

    /// The scalar of a `\uXXXX` escape whose `\u` is read, joining a surrogate pair.
    private mutating func unicodeEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
        let unit = try hexQuad()
        if (0xD800..<0xDC00).contains(unit) {
            guard bytes[offset...].starts(with: "\\u".utf8) else { throw failure("a low surrogate") }
            offset += 2
            let low = try hexQuad()
            guard (0xDC00..<0xE000).contains(low) else { throw failure("a low surrogate") }
            return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))!
        }
        guard let scalar = Unicode.Scalar(unit) else { throw failure("no lone low surrogate") }
        return scalar
    }

    private mutating func hexQuad() throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard offset < bytes.count, let digit = Character(Unicode.Scalar(bytes[offset])).hexDigitValue else {
                throw failure("four hexadecimal digits")
            }
            value = (value << 4) + UInt32(digit)
            offset += 1
        }
        return value
    }
}
