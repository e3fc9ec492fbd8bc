extension StringProtocol {
    /// Whether the text holds a line break, a tab or another control character (Unicode's general category Cc): such
    /// a name would print over two lines, or out of its column.
    public var holdsControlCharacters: Bool {
        unicodeScalars.contains { $0.properties.generalCategory == .control }
    }
}
