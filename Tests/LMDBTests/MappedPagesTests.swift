import CLMDB
import Foundation
import TestSupport
import Testing

@testable import LMDB

/// The bounds a value handed out from the map must keep, with made-up addresses (nothing is read at them): a map of 16
/// pages of 4,096 bytes at 0x10000, 4 pages in use, over a file of 8 pages.
struct MappedPagesTests {
    let directory: TemporaryDirectory
    let pages: MappedPages
    let file: FileHandle

    init() throws {
        directory = try TemporaryDirectory()
        let path = directory.child("file")
        #expect(FileManager.default.createFile(atPath: path, contents: Data(count: 8 * 4_096)))
        file = try #require(FileHandle(forReadingAtPath: path))
        pages = MappedPages(
            map: 0x10000..<0x10000 + 16 * 4_096, pages: 4, pageSize: 4_096, file: file.fileDescriptor)
    }

    func allows(_ address: UInt, _ count: Int) -> Bool {
        pages.allows(MDB_val(mv_size: count, mv_data: UnsafeMutableRawPointer(bitPattern: address)))
    }

    @Test func valuesWithinTheFileAreTakenAndOthersInTheMapRefused() {
        // In the pages in use, to their very end (an empty value there too).
        #expect(allows(0x10000 + 100, 200))
        #expect(allows(0x10000 + 4 * 4_096 - 10, 10) && allows(0x10000 + 4 * 4_096, 0))
        // Past them but in the file: a page a large write spilled.
        #expect(allows(0x10000 + 6 * 4_096, 4_096))
        // Past the file's end, by a byte, or by a size that reaches far.
        #expect(!allows(0x10000 + 8 * 4_096 - 10, 11))
        #expect(!allows(0x10000 + 100, 0xFF_0000 + 200))
        #expect(!allows(0x10000 + 9 * 4_096, 1))
        // Outside the map: memory of a write transaction's own, not checked.
        #expect(allows(0x9000, 1 << 20))
    }

    /// A meta page counting more pages than the map holds (damaged) bounds the pages in use by the map, not by a
    /// product that overflows.
    @Test func aPageCountBeyondTheMapIsClampedToIt() {
        let clamped = MappedPages(map: 0x10000..<0x20000, pages: Int.max, pageSize: 4_096, file: -1)
        #expect(clamped.inUse == 0x10000..<0x20000)
    }
}
