import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Small tmpfs volumes mounted for a test: a real full disk, or a real read-only file system. Mounting needs root.
public enum Tmpfs {
    /// Whether this process may mount one (it runs as root, and the kernel lets it).
    public static let canMount: Bool = {
        guard getuid() == 0, let directory = try? TemporaryDirectory() else { return false }
        guard (try? run("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", directory.path]))?.status == 0 else {
            return false
        }
        _ = try? run("/bin/umount", [directory.path])
        return true
    }()

    /// Runs `body` in a new directory with a tmpfs of `size` (as `mount -o size=` reads it) mounted on it.
    public static func mounted(size: String, _ body: (TemporaryDirectory) async throws -> Void) async throws {
        let directory = try TemporaryDirectory()
        guard try run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", directory.path]).status == 0 else {
            throw TmpfsError(description: "mount -t tmpfs on \(directory.path) failed")
        }
        defer { _ = try? run("/bin/umount", ["-l", directory.path]) }
        try await body(directory)
    }

    /// Mounts the tmpfs at `directory` (one ``mounted(size:_:)`` mounted) again, read-only.
    public static func remountReadOnly(_ directory: TemporaryDirectory) throws {
        guard try run("/bin/mount", ["-o", "remount,ro", directory.path]).status == 0 else {
            throw TmpfsError(description: "mount -o remount,ro \(directory.path) failed")
        }
    }
}

/// A tmpfs that could not be mounted as a test asked.
public struct TmpfsError: Error, CustomStringConvertible {
    public let description: String
}
