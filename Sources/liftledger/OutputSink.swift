import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where an export goes: standard output, written in blocks; or a file, personal data, written beside it (mode 0600)
/// and renamed into place when complete, so that a failed export leaves no partial file and an earlier export stays as
/// it was. A link to a file is followed, and the file it names replaced; a path that is no regular file (a pipe, a
/// terminal) or a descriptor's alias (`/dev/stdout`) is written through, as it is. The journal's own files are refused.
final class OutputSink {
    private let handle: FileHandle
    /// How the output reaches its path.
    private let target: Target
    private var finished = false
    private var buffer: [UInt8] = []
    /// Whether the output reaches a terminal, where names' and notes' control characters would act (see
    /// ``Terminal/inert(_:)``).
    private lazy var writesToATerminal = isatty(handle.fileDescriptor) == 1

    private enum Target {
        case standardOutput
        /// The file being written and the path it is renamed to.
        case file(partial: String, final: String)
        /// A pipe, a device or what a descriptor's alias names, written as it is.
        case stream
    }

    /// Output to `path`, or standard output; refused when `path` names one of the files `spared` (the journal's own).
    init(path: String?, sparing spared: [String] = []) throws {
        guard let path else {
            handle = FileHandle.standardOutput
            target = .standardOutput
            return
        }
        let chain = try Self.links(from: path)
        var status = stat()
        let exists = stat(path, &status) == 0
        var other = stat()
        if exists,
            spared.contains(where: {
                stat($0, &other) == 0 && other.st_dev == status.st_dev && other.st_ino == status.st_ino
            })
        {
            throw CLIError(
                message: "\(path) is the journal's own file", remedy: "give the path of another file to export to")
        }
        if exists, status.st_mode & S_IFMT == S_IFDIR {
            throw CLIError(
                message: "\(path) is a directory", remedy: "give the path of a file to write, in it or elsewhere")
        }
        // A regular file, or a link to one, is replaced where it is; anything else (a pipe, a terminal), and
        // whatever a descriptor's alias names (`/dev/stdout` is the shell's redirection, to a file or not, perhaps
        // one appended to or deleted), is written through.
        let isStream = (exists && status.st_mode & S_IFMT != S_IFREG) || chain.contains(where: Self.isDescriptorAlias)
        guard isStream else {
            (handle, target) = try Self.partial(beside: chain.last!)
            return
        }
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw CLIError(
                message: "cannot open \(path): \(String(cString: strerror(errno)))",
                remedy: "check the path and that you may write there")
        }
        handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        target = .stream
    }

    deinit {
        if case .file(let partial, _) = target, !finished {
            try? handle.close()
            unlink(partial)
        }
    }

    func write(_ text: String) throws {
        buffer.append(contentsOf: (writesToATerminal ? Terminal.inert(text) : text).utf8)
        if buffer.count >= 1 << 20 { try flush() }
    }

    func finish() throws {
        try flush()
        guard case .file(let partial, let final) = target else { return }
        try handle.synchronize()
        try handle.close()
        finished = true
        guard rename(partial, final) == 0 else {
            throw CLIError(
                message: "cannot move the export to \(final): \(String(cString: strerror(errno)))",
                remedy: "check that you may write there; the export is in \(partial)")
        }
    }

    private func flush() throws {
        do {
            try handle.write(contentsOf: buffer)
        } catch {
            throw CLIError(
                message: "cannot write the export (\(Terminal.reason(error)))",
                remedy: "check the free space and the path, then export again")
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Whether `path` names an open descriptor rather than a file: `/dev/stdout`, `/dev/fd/1`, `/proc/self/fd/1`.
    private static func isDescriptorAlias(_ path: String) -> Bool {
        ["/dev/stdin", "/dev/stdout", "/dev/stderr"].contains(path) || path.hasPrefix("/dev/fd/")
            || (path.hasPrefix("/proc/") && path.split(separator: "/").dropLast().last == "fd")
    }

    /// `path`, then each path the links it is lead to, in order: the last is the file they name, which may not
    /// exist yet.
    private static func links(from path: String) throws -> [String] {
        var chain = [path]
        var status = stat()
        // As many links as the system follows before it gives up (ELOOP).
        for _ in 0..<40 {
            let current = chain.last!
            guard lstat(current, &status) == 0, status.st_mode & S_IFMT == S_IFLNK,
                let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: current)
            else { return chain }
            chain.append(
                destination.hasPrefix("/")
                    ? destination
                    : ((current as NSString).deletingLastPathComponent as NSString).appendingPathComponent(destination))
        }
        throw CLIError(message: "\(path) is a loop of links", remedy: "give the path of a file to write")
    }

    /// Removes the partial files of exports to `final` that no export holds (killed before it could remove its
    /// own): each export holds a lock on its partial file while it writes it.
    private static func removePartials(beside final: String) {
        let parent = (final as NSString).deletingLastPathComponent
        let prefix = (final as NSString).lastPathComponent + ".partial-"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: parent.isEmpty ? "." : parent)) ?? []
        for name in names where name.hasPrefix(prefix) {
            let path = parent.isEmpty ? name : parent + "/" + name
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { unlink(path) }
            close(descriptor)
        }
    }

    /// A new file beside `final`, to be renamed to it.
    private static func partial(beside final: String) throws -> (FileHandle, Target) {
        let parent = (final as NSString).deletingLastPathComponent
        var isDirectory: ObjCBool = false
        let exists = parent.isEmpty || FileManager.default.fileExists(atPath: parent, isDirectory: &isDirectory)
        guard exists, parent.isEmpty || isDirectory.boolValue else {
            throw exists
                ? CLIError(
                    message: "\(parent) is a file, not a directory", remedy: "give the path of a file in a directory")
                : CLIError(message: "there is no directory \(parent)", remedy: "create it first, or give another path")
        }
        removePartials(beside: final)
        let partial = final + ".partial-\(getpid())"
        // Before the file is made, so that no signal finds it made and not to be removed.
        SignalCleanup.removeOnSignal([partial])
        // Made in place with one system call: Foundation's `createFile` writes a file of another name first and renames
        // it, which a signal in between left behind.
        let descriptor = open(partial, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw CLIError(
                message: "cannot create \(partial): \(String(cString: strerror(errno)))",
                remedy: "check the path and that you may write there")
        }
        let opened = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        // Held until the handle closes: another export knows the file is being written.
        flock(opened.fileDescriptor, LOCK_EX)
        return (opened, .file(partial: partial, final: final))
    }
}
