import Foundation
import Testing

@testable import Training

/// The words the suggested commands give a shell: each read back by `/bin/sh` as the text it stands for, and, by hand,
/// quoted as the doc comment of ``Shell/word(_:)`` says.
struct ShellTests {
    @Test(arguments: [
        ("Legs", "Legs"), ("Upper A", #""Upper A""#), (#"O'Brien "day""#, #""O'Brien \"day\"""#),
        ("$HOME `x` \\", #""\$HOME \`x\` \\""#), ("Leg Day!!", "'Leg Day!!'"), ("It's go!", #"'It'\''s go!'"#),
        ("", #""""#),
    ])
    func aWordReadsBackAsItsText(text: String, expected: String) throws {
        let word = Shell.word(text)
        #expect(word == expected)
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", "printf %s " + word]
        let output = Pipe()
        shell.standardOutput = output
        try shell.run()
        let read = output.fileHandleForReading.readDataToEndOfFile()
        shell.waitUntilExit()
        #expect(String(decoding: read, as: UTF8.self) == text)
    }
}
