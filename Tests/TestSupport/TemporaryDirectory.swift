import Foundation

/// A new directory under the system's temporary directory, removed when the value is released.
public final class TemporaryDirectory: Sendable {
    public let path: String

    public init() throws {
        path =
            FileManager.default.temporaryDirectory.appendingPathComponent("liftledger-test-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// A path inside the directory (not created).
    public func child(_ name: String) -> String { path + "/" + name }
}

/// The bytes of every file in `directory`, by name: a snapshot to check that an operation changed nothing.
public func snapshot(of directory: String) throws -> [String: Data] {
    var files: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
        files[name] = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name))
    }
    return files
}
