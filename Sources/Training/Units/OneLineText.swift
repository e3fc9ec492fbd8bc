extension StringProtocol {
    /// Whether the text holds a line break, a tab or another control character (Unicode's general category Cc): such
    /// a name would print over two lines, or out of its column.
    public var holdsControlCharacters: Bool {
        unicodeScalars.contains { $0.properties.generalCategory == .control }
    }
}

extension String {
    /// The text with each run of control characters (line breaks, tabs) made one space: a note, which may hold them,
    /// as a line of text output shows it (the JSON gives it as it is).
    public var onOneLine: String {
        guard holdsControlCharacters else { return self }
        var result = ""
        var inRun = false
        for scalar in unicodeScalars {
            if scalar.properties.generalCategory == .control {
                if !inRun { result.unicodeScalars.append(" ") }
                inRun = true
            } else {
                result.unicodeScalars.append(scalar)
                inRun = false
            }
        }
        return result
    }
}
