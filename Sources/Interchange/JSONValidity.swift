import Foundation

/// Whether bytes are one JSON value as RFC 8259 defines it, which every JSON reader reads: Foundation's parser on
/// Linux also takes trailing commas (`[1,2,]`, `{"a":1,}`), which Python's `json`, `jq` and browsers refuse.
public enum JSONValidity {
    /// True when `bytes` hold one JSON value, with white space around it or none, that Foundation's parser also reads
    /// (it refuses numbers past a binary64, `1E400`, and lone surrogates, `"\uD800"`, which the grammar allows).
    public static func isValid<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        var grammar = Grammar(Array(bytes))
        return grammar.acceptsOneValue()
            && (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) != nil
    }

    /// The most objects and arrays Foundation's parser reads inside one another (`[[1]]` is two).
    public static let maximumDepth = 512

    /// Whether `bytes` hold one JSON value by the grammar, nested deeper than ``maximumDepth``: one that
    /// ``isValid(_:)`` refuses for its depth alone.
    public static func isNestedTooDeeply<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        var grammar = Grammar(Array(bytes))
        return grammar.acceptsOneValue() && grammar.deepest > maximumDepth
    }

    /// RFC 8259's grammar, read without recursion, so that a value nested deeply cannot exhaust the stack.
    private struct Grammar {
        let bytes: [UInt8]
        var index = 0
        /// The containers open around the present point: `{` or `[`.
        var open: [UInt8] = []
        /// The most containers read inside one another so far, an empty one counted.
        var deepest = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipWhiteSpace() {
            while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard current == byte else { return false }
            index += 1
            return true
        }

        mutating func acceptsOneValue() -> Bool {
            while true {
                skipWhiteSpace()
                // A value begins here.
                switch current {
                case UInt8(ascii: "{"):
                    index += 1
                    deepest = max(deepest, open.count + 1)
                    skipWhiteSpace()
                    if take(UInt8(ascii: "}")) { break }
                    open.append(UInt8(ascii: "{"))
                    guard acceptsMemberName() else { return false }
                    continue
                case UInt8(ascii: "["):
                    index += 1
                    deepest = max(deepest, open.count + 1)
                    skipWhiteSpace()
                    if take(UInt8(ascii: "]")) { break }
                    open.append(UInt8(ascii: "["))
                    continue
                case UInt8(ascii: "\""):
                    guard acceptsString() else { return false }
                case UInt8(ascii: "t"):
                    guard takes("true") else { return false }
                case UInt8(ascii: "f"):
                    guard takes("false") else { return false }
                case UInt8(ascii: "n"):
                    guard takes("null") else { return false }
                default:
                    guard acceptsNumber() else { return false }
                }
                // After a value: the containers it ends, then a comma before the next value, or the end.
                while true {
                    skipWhiteSpace()
                    guard let container = open.last else { return current == nil }
                    if take(UInt8(ascii: ",")) {
                        if container == UInt8(ascii: "{") {
                            skipWhiteSpace()
                            guard acceptsMemberName() else { return false }
                        }
                        break
                    }
                    guard take(container == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")) else {
                        return false
                    }
                    open.removeLast()
                }
            }
        }

        /// A member's name and its colon.
        mutating func acceptsMemberName() -> Bool {
            guard current == UInt8(ascii: "\""), acceptsString() else { return false }
            skipWhiteSpace()
            return take(UInt8(ascii: ":"))
        }

        mutating func takes(_ literal: String) -> Bool {
            for byte in literal.utf8 { guard take(byte) else { return false } }
            return true
        }

        mutating func acceptsString() -> Bool {
            index += 1  // the opening quote
            while let byte = current {
                index += 1
                switch byte {
                case UInt8(ascii: "\""): return true
                case UInt8(ascii: "\\"):
                    guard let escaped = current else { return false }
                    index += 1
                    if escaped == UInt8(ascii: "u") {
                        for _ in 0..<4 {
                            guard let digit = current, digit.isHexadecimalDigit else { return false }
                            index += 1
                        }
                    } else if !#"\"/bfnrt"#.utf8.contains(escaped) {
                        return false
                    }
                case ..<0x20: return false
                default: continue
                }
            }
            return false
        }

        mutating func acceptsNumber() -> Bool {
            _ = take(UInt8(ascii: "-"))
            if !take(UInt8(ascii: "0")) {
                guard let first = current, (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(first) else { return false }
                skipDigits()
            }
            if take(UInt8(ascii: ".")) {
                guard current?.isDigit == true else { return false }
                skipDigits()
            }
            if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
                if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
                guard current?.isDigit == true else { return false }
                skipDigits()
            }
            return true
        }

        mutating func skipDigits() {
            while current?.isDigit == true { index += 1 }
        }
    }
}

extension UInt8 {
    fileprivate var isDigit: Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) }
    fileprivate var isHexadecimalDigit: Bool {
        isDigit || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}
