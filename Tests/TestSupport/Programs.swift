import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What a finished program printed, and how it ended.
public struct ProgramResult: Sendable {
    /// The exit status, or the signal's number when a signal ended the program (see `signal`).
    public let status: Int32
    /// The signal that ended the program, when one did.
    public let signal: Int32?
    public let standardOutput: String
    public let standardError: String

    /// Standard output split into lines, without the empty last one.
    public var lines: [String] { standardOutput.split(separator: "\n").map(String.init) }
}

/// The programs this package builds, found beside the test bundle (`swift build` puts them in the same directory).
public enum BuiltProgram {
    public static var directory: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
    }

    public static var liftledger: String { directory + "/liftledger" }
    public static var harness: String { directory + "/liftledger-harness" }
}

/// The repository's root directory.
public let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path

/// Runs `executable` with `arguments` to completion and returns what it printed. A program still running after
/// `timeout` is killed (and its status says so).
@discardableResult
public func run(
    _ executable: String, _ arguments: [String], environment: [String: String] = [:], timeout: Duration = .seconds(120)
) throws -> ProgramResult {
    try ProgramHandle(executable, arguments, environment: environment).wait(timeout: timeout)
}

/// A program started in the background; `wait` collects what it printed.
public final class ProgramHandle {
    private let process = Process()
    private let standardOutput: PipeReader
    private let standardError: PipeReader

    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Both pipes are read to the end on threads of their own, so that the program cannot block on a full pipe.
        standardOutput = PipeReader(output)
        standardError = PipeReader(error)
    }

    /// The program's process id, for signals.
    public var processIdentifier: Int32 { process.processIdentifier }

    /// Waits for the program to end, killing it after `timeout`.
    public func wait(timeout: Duration = .seconds(120)) -> ProgramResult {
        let process = process
        let (seconds, attoseconds) = timeout.components
        let killer = DispatchWorkItem { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        DispatchQueue.global().asyncAfter(
            deadline: .now() + Double(seconds) + Double(attoseconds) / 1e18, execute: killer)
        let output = standardOutput.finish()
        let error = standardError.finish()
        process.waitUntilExit()
        killer.cancel()
        return ProgramResult(
            status: process.terminationStatus,
            signal: process.terminationReason == .uncaughtSignal ? process.terminationStatus : nil,
            standardOutput: String(decoding: output, as: UTF8.self),
            standardError: String(decoding: error, as: UTF8.self))
    }
}

/// Reads a pipe to its end on a thread of its own.
///
/// `@unchecked Sendable`: `data` is written by the reading thread only, and read by `finish` only after the
/// semaphore says that thread is done.
private final class PipeReader: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ pipe: Pipe) {
        Thread.detachNewThread { [self] in
            data = (try? pipe.fileHandleForReading.readToEnd()) ?? Data()
            // Closed now, not whenever the pipe is released: the test process runs thousands of programs, and with
            // some two thousand descriptors open, Foundation's `Process.run` overran a buffer of them (SIGSEGV).
            try? pipe.fileHandleForReading.close()
            done.signal()
        }
    }

    func finish() -> Data {
        done.wait()
        return data
    }
}

/// Runs the liftledger CLI against `journal`.
@discardableResult
public func liftledger(_ arguments: [String], journal: String? = nil) throws -> ProgramResult {
    try run(BuiltProgram.liftledger, arguments + (journal.map { ["--journal", $0] } ?? []))
}
