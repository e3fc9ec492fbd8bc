import EventJournal
import Foundation
import Training

/// A JSON value written with its keys in the order given, for stable, documented output.
public enum JSON: Sendable {
    case string(String)
    case integer(Int64)
    case unsigned(UInt64)
    case bool(Bool)
    case null
    case array([JSON])
    case object([(String, JSON)])
    /// Text that is already valid JSON (checked when it was stored), written as it is.
    case verbatim(String)

    public var rendered: String {
        var output: [UInt8] = []
        render(into: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends the value's UTF-8 text to `output`: bytes, not a string grown character by character, which made an
    /// export of a million events take tens of seconds.
    private func render(into output: inout [UInt8]) {
        switch self {
        case .string(let value): JSON.quote(value, into: &output)
        case .integer(let value): output += String(value).utf8
        case .unsigned(let value): output += String(value).utf8
        case .bool(let value): output += (value ? "true" : "false").utf8
        case .null: output += "null".utf8
        case .verbatim(let text): output += text.utf8
        case .array(let values):
            output.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                value.render(into: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                JSON.quote(key, into: &output)
                output.append(UInt8(ascii: ":"))
                value.render(into: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// `string` as a JSON string: quotes, backslashes and control characters escaped, every other byte as it is.
    private static func quote(_ string: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        let hexDigits = Array("0123456789abcdef".utf8)
        var string = string
        string.withUTF8 { bytes in
            // Runs of bytes that need no escape are copied whole.
            var runStart = 0
            for (index, byte) in bytes.enumerated() where byte < 0x20 || byte == 0x22 || byte == 0x5C {
                output += bytes[runStart..<index]
                runStart = index + 1
                switch byte {
                case 0x22: output += #"\""#.utf8
                case 0x5C: output += #"\\"#.utf8
                case 0x0A: output += #"\n"#.utf8
                case 0x0D: output += #"\r"#.utf8
                case 0x09: output += #"\t"#.utf8
                default: output += #"\u00"#.utf8 + [hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]]
                }
            }
            output += bytes[runStart...]
        }
        output.append(UInt8(ascii: "\""))
    }
}

extension JSON {
    /// A value `JSONSerialization` parsed, with every object's members sorted by key: two values give the same
    /// `rendered` bytes when they hold the same data, whatever the order and spacing of the text they were parsed from.
    /// A whole number below 9e15 is one, written with a fraction or not (`5.0` is `5`); `-0` stays apart from `0`, a
    /// number with more digits than a binary64 holds keeps them all, and `true` stays apart from `1`. Compare the bytes
    /// (`rendered.utf8`): strings that differ only in how their accents are composed are equal as Swift strings. Nil
    /// for a value no parse gives.
    init?(canonicalizing value: Any) {
        // Objects and arrays first: casting one of them to a string or a number first bridges it to Foundation's
        // class, a copy of the whole value.
        if let object = value as? [String: Any] {
            var members: [(String, JSON)] = []
            members.reserveCapacity(object.count)
            for (key, member) in object {
                guard let canonical = JSON(canonicalizing: member) else { return nil }
                members.append((key, canonical))
            }
            self = .object(members.sorted { $0.0 < $1.0 })
        } else if let array = value as? [Any] {
            var elements: [JSON] = []
            elements.reserveCapacity(array.count)
            for element in array {
                guard let canonical = JSON(canonicalizing: element) else { return nil }
                elements.append(canonical)
            }
            self = .array(elements)
        } else if let text = value as? String {
            self = .string(text)
        } else if let decimal = value as? NSDecimalNumber {
            self = .verbatim(decimal.stringValue)  // the parse's form of a number a binary64 would round
        } else if let number = value as? NSNumber {
            switch String(cString: number.objCType) {
            case "c": self = .bool(number.boolValue)  // Foundation's parse gives its booleans this type alone
            case "d", "f":
                let double = number.doubleValue
                guard double.isFinite else { return nil }
                self =
                    double == double.rounded() && abs(double) < 9e15 && !(double == 0 && double.sign == .minus)
                    ? .integer(Int64(double)) : .verbatim(String(double))
            case "Q": self = .unsigned(number.uint64Value)
            default: self = .integer(number.int64Value)
            }
        } else if value is NSNull {
            self = .null
        } else {
            return nil
        }
    }
}

extension [UInt8] {
    /// The bytes as lowercase hexadecimal digits.
    public var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(count * 2)
        for byte in self {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

extension EventRecord {
    /// The record as documented for `liftledger events --json` (one object per line).
    public var json: JSON { json(keepingBytes: false) }

    /// The record as `events --json` shows it; with `keepingBytes`, the payload's exact bytes are also given in
    /// `payloadBase64` when `payload` shows them as JSON (an export must keep every byte). `knownHash` is the record's
    /// chain hash when the caller has worked it out already.
    public func json(keepingBytes: Bool, knownHash: [UInt8]? = nil) -> JSON {
        let metadata = metadata
        var members: [(String, JSON)] = [
            ("position", .unsigned(position)),
            ("streamId", .string(streamID)),
            ("streamVersion", .unsigned(streamVersion)),
            ("eventId", .string(id.uuidString.lowercased())),
            ("type", .string(type)),
            ("schemaVersion", .unsigned(UInt64(schemaVersion))),
            ("recordedAt", .string(recordedAt.description)),
            ("occurredAt", .string(occurredAt.description)),
            (
                "metadata",
                .object([
                    ("correlationId", .string(metadata.correlationID)),
                    ("causationId", .string(metadata.causationID)),
                    ("source", .string(metadata.source)),
                ])
            ),
            ("encoding", .string(encoding.name)),
        ]
        if encoding == .json, let text = Self.oneLineJSON(payload) {
            members.append(("payload", .verbatim(text)))
            if keepingBytes { members.append(("payloadBase64", .string(Data(payload).base64EncodedString()))) }
        } else {
            members.append(("payloadBase64", .string(Data(payload).base64EncodedString())))
        }
        if let data = decodedTrainingData { members.append(("data", .verbatim(data))) }
        members.append(("hash", .string((knownHash ?? hash).hexString)))
        return .object(members)
    }
}

extension EventRecord {
    /// A training event's payload decoded, as one line of JSON with sorted keys; nil for other records and for
    /// payloads that do not decode (`events` still prints those, as bytes).
    public var decodedTrainingData: String? {
        guard let event = try? TrainingEvent.decode(self) else { return nil }
        return (try? Self.payloadEncoder.encode(event.payload)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// One encoder for every record's payload, not one each: an export encodes a payload per record. (Foundation's
    /// encoder may be used from several threads at once.)
    private static let payloadEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// The payload's text when it is valid JSON on one line (as `liftledger append` stores it); nil otherwise, for
    /// example for a payload another writer stored with line breaks.
    static func oneLineJSON(_ payload: ArraySlice<UInt8>) -> String? {
        guard !payload.contains(0x0A), !payload.contains(0x0D),
            JSONValidity.isValid(payload)
        else { return nil }
        return String(validating: payload, as: UTF8.self)
    }
}

extension PayloadEncoding {
    /// `opaque`, `json` or `binary`, as `events --json` writes it.
    public var name: String {
        switch self {
        case .opaque: "opaque"
        case .json: "json"
        case .binary: "binary"
        }
    }
}
