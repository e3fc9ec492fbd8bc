import Foundation

/// The directory a harness program works in: the one given, or a new temporary one removed when this is released
/// (keep it alive with `withExtendedLifetime` while the directory is in use).
final class ScratchDirectory {
    let path: String
    private let owned: Bool

    init(given: String?, prefix: String) {
        owned = given == nil
        path =
            given
            ?? FileManager.default.temporaryDirectory.appendingPathComponent(
                "\(prefix)-\(UUID().uuidString.lowercased())"
            )
            .path
    }

    deinit { if owned { try? FileManager.default.removeItem(atPath: path) } }
}
