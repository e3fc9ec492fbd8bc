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
        var output = ""
        render(into: &output)
        return output
    }

    private func render(into output: inout String) {
        switch self {
        case .string(let value): JSON.quote(value, into: &output)
        case .integer(let value): output += String(value)
        case .unsigned(let value): output += String(value)
        case .bool(let value): output += value ? "true" : "false"
        case .null: output += "null"
        case .verbatim(let text): output += text
        case .array(let values):
            output += "["
            for (index, value) in values.enumerated() {
                if index > 0 { output += "," }
                value.render(into: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { output += "," }
                JSON.quote(key, into: &output)
                output += ":"
                value.render(into: &output)
            }
            output += "}"
        }
    }

    private static func quote(_ string: String, into output: inout String) {
        output += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
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
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(event.payload)).map { String(decoding: $0, as: UTF8.self) }
    }

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
