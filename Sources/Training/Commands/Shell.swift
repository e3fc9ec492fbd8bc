/// Text as the commands that errors and notes suggest give it to a shell.
public enum Shell {
    /// The characters a shell takes as they are in a word.
    private static let plainCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./+:@%,")

    /// `text` as one word of a shell command: as it is when it is plain, else in double quotes (`"Upper A"`), with the
    /// characters that are special inside them escaped; one with a `!` in single quotes (`'Leg Day!!'`), as an
    /// interactive bash expands `!!` inside double quotes to the command before, and keeps a backslash before a `!`.
    public static func word(_ text: String) -> String {
        guard text.isEmpty || !text.allSatisfy(plainCharacters.contains) else { return text }
        if text.contains("!") { return "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }
        var quoted = "\""
        for character in text {
            if "\"\\$`".contains(character) { quoted.append("\\") }
            quoted.append(character)
        }
        return quoted + "\""
    }
}
