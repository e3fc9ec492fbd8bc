import Foundation
import TestSupport
import Testing

@testable import LMDB

/// The zero-filled reserve at the end of a data file: commits after it write inside the file instead of growing it,
/// and nothing LMDB reads changes.
struct FileSpaceReserveTests {
    /// The data file's size in bytes.
    private func fileSize(_ environment: Environment) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: environment.path + "/data.mdb")
        return try #require(attributes[.size] as? Int)
    }

    private func usedBytes(_ environment: Environment) -> Int {
        (environment.info().lastPage + 1) * environment.pageSize
    }

    /// A new environment in a directory of its own (kept while the test holds it), with one database.
    private func opened(
        _ options: EnvironmentOptions = .init()
    ) throws -> (directory: TemporaryDirectory, environment: Environment, database: Database) {
        let directory = try TemporaryDirectory()
        let environment = try Environment.open(path: directory.path, options: options)
        return (directory, environment, try environment.openDatabases(["test"], create: true)[0])
    }

    /// Commits one 1,000-byte value under `key`, reserving space after it when `reserve` is true.
    private func put(_ key: Int, in environment: Environment, _ database: Database, reserve: Bool) throws {
        try environment.write { txn in
            try txn.put(
                [UInt8](repeating: UInt8(key % 251), count: 1_000), forKey: BigEndianKey.encode(UInt64(key)),
                in: database)
            if reserve { try environment.reserveFileSpace(in: txn) }
        }
    }

    @Test func commitsAfterAReserveWriteInsideTheFileWithoutGrowingIt() throws {
        let test = try opened()
        let (environment, database) = (test.environment, test.database)
        try put(0, in: environment, database, reserve: true)
        let reserved = try fileSize(environment)
        // The least step is 1 MiB past the pages in use, rounded up to whole MiB.
        #expect(reserved >= usedBytes(environment) + FileSpaceReserve.minimumStep)
        #expect(reserved % FileSpaceReserve.minimumStep == 0)
        let past = try Data(contentsOf: URL(fileURLWithPath: environment.path + "/data.mdb"))[usedBytes(environment)...]
        #expect(past.allSatisfy { $0 == 0 })
        // 200 commits of 1,000 bytes each use about 200 KB more pages: less than half the step, so the file keeps
        // its size, while the pages in use grow.
        let usedBefore = usedBytes(environment)
        for key in 1...200 { try put(key, in: environment, database, reserve: true) }
        #expect(usedBytes(environment) > usedBefore + 100_000)
        #expect(try fileSize(environment) == reserved)
        // LMDB reads back all it wrote into the reserve.
        let count = try environment.read { try $0.statistics(of: database).entries }
        #expect(count == 201)
    }

    @Test func withoutAReserveCommitsGrowTheFile() throws {
        // The counterpart of the test above: the same commits, no reserve, and the file grows with the pages.
        let test = try opened()
        let (environment, database) = (test.environment, test.database)
        try put(0, in: environment, database, reserve: false)
        let before = try fileSize(environment)
        for key in 1...200 { try put(key, in: environment, database, reserve: false) }
        #expect(try fileSize(environment) > before + 100_000)
    }

    @Test func anEnvironmentThatDoesNotSyncKeepsNoReserve() throws {
        let test = try opened(EnvironmentOptions(noSync: true))
        let (environment, database) = (test.environment, test.database)
        try put(0, in: environment, database, reserve: false)
        let before = try fileSize(environment)
        try put(1, in: environment, database, reserve: true)
        #expect(try fileSize(environment) < before + FileSpaceReserve.minimumStep / 2)
    }

    @Test func reservingOutsideTheEnvironmentsOwnWriteTransactionIsMisuse() throws {
        // Only the environment's own write transaction holds the write lock that keeps other writers off the end of
        // its file.
        let directory = try TemporaryDirectory()
        let other = try TemporaryDirectory()
        let environment = try Environment.open(path: directory.path)
        let otherEnvironment = try Environment.open(path: other.path)
        let before = try fileSize(environment)
        func isMisuse(_ error: any Error) -> Bool { (error as? LMDBError)?.code == .misuse }
        #expect(performing: { try environment.read { try environment.reserveFileSpace(in: $0) } }, throws: isMisuse)
        #expect(
            performing: { try otherEnvironment.write { try environment.reserveFileSpace(in: $0) } }, throws: isMisuse)
        #expect(try fileSize(environment) == before)
    }
}
