/// Reads delimiter-separated text as RFC 4180 describes it: a field in double quotes may hold the delimiter, line
/// breaks and doubled quotes; rows end with LF, CRLF or CR alone. Each row comes with the line it starts on, for messages.
struct CSVReader {
    private let bytes: [UInt8]
    private let delimiter: UInt8
    private var index: Int
    private var line = 1

    /// The most fields a row may have: more means the file is not an export.
    static let maximumFields = 64

    init(_ bytes: [UInt8], delimiter: UInt8) {
        self.bytes = bytes
        self.delimiter = delimiter
        // A UTF-8 byte order mark is not part of the first field.
        index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    }

    /// The delimiter of a header line: `;` when it has more semicolons than commas outside quotes, else `,`.
    static func delimiter(ofHeader bytes: some Collection<UInt8>) -> UInt8 {
        var quoted = false
        var commas = 0
        var semicolons = 0
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\""): quoted.toggle()
            case UInt8(ascii: ",") where !quoted: commas += 1
            case UInt8(ascii: ";") where !quoted: semicolons += 1
            case UInt8(ascii: "\n") where !quoted, UInt8(ascii: "\r") where !quoted:
                return semicolons > commas ? UInt8(ascii: ";") : UInt8(ascii: ",")
            default: break
            }
        }
        return semicolons > commas ? UInt8(ascii: ";") : UInt8(ascii: ",")
    }

    /// The next row, or nil at the end. Blank lines are passed over.
    mutating func next() throws(ImportError) -> (line: Int, fields: [String])? {
        while index < bytes.count {
            let start = line
            var fields: [String] = []
            var field: [UInt8] = []
            var quoted = false
            var wasQuoted = false
            func finish(_ field: inout [UInt8]) throws(ImportError) {
                guard let text = String(validating: field, as: UTF8.self) else {
                    throw ImportError(
                        .malformed, "line \(start): text that is not UTF-8",
                        remedy: "save the file as UTF-8 (as the apps export it), then import it")
                }
                fields.append(text)
                field.removeAll(keepingCapacity: true)
                guard fields.count <= Self.maximumFields else {
                    throw ImportError(
                        .malformed, "line \(start): more than \(Self.maximumFields) fields", remedy: Self.remedy)
                }
            }
            rowLoop: while index < bytes.count {
                let byte = bytes[index]
                index += 1
                if quoted {
                    if byte == UInt8(ascii: "\"") {
                        if index < bytes.count && bytes[index] == UInt8(ascii: "\"") {
                            field.append(byte)
                            index += 1
                        } else {
                            quoted = false
                        }
                    } else if byte == UInt8(ascii: "\r") && index < bytes.count && bytes[index] == UInt8(ascii: "\n") {
                        // A line break inside a field is one, however the file ends its lines.
                        continue
                    } else if byte == UInt8(ascii: "\r") {
                        line += 1
                        field.append(UInt8(ascii: "\n"))
                    } else {
                        if byte == UInt8(ascii: "\n") { line += 1 }
                        field.append(byte)
                    }
                    continue
                }
                switch byte {
                case UInt8(ascii: "\""):
                    // A quote opens a quoted field only at its start; elsewhere it is taken as it is.
                    if field.isEmpty && !wasQuoted {
                        quoted = true
                        wasQuoted = true
                    } else {
                        field.append(byte)
                    }
                case delimiter:
                    try finish(&field)
                    wasQuoted = false
                case UInt8(ascii: "\n"):
                    line += 1
                    break rowLoop
                case UInt8(ascii: "\r") where index < bytes.count && bytes[index] == UInt8(ascii: "\n"):
                    continue
                case UInt8(ascii: "\r"):
                    // A carriage return alone ends a line too, as old Mac files and some editors end them.
                    line += 1
                    break rowLoop
                default:
                    field.append(byte)
                }
            }
            if quoted {
                throw ImportError(
                    .malformed, "line \(start): a quoted field is not closed before the end of the file",
                    remedy: Self.remedy)
            }
            try finish(&field)
            // A blank line: nothing, or spaces and tabs alone.
            if fields.count == 1 && !wasQuoted && fields[0].allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
            return (start, fields)
        }
        return nil
    }

    static let remedy = "check that the file is an export of Strong, Hevy or FitNotes, unchanged"
}
