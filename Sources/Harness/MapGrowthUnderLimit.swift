import ArgumentParser
import Foundation
import LMDB

#if canImport(Glibc)
    import Glibc
#endif

/// Fills an environment whose map cannot double, in a process whose address space is limited (as `ulimit -v`
/// limits it): the write that needs a larger map must fail with `MDB_MAP_FULL` and leave the environment usable. LMDB
/// unmaps the old map before it maps the new one, and left none when that failed: the next call through the
/// environment died of SIGSEGV. Prints, as JSON, the error and the entries the environment still reads after it.
struct MapGrowthUnderLimit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "grow-map-under-limit",
        abstract: "Fill an environment in a process whose address space leaves no room for a larger map.")

    @Option(help: "The environment's directory (created).")
    var directory: String

    func run() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let mapSize = 1 << 20
        let environment = try Environment.open(path: directory, options: EnvironmentOptions(mapSize: mapSize))
        let database = try environment.openDatabases(["values"], create: true)[0]
        let value = [UInt8](repeating: 1, count: 512)
        // Room for a quarter of the map more: not for a map twice its size, beside the old one or instead of it.
        var unlimited = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &unlimited)
        var limit = rlimit(rlim_cur: rlim_t(try Self.addressSpaceInUse() + mapSize / 4), rlim_max: unlimited.rlim_max)
        guard setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit) == 0 else {
            throw HarnessError("setrlimit failed: errno \(errno)")
        }
        // Lifted before the command returns: the asynchronous main it returns to may need a new thread, whose stack
        // the limit has no room for (Dispatch then waits for room for ever).
        defer { setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &unlimited) }
        var refusal: LMDBError?
        var key: UInt64 = 0
        while refusal == nil && key < 100_000 {
            do {
                try environment.write { try $0.put(value, forKey: BigEndianKey.encode(key), in: database) }
                key += 1
            } catch let error as LMDBError {
                refusal = error
            }
        }
        guard let refusal else { throw HarnessError("\(key) values fitted: the map never had to grow") }
        let entries = try environment.read { transaction in
            try transaction.withCursor(on: database) { cursor in
                var count = 0
                var entry = try cursor.first()
                while entry != nil {
                    count += 1
                    entry = try cursor.next()
                }
                return count
            }
        }
        print(#"{"refusal":"\#(refusal.code)","written":\#(key),"entriesAfter":\#(entries)}"#)
    }

    /// The process's virtual memory size (`VmSize` of `/proc/self/status`), in bytes.
    static func addressSpaceInUse() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmSize:") }),
            let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { throw HarnessError("no VmSize in /proc/self/status") }
        return kilobytes * 1_024
    }
}
