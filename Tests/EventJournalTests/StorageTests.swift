import EventJournal
import Foundation
import LMDB
import TestSupport
import Testing

struct StorageTests {
    @Test func aJournalCreatedWithA1MiBMapTakes100MBOfEvents() async throws {
        let test = try TestJournal(options: JournalOptions(initialMapSize: 1 << 20))
        let payload = [UInt8](repeating: 0x61, count: 64 << 10)
        let events = 1_600  // 1,600 × 64 KiB = 100 MiB of payload
        for batch in 0..<(events / 16) {
            let proposed = (0..<16).map { _ in ProposedEvent(type: "Blob", encoding: .opaque, payload: payload) }
            _ = try await test.journal.append(proposed, to: "blobs-\(batch % 5)")
        }
        let statistics = try test.journal.statistics()
        #expect(statistics.events == UInt64(events))
        #expect(statistics.mapSize >= 100 << 20)
        #expect(try test.journal.verify().isValid)
    }

    /// A durable journal keeps at least 1 MiB of zeros past its pages (docs/FORMAT.md); with the reserve turned off,
    /// or in relaxed mode, its file holds its pages only.
    @Test func onlyADurableJournalWithTheReserveOnKeepsSpacePastItsPages() async throws {
        let cases: [(JournalOptions, reserves: Bool)] = [
            (JournalOptions(), true), (JournalOptions(reservesFileSpace: false), false),
            (JournalOptions(durability: .relaxed), false),
        ]
        for (options, reserves) in cases {
            let test = try TestJournal(options: options)
            _ = try await test.journal.append([event("one")], to: "s")
            let statistics = try test.journal.statistics()
            if reserves {
                #expect(statistics.fileBytes >= statistics.usedBytes + (1 << 20))
            } else {
                #expect(statistics.fileBytes <= statistics.usedBytes)
            }
        }
    }

    /// A restore that outgrows the map runs its transaction again once the map has grown, reading the records from the
    /// first again: 3,000 records of 500 bytes each outgrow a map of 1 MiB. One told how much it will take reads them
    /// once.
    @Test func aRestoreThatOutgrowsTheMapReadsItsRecordsAgain() async throws {
        let source = try TestJournal()
        _ = try await source.journal.append(
            (0..<3_000).map { _ in ProposedEvent(type: "T", encoding: .opaque, payload: Array(repeating: 7, count: 500))
            },
            to: "s")
        let records = try source.journal.records(from: 1, limit: 3_000).map(ExportedRecord.init)
        let target = try TestJournal(options: JournalOptions(initialMapSize: 1 << 20))
        var starts = 0
        let count = try await target.journal.restore {
            starts += 1
            var iterator = records.makeIterator()
            return { iterator.next() }
        }
        #expect(count == 3_000 && starts > 1, "\(starts) starts")
        #expect(try target.journal.head() == source.journal.head())
        #expect(try target.journal.verify().isValid)
        // Told the bytes it will take (the payloads alone are 1.5 MB), the map is grown first: the records are read
        // once.
        let hinted = try TestJournal(options: JournalOptions(initialMapSize: 1 << 20))
        starts = 0
        _ = try await hinted.journal.restore(expectedBytes: 8 << 20) {
            starts += 1
            var iterator = records.makeIterator()
            return { iterator.next() }
        }
        #expect(starts == 1)
        #expect(try hinted.journal.head() == source.journal.head())
    }

    /// A restore into a journal that another process wrote to after the restore found it empty (while it read the
    /// export) names that, and writes nothing: it said the first record did not continue the journal, as of a bad file.
    @Test func aRestoreIntoAJournalWrittenToMeanwhileSaysSo() async throws {
        let source = try TestJournal()
        _ = try await source.journal.append([event("one"), event("two")], to: "s")
        let records = try source.journal.records(from: 1, limit: 10).map(ExportedRecord.init)
        let target = try TestJournal()
        // Given again from the first each time they are asked for, as an export is read again.
        func given() -> Journal.NextRecord {
            var iterator = records.makeIterator()
            return { iterator.next() }
        }
        #expect(try await target.journal.restore(given) == records.count)
        #expect(try target.journal.head() == source.journal.head())
        let raced = try TestJournal()
        _ = try await raced.journal.append([event("meanwhile")], to: "other")
        let head = try raced.journal.head()
        await #expect {
            try await raced.journal.restore(given)
        } throws: { error in
            (error as? JournalError)?.message
                == "the journal is no longer empty: it holds 1 record, written after the restore began"
        }
        #expect(try raced.journal.head() == head)
    }

    /// A directory holding nothing but a backup's staging directory is named for what it holds: a backup still being
    /// made, by a live process, or one cut short, whose process is gone (a pid past Linux's largest). It was said to
    /// hold "other files".
    @Test func aDirectoryOfABackupCutShortIsNamedSo() throws {
        let directory = try TemporaryDirectory()
        for (pid, expected) in [
            (Int(getpid()), "holds a backup still being made (by process \(getpid())) and no journal yet"),
            (2_000_000_000, "holds a backup that was cut short (.partial-2000000000) and no journal"),
        ] {
            let destination = directory.child("backup-\(pid)")
            try FileManager.default.createDirectory(
                atPath: destination + "/.partial-\(pid)", withIntermediateDirectories: true)
            #expect {
                _ = try Journal.open(at: destination)
            } throws: { error in
                (error as? JournalError)?.message == "\(destination) \(expected)"
            }
        }
    }

    @Test func aFlippedByteFailsVerifyAtItsPositionAndReadingItThrows() async throws {
        let test = try TestJournal()
        var ids: [UUID] = []
        for index in 1...20 {
            let proposed = event("record-\(index)")
            ids.append(proposed.id)
            _ = try await test.journal.append([proposed], to: "s-\(index % 3)")
        }
        let flipped = try flipFirstPayloadByte(
            inJournal: test.path, eventID: ids[6], position: 7, payloadLength: #"{"marker":"record-7"}"#.utf8.count)
        #expect(flipped >= 1)

        let report = try test.journal.verify()
        #expect(report.problem?.position == 7)
        #expect(report.problem?.detail.contains("checksum mismatch") == true)
        #expect(throws: JournalError.self) { _ = try test.journal.record(at: 7) }
        do {
            _ = try test.journal.record(at: 7)
        } catch let error as JournalError {
            #expect(error.code == .corruptRecord && error.position == 7)
        }
        #expect(try test.journal.record(at: 6) != nil)
        #expect(try test.journal.record(at: 8) != nil)
        // Read in place, the records before it come, and then the same error.
        var readInPlace: [UInt64] = []
        let inPlaceError = await journalError {
            try test.journal.environment.read { transaction in
                try test.journal.withRecords(from: 5, in: transaction) { reader in
                    while let view = try reader.next() { readInPlace.append(view.position) }
                }
            }
        }
        #expect(readInPlace == [5, 6])
        #expect(inPlaceError?.code == .corruptRecord && inPlaceError?.position == 7)
        // A backup of it would be as damaged: refused, and it leaves neither the destination nor its staging copy.
        let destination = test.directory.child("backup")
        let backupError = await journalError { try test.journal.backup(to: destination) }
        #expect(backupError?.code == .corruptRecord && backupError?.position == 7)
        #expect(!FileManager.default.fileExists(atPath: destination))
        #expect(!FileManager.default.fileExists(atPath: Journal.backupStaging(for: destination)))
    }

    @Test func textThatIsNotUTF8IsCorruptEvenWithAGoodChecksum() async throws {
        let test = try TestJournal()
        _ = try await test.journal.append([event("x")], to: "abc")
        var bytes = Array(try #require(try test.journal.record(at: 1)).bytes)
        // The stream id's first byte is at offset 92 + 2 (docs/FORMAT.md); 0xFF never occurs in UTF-8.
        #expect(bytes[94] == UInt8(ascii: "a"))
        bytes[94] = 0xFF
        bytes = withChecksumRecomputed(bytes)
        let environment = try Environment.open(path: test.path)
        let events = try environment.openDatabases(["events"], create: false)[0]
        try environment.write { try $0.put(bytes, forKey: BigEndianKey.encode(1), in: events) }
        #expect(try test.journal.verify().problem?.detail.contains("stream id is not valid UTF-8") == true)
        #expect(throws: JournalError.self) { _ = try test.journal.record(at: 1) }
    }

    @Test func aBackupTakenWhileWritingIsAConsistentJournal() async throws {
        let test = try TestJournal()
        _ = try await test.journal.append((0..<500).map { event("\($0)") }, to: "before")
        let journal = test.journal
        let writer = Task {
            for index in 0..<200 { _ = try await journal.append([event("during-\(index)")], to: "during") }
        }
        let destination = test.directory.child("backup")
        try journal.backup(to: destination)
        #expect(!FileManager.default.fileExists(atPath: Journal.backupStaging(for: destination)))
        try await writer.value
        // A backup killed partway left its staging directory (named for a process that is gone) in another
        // destination: the next backup there removes it and puts its copy in place, the data file alone.
        let retried = test.directory.child("retried")
        let stale = retried + "/.partial-2147483647"
        try FileManager.default.createDirectory(atPath: stale, withIntermediateDirectories: true)
        try Data(repeating: 0, count: 4_096).write(to: URL(fileURLWithPath: stale + "/data.mdb"))
        try journal.backup(to: retried)
        #expect(try FileManager.default.contentsOfDirectory(atPath: retried) == ["data.mdb"])
        #expect(try Journal.open(at: retried).verify().isValid)
        let copy = try Journal.open(at: destination)
        let report = try copy.verify()
        #expect(report.isValid)
        #expect(report.headPosition >= 500 && report.headPosition <= 700)
        #expect(copy.id == journal.id)
        let original = try #require(try journal.record(at: report.headPosition))
        #expect(report.headHash == original.hash)
        let mode = try FileManager.default.attributesOfItem(atPath: destination + "/data.mdb")[.posixPermissions]
        #expect(mode as? Int == 0o600)
        #expect(throws: JournalError.self) { try journal.backup(to: destination) }
    }

    @Test func aNewJournalIsPrivateToItsOwner() throws {
        let test = try TestJournal()
        let attributes = { (path: String) in
            try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        }
        #expect(try attributes(test.path) == 0o700)
        #expect(try attributes(test.path + "/data.mdb") == 0o600)
        #expect(try attributes(test.path + "/lock.mdb") == 0o600)
    }
}

/// Opening something that is not a journal this build reads: a clear error, and nothing in the directory changes.
struct OpenTests {
    @Test func aMissingDirectoryIsNotCreated() throws {
        let directory = try TemporaryDirectory()
        let missing = directory.child("nothing-here")
        #expect(openError(missing)?.code == .noJournal)
        #expect(!FileManager.default.fileExists(atPath: missing))
    }

    @Test func aDirectoryOfOtherFilesIsLeftAlone() throws {
        let directory = try TemporaryDirectory()
        try Data("notes".utf8).write(to: URL(fileURLWithPath: directory.child("notes.txt")))
        let before = try snapshot(of: directory.path)
        #expect(openError(directory.path)?.code == .notAJournal)
        #expect(openError(directory.path, create: true)?.code == .notAJournal)
        #expect(try snapshot(of: directory.path) == before)
    }

    @Test func aFileThatIsNotLMDBIsLeftAlone() throws {
        let directory = try TemporaryDirectory()
        try Data(repeating: 7, count: 8_192).write(to: URL(fileURLWithPath: directory.child("data.mdb")))
        let before = try snapshot(of: directory.path)
        #expect(openError(directory.path)?.code == .notAJournal)
        #expect(try snapshot(of: directory.path) == before)
    }

    /// An `init` killed before LMDB wrote the data file's first page leaves it empty, beside a lock file: it was
    /// refused as no LMDB file for good, by `init` too. Opened to read, it is no journal, cut short, with `init` for the
    /// fix, and nothing is changed; opened to create, the journal is made in it.
    @Test func anEmptyDataFileOfAnInitCutShortIsMadeAnew() async throws {
        let directory = try TemporaryDirectory()
        for file in ["data.mdb", "lock.mdb"] {
            #expect(FileManager.default.createFile(atPath: directory.child(file), contents: Data()))
        }
        let before = try snapshot(of: directory.path)
        let refused = openError(directory.path)
        #expect(refused?.code == .noJournal && refused?.message.hasSuffix("the making of one was cut short") == true)
        #expect(try snapshot(of: directory.path) == before)
        let journal = try Journal.open(at: directory.path, create: true)
        #expect(journal.wasMadeByThisOpen)
        _ = try await journal.append([ProposedEvent(type: "Noted", encoding: .opaque, payload: [1])], to: "s")
        #expect(try journal.head().position == 1)
    }

    /// A journal's data file cut to its first page (an interrupted copy) is named as cut short, as damage (the code
    /// `verify --json` gives a verdict for): LMDB called it no LMDB file, a storage error.
    @Test func aDataFileCutBeforeItsSecondPageIsNamedCutShort() throws {
        let directory = try TemporaryDirectory()
        do { _ = try Journal.open(at: directory.path, create: true) }
        #expect(truncate(directory.child("data.mdb"), 4_096) == 0)
        let refused = openError(directory.path)
        #expect(
            refused?.code == .corruptRecord && refused?.message.contains("is cut short") == true,
            "\(String(describing: refused))")
    }

    @Test func anLMDBEnvironmentOfAnotherProgramIsLeftAlone() throws {
        let directory = try TemporaryDirectory()
        do {
            let foreign = try Environment.open(path: directory.path)
            let database = try foreign.openDatabases(["settings"], create: true)[0]
            try foreign.write { try $0.put([1], forKey: [1], in: database) }
        }
        let before = try snapshot(of: directory.path)
        #expect(openError(directory.path)?.code == .notAJournal)
        // LMDB's lock file holds runtime state (readers, the writer's mutex) that any opener uses; the data must not
        // change, nor the files present.
        let after = try snapshot(of: directory.path)
        #expect(after["data.mdb"] == before["data.mdb"] && Set(after.keys) == Set(before.keys))
    }

    @Test func aDirectoryWithoutALockFileIsInspectedWithoutCreatingOne() throws {
        let directory = try TemporaryDirectory()
        let path = directory.child("journal")
        do { _ = try Journal.open(at: path, create: true) }
        let copy = directory.child("copy")
        try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: false)
        try FileManager.default.copyItem(atPath: path + "/data.mdb", toPath: copy + "/data.mdb")
        do {
            let environment = try Environment.open(path: copy)
            let meta = try environment.openDatabases(["meta"], create: false)[0]
            try environment.write { try $0.put([0, 0, 0, 9], forKey: Array("format".utf8), in: meta) }
        }
        try FileManager.default.removeItem(atPath: copy + "/lock.mdb")
        let before = try snapshot(of: copy)
        #expect(openError(copy)?.code == .newerFormat)
        #expect(try snapshot(of: copy) == before)
    }

    @Test func anLMDBEnvironmentThatOnlyLooksLikeAJournalIsLeftAlone() throws {
        let directory = try TemporaryDirectory()
        do {
            let foreign = try Environment.open(path: directory.path)
            let meta = try foreign.openDatabases(["meta"], create: true)[0]
            try foreign.write { try $0.put([0, 0, 0, 1], forKey: Array("format".utf8), in: meta) }
        }
        let before = try snapshot(of: directory.path)
        #expect(openError(directory.path)?.code == .notAJournal)
        #expect(try snapshot(of: directory.path)["data.mdb"] == before["data.mdb"])
    }

    @Test func aDamagedStreamHeadIsReportedNotACrash() async throws {
        let test = try TestJournal()
        _ = try await test.journal.append([event("x")], to: "s")
        let environment = try Environment.open(path: test.path)
        let heads = try environment.openDatabases(["stream_heads"], create: false)[0]
        try environment.write { try $0.put([0, 0, 0, 0, 0, 0, 0, 1], forKey: Array("s".utf8), in: heads) }
        let report = try test.journal.verify()
        #expect(report.problem?.detail.contains("has 8 bytes, not 16") == true)
        #expect(throws: JournalError.self) { _ = try test.journal.version(of: "s") }
    }

    @Test func aJournalOfANewerFormatIsRefusedUnchanged() throws {
        let directory = try TemporaryDirectory()
        let path = directory.child("journal")
        do {
            _ = try Journal.open(at: path, create: true)
            // Set the format version the way a future build would: meta/format = 2 (u32, big-endian).
            let environment = try Environment.open(path: path)
            let meta = try environment.openDatabases(["meta"], create: false)[0]
            try environment.write { try $0.put([0, 0, 0, 2], forKey: Array("format".utf8), in: meta) }
        }
        let before = try snapshot(of: path)
        let error = openError(path)
        #expect(error?.code == .newerFormat)
        #expect(error?.description.contains("upgrade liftledger") == true)
        #expect(try snapshot(of: path)["data.mdb"] == before["data.mdb"])
    }

    private func openError(_ path: String, create: Bool = false) -> JournalError? {
        do {
            _ = try Journal.open(at: path, create: create)
            return nil
        } catch {
            return error as? JournalError
        }
    }
}

extension ExportedRecord {
    /// The record as an export gives it back.
    init(_ record: EventRecord) {
        self.init(
            position: record.position, streamID: record.streamID, streamVersion: record.streamVersion,
            recordedAt: record.recordedAt,
            event: ProposedEvent(
                id: record.id, type: record.type, schemaVersion: record.schemaVersion, encoding: record.encoding,
                payload: Array(record.payload), occurredAt: record.occurredAt, metadata: record.metadata),
            hash: record.hash)
    }
}
