/// Text as the commands that errors and notes suggest give it to a shell.
public enum Shell {
    /// The characters a shell takes as they are in a word.
    private static let plainCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./+:@%,")

    /// `text` as one word of a shell command: as it is when it is plain, else in double quotes (`"Upper A"`), with the
    /// characters that are special inside them escaped.
    public static func word(_ text: String) -> String {
        guard text.isEmpty || !text.allSatisfy(plainCharacters.contains) else { return text }
        var quoted = "\""
        for character in text {
            if "\"\\$`".contains(character) { quoted.append("\\") }
            quoted.append(character)
        }
        return quoted + "\""
    }
}
