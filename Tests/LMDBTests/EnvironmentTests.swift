import Foundation
import TestSupport
import Testing

@testable import LMDB

struct EnvironmentTests {
    let directory: TemporaryDirectory
    let environment: Environment
    let database: Database

    init() throws {
        directory = try TemporaryDirectory()
        environment = try Environment.open(path: directory.path)
        database = try environment.openDatabases(["test"], create: true)[0]
    }

    @Test func writeCommitsWhenTheClosureReturns() throws {
        try environment.write { try $0.put(Array("value".utf8), forKey: Array("key".utf8), in: database) }
        let stored = try environment.read { try $0.value(forKey: Array("key".utf8), in: database) }
        #expect(stored == Array("value".utf8))
    }

    @Test func writeAbortsWhenTheClosureThrows() throws {
        struct Planned: Error {}
        #expect(throws: Planned.self) {
            try environment.write { txn in
                try txn.put([1], forKey: Array("key".utf8), in: database)
                throw Planned()
            }
        }
        let stored = try environment.read { try $0.value(forKey: Array("key".utf8), in: database) }
        #expect(stored == nil)
    }

    @Test func aPathOpensOneEnvironmentPerProcess() throws {
        let again = try Environment.open(path: directory.path + "/.")
        #expect(again === environment)
    }

    @Test func putInAReadTransactionIsMisuse() throws {
        #expect {
            try environment.read { try $0.put([1], forKey: [1], in: database) }
        } throws: { error in
            (error as? LMDBError)?.code == .misuse
        }
    }

    /// Emptying deletes every entry, leaves the database open for more, and is refused in a read transaction.
    @Test func emptyDeletesEveryEntryAndKeepsTheDatabase() throws {
        try environment.write { txn in
            for key in 0..<3 { try txn.put([UInt8(key)], forKey: [UInt8(key)], in: database) }
            // A value of two pages needs overflow pages.
            try txn.put([UInt8](repeating: 7, count: 8_192), forKey: [9], in: database)
        }
        #expect(try environment.read { try $0.statistics(of: database) }.entries == 4)
        #expect {
            try environment.read { try $0.empty(database) }
        } throws: { error in
            (error as? LMDBError)?.code == .misuse
        }
        try environment.write { try $0.empty(database) }
        let emptied = try environment.read { try $0.statistics(of: database) }
        #expect(emptied.entries == 0 && emptied.leafPages == 0 && emptied.overflowPages == 0)
        try environment.write { try $0.put([1], forKey: [1], in: database) }
        #expect(try environment.read { try $0.value(forKey: [1], in: database) } == [1])
    }

    /// The names of the named databases, in byte order, with none of the entries inside them.
    @Test func theNamedDatabasesAreListedByName() throws {
        let others = try environment.openDatabases(["b", "a-b"], create: true)
        try environment.write { try $0.put([2], forKey: Array("key".utf8), in: others[0]) }
        #expect(try environment.databaseNames() == ["a-b", "b", "test"])
    }

    @Test func aWriteInsideAnotherTransactionOnTheSameThreadIsMisuseNotADeadlock() throws {
        // Each way of writing: a put, creating a database, adopting an abandoned commit (each takes the writer lock,
        // which the outer write holds).
        let writes: [(String, () throws -> Void)] = [
            ("write", { _ = try environment.write { try $0.put([1], forKey: [1], in: database) } }),
            ("openDatabases", { _ = try environment.openDatabases(["other"], create: true) }),
            ("adoptAbandonedCommit", { try environment.adoptAbandonedCommit() }),
        ]
        for outer in ["read", "write"] {
            for (name, inner) in writes {
                #expect(throws: LMDBError.self, "\(name) inside \(outer)") {
                    if outer == "read" {
                        try environment.read { _ in try inner() }
                    } else {
                        try environment.write { _ in try inner() }
                    }
                }
            }
        }
        #expect(try environment.read { try $0.value(forKey: [1], in: database) } == nil)
    }

    /// In a process whose address space has no room for a map twice the size (`ulimit -v`), the write that needs one
    /// fails with `MDB_MAP_FULL`, and the environment still reads every entry written before: LMDB had unmapped the old
    /// map before it failed to map the new one, and the next call died of SIGSEGV. In a process of its own, the
    /// harness, as the limit would starve the test runner.
    @Test func aMapThatCannotGrowLeavesTheEnvironmentUsable() throws {
        let result = try run(BuiltProgram.harness, ["grow-map-under-limit", "--directory", directory.child("limited")])
        #expect(result.status == 0, "\(result.standardError)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect((report["refusal"] as? String)?.hasPrefix("MDB_MAP_FULL") == true)
        let written = try #require(report["written"] as? Int)
        #expect(written > 0 && report["entriesAfter"] as? Int == written)
    }

    /// A copy into a directory that holds a data file already fails, and leaves that file as it was: it is not the
    /// copy's to remove.
    @Test func aCopyOverAnotherDataFileLeavesIt() throws {
        let destination = try TemporaryDirectory()
        let other = Data("another journal".utf8)
        #expect(FileManager.default.createFile(atPath: destination.child("data.mdb"), contents: other))
        #expect(throws: LMDBError.self) { try environment.copy(to: destination.path) }
        #expect(FileManager.default.contents(atPath: destination.child("data.mdb")) == other)
    }

    @Test func noOverwriteLeavesTheStoredValue() throws {
        let first = try environment.write { try $0.put([1], forKey: [7], in: database, options: .noOverwrite) }
        let second = try environment.write { try $0.put([2], forKey: [7], in: database, options: .noOverwrite) }
        #expect(first && !second)
        #expect(try environment.read { try $0.value(forKey: [7], in: database) } == [1])
    }

    @Test func cursorWalksKeysInByteOrderAndSeeks() throws {
        try environment.write { txn in
            for key: UInt64 in [300, 2, 1 << 40, 17] {
                try txn.put([0], forKey: BigEndianKey.encode(key), in: database)
            }
        }
        let (all, fromTen) = try environment.read { txn in
            try txn.withCursor(on: database) { cursor -> ([UInt64], UInt64?) in
                var keys: [UInt64] = []
                var entry = try cursor.first()
                while let current = entry {
                    keys.append(BigEndianKey.decode(current.key)!)
                    entry = try cursor.next()
                }
                let seek = try cursor.seek(atLeast: BigEndianKey.encode(10)).map { BigEndianKey.decode($0.key)! }
                return (keys, seek)
            }
        }
        #expect(all == [2, 17, 300, 1 << 40])
        #expect(fromTen == 17)
    }

    @Test func theMapGrowsWhenAWriteDoesNotFit() throws {
        let small = try TemporaryDirectory()
        let environment = try Environment.open(path: small.path, options: EnvironmentOptions(mapSize: 1 << 20))
        let database = try environment.openDatabases(["blobs"], create: true)[0]
        let megabyte = [UInt8](repeating: 0xAB, count: 1 << 20)
        for index: UInt64 in 0..<40 {
            try environment.write { try $0.put(megabyte, forKey: BigEndianKey.encode(index), in: database) }
        }
        #expect(environment.info().mapSize >= 40 << 20)
        let count = try environment.read { try $0.statistics(of: database).entries }
        #expect(count == 40)
    }

    /// An environment whose file is larger than the map asked for gets a map of the file's size, full: a new
    /// database must grow it, as a write does (a restored or copied journal, opened with the default map, had every
    /// read model's table refused with MDB_MAP_FULL).
    @Test func theMapGrowsWhenANewDatabaseDoesNotFit() throws {
        let directory = try TemporaryDirectory()
        let megabyte = [UInt8](repeating: 0xCD, count: 1 << 20)
        do {
            let environment = try Environment.open(path: directory.path, options: EnvironmentOptions(mapSize: 1 << 20))
            let database = try environment.openDatabases(["blobs"], create: true)[0]
            for index: UInt64 in 0..<3 {
                try environment.write { try $0.put(megabyte, forKey: BigEndianKey.encode(index), in: database) }
            }
        }
        let reopened = try Environment.open(path: directory.path, options: EnvironmentOptions(mapSize: 1 << 20))
        let databases = try reopened.openDatabases((0..<64).map { "table-\($0)" }, create: true)
        try reopened.write { try $0.put([1], forKey: [1], in: databases[63]) }
        #expect(try reopened.read { try $0.statistics(of: databases[63]).entries } == 1)
    }

    @Test func aFileThatIsNotLMDBIsRefusedWithTheCallAndARemedy() throws {
        let foreign = try TemporaryDirectory()
        try Data(repeating: 0x42, count: 16_384).write(to: URL(fileURLWithPath: foreign.path + "/data.mdb"))
        do {
            _ = try Environment.open(path: foreign.path)
            Issue.record("opening a file of 0x42 bytes succeeded")
        } catch {
            #expect(error.code == .invalid)
            #expect(error.operation == "mdb_env_open")
            #expect(error.description.contains("point at a journal directory"))
        }
    }

    /// A data file cut short (an interrupted copy) is refused when it opens: its pages past the end would otherwise be
    /// mapped, and reading one kills the process with SIGBUS.
    @Test func aDataFileCutShortIsRefusedWhenItOpens() throws {
        let whole = try TemporaryDirectory()
        do {
            let environment = try Environment.open(path: whole.path)
            let database = try environment.openDatabases(["blobs"], create: true)[0]
            let blob = [UInt8](repeating: 0xAB, count: 64 << 10)
            for index: UInt64 in 0..<16 {
                try environment.write { try $0.put(blob, forKey: BigEndianKey.encode(index), in: database) }
            }
        }
        let data = try Data(contentsOf: URL(fileURLWithPath: whole.path + "/data.mdb"))
        #expect(data.count > 1 << 20)
        let cut = try TemporaryDirectory()
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: cut.path + "/data.mdb"))
        do {
            _ = try Environment.open(path: cut.path)
            Issue.record("a data file cut to half its size opened")
        } catch {
            #expect(error.code == .corrupted)
            #expect(error.description.contains("cut short"))
        }
    }

    /// A meta page that LMDB goes by (the first, whose size steps to the second, and the newer) giving a page size
    /// LMDB never writes is refused when the environment opens: LMDB divides by it, and a size of 0 killed the process
    /// with SIGFPE. An older second meta page's is left alone: LMDB does not read it, and the next commit writes it.
    @Test(arguments: [(UInt32(0), true), (3_000, true), (131_072, true), (0, false), (3_000, false)])
    func aMetaPageGivingAPageSizeLMDBNeverWritesIsRefused(size: UInt32, newer: Bool) throws {
        let made = try TemporaryDirectory()
        let pageSize: Int
        do {
            let environment = try Environment.open(path: made.path)
            pageSize = environment.pageSize
            let database = try environment.openDatabases(["blobs"], create: true)[0]
            try environment.write { try $0.put([1], forKey: [1], in: database) }
        }
        var data = try Data(contentsOf: URL(fileURLWithPath: made.path + "/data.mdb"))
        // Each meta page: a page header of 16 bytes, the page size at byte 40, the transaction id at byte 144.
        func transaction(_ page: Int) -> UInt64 {
            data[(page * pageSize + 144)..<(page * pageSize + 152)].reversed().reduce(0) { $0 << 8 | UInt64($1) }
        }
        let newest = transaction(1) > transaction(0) ? 1 : 0
        let damaged = newer ? newest : 1 - newest
        withUnsafeBytes(of: size.littleEndian) {
            data.replaceSubrange((damaged * pageSize + 40)..<(damaged * pageSize + 44), with: $0)
        }
        try data.write(to: URL(fileURLWithPath: made.path + "/data.mdb"))
        // Meta page 0's size is read by LMDB whichever is newer: only an older page 1 is not.
        guard newer || damaged == 0 else {
            let environment = try Environment.open(path: made.path)
            let database = try environment.openDatabases(["blobs"], create: false)[0]
            #expect(try environment.read { try $0.value(forKey: [1], in: database) } == [1])
            return
        }
        do {
            _ = try Environment.open(path: made.path)
            Issue.record("a meta page giving a page size of \(size) opened")
        } catch {
            #expect(error.code == .corrupted)
            #expect(error.description.contains("meta page \(damaged) of the data file gives a page size of \(size)"))
        }
    }

    /// Pages read through the map count in this process's resident memory until released; the figure is the data
    /// file mapping's `Rss` in /proc/self/smaps.
    /// Also once the data file is removed, as a scratch store's is as soon as it is open.
    @Test(arguments: [false, true])
    func releasedPagesLeaveThisProcesssResidentMemory(fileRemoved: Bool) throws {
        let value = [UInt8](repeating: 7, count: 4_000)
        try environment.write { transaction in
            for index in 0..<8_192 {
                try transaction.put(value, forKey: BigEndianKey.encode(UInt64(index)), in: database)
            }
        }
        // Reading a byte of every value makes about 8,192 pages of 4 KB (32 MB) resident.
        let sum = try environment.read { transaction in
            try transaction.withCursor(on: database) { cursor in
                var sum = 0
                var entry = try cursor.first()
                while let current = entry {
                    sum += Int(current.value[0])
                    entry = try cursor.next()
                }
                return sum
            }
        }
        #expect(sum == 7 * 8_192)
        let file = URL(fileURLWithPath: directory.path).resolvingSymlinksInPath().path + "/data.mdb"
        if fileRemoved { try FileManager.default.removeItem(atPath: file) }
        let before = try residentKilobytes()
        environment.releaseResidentPages()
        let after = try residentKilobytes()
        #expect(before >= 30_000 && after < 1_000, "\(before) KB before, \(after) KB after")
    }

    /// The resident kilobytes of this environment's data file mapping.
    func residentKilobytes() throws -> Int {
        let file = URL(fileURLWithPath: directory.path).resolvingSymlinksInPath().path + "/data.mdb"
        // Read to the end: /proc files report a size of 0, which a read by size would trust.
        let handle = try #require(FileHandle(forReadingAtPath: "/proc/self/smaps"))
        defer { try? handle.close() }
        let smaps = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self).split(separator: "\n")
        let header = try #require(
            smaps.firstIndex { $0.hasSuffix(" " + file) || $0.hasSuffix(" " + file + " (deleted)") })
        let rss = try #require(smaps[header...].first { $0.hasPrefix("Rss:") })
        return try #require(Int(rss.split(separator: " ", omittingEmptySubsequences: true)[1]))
    }
}
