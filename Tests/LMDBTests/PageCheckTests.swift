import Foundation
import TestSupport
import Testing

@testable import LMDB

/// `Environment.checkPages()` against environments whose pages are found, and damaged, by scanning the data file for
/// what is known to be on them (a page's kind in its header, a key's bytes), not by walking the trees.
struct PageCheckTests {
    let directory: TemporaryDirectory
    let environment: Environment
    let databases: [Database]

    init() throws {
        directory = try TemporaryDirectory()
        environment = try Environment.open(path: directory.path)
        databases = try environment.openDatabases(["records", "small"], create: true)
    }

    /// Three levels of pages, values on overflow pages, entries deleted and rewritten over several commits (which
    /// fills LMDB's list of free pages): nothing is damaged.
    @Test func aSoundEnvironmentHasNoDamage() throws {
        for round in 0..<4 {
            try environment.write { txn in
                for key in 0..<20_000 {
                    let value = [UInt8](repeating: UInt8(round), count: key % 1_000 == 0 ? 9_000 : 40)
                    try txn.put(value, forKey: Array("key-\(key * 7 % 20_000)".utf8), in: databases[0])
                }
                for key in stride(from: round, to: 20_000, by: 5) {
                    try txn.delete(Array("key-\(key)".utf8), in: databases[0])
                }
            }
        }
        let statistics = try environment.read { try $0.statistics(of: databases[0]) }
        #expect(statistics.depth >= 3 && statistics.overflowPages > 0)
        #expect(try environment.checkPages() == nil)
    }

    /// Checks while another thread commits without syncs, as fast as it can: each check walks a snapshot that the
    /// commits leave alone (LMDB keeps its pages while a reader has it), and meets no damage, even when the commits
    /// wrote over the snapshot's meta page before the walk read it (the check then walks a newer snapshot).
    @Test func checksWhileAnotherThreadCommitsFindNoDamage() throws {
        try FileManager.default.createDirectory(atPath: directory.child("unsynced"), withIntermediateDirectories: false)
        let unsynced = try Environment.open(
            path: directory.child("unsynced"), options: EnvironmentOptions(mapSize: 1 << 26, noSync: true))
        let values = try unsynced.openDatabases(["values"], create: true)[0]
        let writer = Thread {
            for key in 0..<3_000 {
                _ = try? unsynced.write { transaction in
                    try transaction.put(
                        [UInt8](repeating: UInt8(key % 251), count: key % 7 == 0 ? 6_000 : 100),
                        forKey: Array("key-\(key % 700)".utf8), in: values)
                }
            }
        }
        writer.start()
        var checks = 0
        while !writer.isFinished || checks < 50 {
            #expect(try unsynced.checkPages() == nil)
            checks += 1
        }
    }

    /// The free pages' tree given duplicate keys (its flags, 0x08, at byte 44 of each meta page, made 0x0C): LMDB
    /// then aborted every write and `backup` on an assertion, while the pages all held.
    @Test func aTreeWithFlagsItWasNotMadeWithIsDamage() throws {
        try environment.write { try $0.put([1], forKey: [1], in: databases[1]) }
        for meta in [UInt64(0), 1] { try change(page: meta, at: 44, to: [0x0C]) }
        let damage = try environment.checkPages()
        #expect(damage?.database == "(free pages)" && damage?.detail == "the database's flags are c, not 8")
    }

    /// A value's first overflow page made a leaf page (flags 0x04 to 0x02): the page of the node that points to it is
    /// named, in its database.
    @Test func anOverflowPageOfAnotherKindIsDamage() throws {
        try environment.write { txn in
            try txn.put([UInt8](repeating: 1, count: 10_000), forKey: Array("large".utf8), in: databases[1])
        }
        let overflowPages = try pages { $0.flags == 0x04 }
        #expect(overflowPages.count == 1)
        try change(page: overflowPages[0], at: 10, to: [0x02, 0x00])
        let damage = try environment.checkPages()
        #expect(damage?.database == "small")
        #expect(damage?.detail.contains("value on page \(overflowPages[0]): not an overflow page") == true)
    }

    /// Keys `key-A`, `key-B`, `key-C` on one leaf page, the middle one changed to `key-Z`: the third is not above it.
    @Test func keysOutOfOrderOnAPageAreDamage() throws {
        try environment.write { txn in
            for key in ["key-A", "key-B", "key-C"] { try txn.put([1], forKey: Array(key.utf8), in: databases[1]) }
        }
        let holding = try pages { $0.bytes.firstRange(of: Array("key-B".utf8)) != nil }
        #expect(holding.count == 1)
        let data = try Data(contentsOf: URL(fileURLWithPath: directory.path + "/data.mdb"))
        let page = Array(data[Int(holding[0]) * environment.pageSize..<Int(holding[0] + 1) * environment.pageSize])
        let offset = page.firstRange(of: Array("key-B".utf8))!.lowerBound
        try change(page: holding[0], at: offset + 4, to: Array("Z".utf8))
        let damage = try environment.checkPages()
        #expect(damage?.page == holding[0] && damage?.database == "small")
        #expect(damage?.detail == "node 2's key is not above the one before" && damage?.key == Array("key-C".utf8))
    }

    /// The numbers of the pages past the two meta pages whose header flags and bytes `include` admits.
    private func pages(_ include: ((flags: UInt16, bytes: ArraySlice<UInt8>)) -> Bool) throws -> [UInt64] {
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: directory.path + "/data.mdb")))
        let size = environment.pageSize
        return (2..<data.count / size).filter { page in
            let bytes = data[page * size..<(page + 1) * size]
            let flags = UInt16(bytes[bytes.startIndex + 10]) | UInt16(bytes[bytes.startIndex + 11]) << 8
            return include((flags, bytes))
        }.map(UInt64.init)
    }

    /// Writes `bytes` into the data file at `offset` in `page`; the map, shared with the file, shows them at once.
    private func change(page: UInt64, at offset: Int, to bytes: [UInt8]) throws {
        let file = try FileHandle(forUpdating: URL(fileURLWithPath: directory.path + "/data.mdb"))
        defer { try? file.close() }
        try file.seek(toOffset: page * UInt64(environment.pageSize) + UInt64(offset))
        try file.write(contentsOf: bytes)
    }
}
