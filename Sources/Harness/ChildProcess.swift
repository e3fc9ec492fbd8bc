import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A child process started with `posix_spawn`, its standard output on a pipe read in complete lines.
final class ChildProcess {
    let pid: pid_t
    private let output: Int32
    private var pending: [UInt8] = []
    private(set) var lines: [String] = []

    init(_ arguments: [String]) throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw HarnessError("pipe failed: errno \(errno)") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        var pid: pid_t = 0
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let rc = posix_spawn(&pid, arguments[0], &actions, nil, argv, environ)
        close(fds[1])
        guard rc == 0 else {
            close(fds[0])
            throw HarnessError("posix_spawn \(arguments[0]) failed: \(rc)")
        }
        self.pid = pid
        self.output = fds[0]
        _ = fcntl(output, F_SETFL, fcntl(output, F_GETFL) | O_NONBLOCK)
    }

    deinit { close(output) }

    /// Reads whatever output arrives until `deadline`, or until the pipe closes.
    func read(until deadline: ContinuousClock.Instant) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while ContinuousClock.now < deadline {
            let remaining = ContinuousClock.now.duration(to: deadline)
            let milliseconds = Int32(
                max(1, remaining.components.seconds * 1_000 + remaining.components.attoseconds / 1_000_000_000_000_000))
            var descriptor = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { continue }
            let count = Glibc.read(output, &buffer, buffer.count)
            if count < 0 && (errno == EAGAIN || errno == EINTR) { continue }
            guard count > 0 else { return }
            take(buffer[0..<count])
        }
    }

    /// Sends `signal`, waits for the process to end, and collects what it had written. Returns the wait status.
    @discardableResult
    func kill(_ signal: Int32) -> Int32 {
        Glibc.kill(pid, signal)
        return wait()
    }

    /// Waits for the process to end, reading its output meanwhile. Returns the wait status.
    @discardableResult
    func wait() -> Int32 {
        var status: Int32?
        while status == nil { status = wait(until: .now + .seconds(60)) }
        return status!
    }

    /// Waits for the process to end until `deadline`, reading its output meanwhile. Returns the wait status, or nil
    /// when the process is still running at the deadline.
    func wait(until deadline: ContinuousClock.Instant) -> Int32? {
        var status: Int32 = 0
        while true {
            read(until: .now + .milliseconds(20))
            let rc = waitpid(pid, &status, WNOHANG)
            if rc == pid { break }
            if rc < 0 && errno != EINTR { break }
            if ContinuousClock.now >= deadline { return nil }
        }
        read(until: .now + .milliseconds(5))
        return status
    }

    private func take(_ bytes: ArraySlice<UInt8>) {
        pending.append(contentsOf: bytes)
        while let newline = pending.firstIndex(of: 0x0A) {
            lines.append(String(decoding: pending[..<newline], as: UTF8.self))
            pending.removeSubrange(...newline)
        }
    }
}

struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// This executable's own path, for spawning its children.
func ownExecutablePath() -> String {
    var buffer = [CChar](repeating: 0, count: 4_096)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard count > 0 else { return CommandLine.arguments[0] }
    return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// Writes one line to standard output with a single write(2), so that a reader on a pipe sees whole lines even
/// when this process is killed (writes up to PIPE_BUF bytes to a pipe are atomic).
func writeLine(_ line: String) {
    var bytes = Array((line + "\n").utf8)
    bytes.withUnsafeMutableBytes { buffer in
        var offset = 0
        while offset < buffer.count {
            let written = write(STDOUT_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
    }
}
