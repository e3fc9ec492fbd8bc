import Foundation
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
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/bash")
        shell.arguments = ["--norc", "--noprofile", "-i"]
        let input = Pipe()
        let output = Pipe()
        shell.standardInput = input
        shell.standardOutput = output
        shell.standardError = FileHandle.nullDevice
        try shell.run()
        input.fileHandleForWriting.write(Data("set -H\ntrue earlier\nprintf %s \(word)\nexit\n".utf8))
        try input.fileHandleForWriting.close()
        let read = output.fileHandleForReading.readDataToEndOfFile()
        shell.waitUntilExit()
        #expect(String(decoding: read, as: UTF8.self) == text)
    }
}
