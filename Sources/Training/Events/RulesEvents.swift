/// A rule of the analytics changed (stream `rules`): from this event on, `key` has `value` (docs/RULES.md).
///
/// Values are kept as text, as the user gave them once checked, so that a rule this build does not know, written by
/// a newer one, is kept and passed over.
public struct RulesChanged: TrainingEventPayload {
    public static let typeName = "RulesChanged"

    public var key: String
    public var value: String

    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }

    public func write(to writer: inout PayloadWriter) {
        writer.string(1, key)
        writer.string(2, value)
    }

    public init(reading reader: inout PayloadReader) throws(PayloadError) {
        var key: String?
        var value: String?
        while let field = try reader.next() {
            switch field.number {
            case 1: key = try field.string()
            case 2: value = try field.string()
            default: continue
            }
        }
        guard let key, let value else { throw .missing("key or value", in: Self.typeName) }
        self.init(key: key, value: value)
    }
}
