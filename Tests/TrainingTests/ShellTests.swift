import Foundation
import TestSupport
import Testing

@testable import Training

/// The words the suggested commands give a shell, as pasted into one: each read back by an interactive bash (which
/// expands `!!` to the command before, in double quotes too) as the text it stands for, and, by hand, quoted as the
/// doc comment of ``Shell/word(_:)`` says.
struct ShellTests {
    @Test(arguments: [
        ("Legs", "Legs"), ("Upper A", #""Upper A""#), (#"O'Brien "day""#, #""O'Brien \"day\"""#),
        ("$HOME `x` \\", #""\$HOME \`x\` \\""#), ("Leg Day!!", "'Leg Day!!'"), ("It's go!", #"'It'\''s go!'"#),
        ("", #""""#),
    ])
    func aWordReadsBackAsItsText(text: String, expected: String) throws {
        let word = Shell.word(text)
        #expect(word == expected)
        // Typed in, as a user pastes: history expansion on, and a command before for `!!` to stand for.
        let typed = try run(
            "/bin/sh",
            [
                "-c", #"printf '%s\n' "$@" | /bin/bash --norc --noprofile -i 2>/dev/null"#, "sh", "set -H",
                "true earlier", "printf %s \(word)", "exit",
            ])
        #expect(typed.standardOutput == text)
    }
}
