import EventJournal
import Foundation
import LMDB
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A real full disk: a small tmpfs, mounted for each test (which needs root).
struct DiskFullTests {
    static let canMount = Tmpfs.canMount

    @Test(.enabled(if: canMount, "needs root to mount a tmpfs; skipped"))
    func anAppendThatDoesNotFitFailsClearlyAndEarlierEventsStayIntact() async throws {
        try await Tmpfs.mounted(size: "2m") { directory in
            let journal = try Journal.open(at: directory.child("journal"), create: true)
            let payload = [UInt8](repeating: 0x5A, count: 3_000)
            var acknowledged: [UInt64] = []
            var failure: JournalError?
            for index in 0..<2_000 {
                do {
                    let proposed = ProposedEvent(type: "Filler", encoding: .opaque, payload: payload)
                    acknowledged += try await journal.append([proposed], to: "filler-\(index % 4)").positions
                } catch {
                    failure = error as? JournalError
                    break
                }
            }
            let error = try #require(failure, "2,000 appends of 3 KB fitted in a 2 MiB tmpfs")
            #expect(error.code == .outOfSpace)
            #expect(error.description.contains("disk is full"))
            #expect(acknowledged.count > 100)
            let report = try journal.verify()
            #expect(report.isValid)
            #expect(report.headPosition == UInt64(acknowledged.count))
            #expect(acknowledged == Array(1...UInt64(acknowledged.count)))
            #expect(try journal.record(at: acknowledged.last!)?.payload.count == payload.count)
        }
    }

    /// LMDB sizes a new lock file without allocating it and writes it through a map: `init` on a full disk was killed
    /// by SIGBUS, and left the directories it had made. With a few pages free, LMDB began the data file and could not
    /// write its meta pages: it left a file it then refused as none of its own, and `init` there failed for ever.
    /// Now each fails in one line, and once there is room the next `init` makes the journal. With no room at all, or
    /// none for the meta pages, nothing is left; with the meta pages written, the next `init` makes the journal in them.
    @Test(.enabled(if: canMount, "needs root to mount a tmpfs; skipped"))
    func initOnAFullDiskFailsClearlyAndTheNextOneSucceeds() async throws {
        try await Tmpfs.mounted(size: "1m") { directory in
            let filler = directory.child("filler")
            let journal = directory.child("new/journal")
            for free in [0, 8, 16] {
                #expect(FileManager.default.createFile(atPath: filler, contents: Data(count: (1_024 - free) << 10)))
                let result = try run(BuiltProgram.liftledger, ["init", "--journal", journal])
                #expect(result.status == 1, "\(free) KiB free")
                #expect(result.standardError.hasPrefix("liftledger: error: the disk is full: "), "\(free) KiB free")
                #expect(result.standardError.split(separator: "\n").count == 1)
                if free < 16 {
                    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["filler"])
                } else {
                    // Kept, for the next `init` to make the journal in: 8 KiB, the two meta pages.
                    let attributes = try FileManager.default.attributesOfItem(atPath: journal + "/data.mdb")
                    #expect((attributes[.size] as? Int) == 8_192)
                }
                // Cut to nothing, as in the test below: a program started meanwhile may hold it open.
                #expect(truncate(filler, 0) == 0)
                let again = try run(BuiltProgram.liftledger, ["init", "--journal", journal])
                #expect(again.status == 0 && again.standardOutput.contains(": created journal "), "\(free) KiB free")
                try FileManager.default.removeItem(atPath: directory.child("new"))
            }
        }
    }

    /// An empty lock file alone, as an `init` killed before LMDB sized it leaves one, on a full disk: left to LMDB
    /// (it was there already), it was sized and written through a map, and `init` was killed by SIGBUS again.
    @Test(.enabled(if: canMount, "needs root to mount a tmpfs; skipped"))
    func initBesideAnEmptyLockFileOnAFullDiskFailsClearly() async throws {
        try await Tmpfs.mounted(size: "1m") { directory in
            let journal = directory.child("journal")
            #expect(mkdir(journal, 0o700) == 0)
            #expect(FileManager.default.createFile(atPath: journal + "/lock.mdb", contents: Data()))
            let filler = directory.child("filler")
            var free = statvfs()
            #expect(statvfs(directory.path, &free) == 0)
            #expect(
                FileManager.default.createFile(
                    atPath: filler, contents: Data(count: Int(free.f_bavail) * Int(free.f_frsize))))
            defer { truncate(filler, 0) }
            let result = try run(BuiltProgram.liftledger, ["init", "--journal", journal])
            #expect(result.status == 1, "\(result.standardError)")
            #expect(result.standardError.hasPrefix("liftledger: error: the disk is full: "))
        }
    }

    /// A lock file as LMDB leaves one, its second page never written (so never given space), on a disk that then
    /// fills: the space asked for it at every opening was refused, and every command, `backup` too, failed. It is left
    /// to LMDB, as before.
    @Test(.enabled(if: canMount, "needs root to mount a tmpfs; skipped"))
    func aJournalWhoseLockFileHasAHoleIsReadOnAFullDisk() async throws {
        try await Tmpfs.mounted(size: "1m") { directory in
            let journal = directory.child("journal")
            _ = try await Journal.open(at: journal, create: true).append(
                [ProposedEvent(type: "Filler", encoding: .opaque, payload: [1, 2, 3])], to: "filler")
            // Its first page written, its second a hole, as LMDB's `ftruncate` and its first writes leave it.
            let lockFile = journal + "/lock.mdb"
            #expect(unlink(lockFile) == 0)
            #expect(FileManager.default.createFile(atPath: lockFile, contents: Data(count: 4_096)))
            #expect(truncate(lockFile, 8_192) == 0)
            let filler = directory.child("filler")
            var free = statvfs()
            #expect(statvfs(directory.path, &free) == 0)
            let room = Int(free.f_bavail) * Int(free.f_frsize)
            #expect(FileManager.default.createFile(atPath: filler, contents: Data(count: room)))
            defer { truncate(filler, 0) }
            let verify = try run(BuiltProgram.liftledger, ["verify", "--journal", journal])
            #expect(
                verify.status == 0 && verify.standardOutput.hasPrefix("ok: 1 record in 1 stream"),
                "\(verify.standardError)")
            let elsewhere = try TemporaryDirectory()
            let backup = try run(
                BuiltProgram.liftledger, ["backup", "--journal", journal, elsewhere.child("copy")])
            #expect(backup.status == 0, "\(backup.standardError)")
        }
    }

    /// An import whose records fitted on the disk and whose read models then did not: it said it had failed, with
    /// "nothing was written", and every query failed too. Now the import says it is recorded and that the read models
    /// are behind, with status 0, and a query answers from a replay, as a journal on a roomy disk answers. The room
    /// left for the second import is tried in steps, as the sizes of pages written vary with the code; one of them
    /// must leave the records in and the read models behind.
    @Test(.enabled(if: canMount, "needs root to mount a tmpfs; skipped"))
    func anImportWhoseReadModelsDoNotFitIsRecordedAndQueriesAnswer() async throws {
        let exports = repositoryRoot + "/Fixtures/exports/"
        let first = [exports + "strong-2026.csv", "--unit", "kg"]
        let second = [exports + "hevy-kg-2022-2026.csv"]
        let roomy = try TemporaryDirectory().child("journal")
        for arguments in [["init"], ["import"] + first, ["import"] + second] {
            #expect(try run(BuiltProgram.liftledger, arguments + ["--journal", roomy]).status == 0)
        }
        let expected = try run(BuiltProgram.liftledger, ["history", "--json", "--journal", roomy]).standardOutput
        try await Tmpfs.mounted(size: "16m") { directory in
            let base = directory.child("base")
            for arguments in [["init"], ["import"] + first] {
                #expect(try run(BuiltProgram.liftledger, arguments + ["--journal", base]).status == 0)
            }
            var reached = false
            for freeKiB in stride(from: 768, through: 2_048, by: 256) where !reached {
                let journal = directory.child("journal-\(freeKiB)")
                try FileManager.default.copyItem(atPath: base, toPath: journal)
                let filler = directory.child("filler")
                var free = statvfs()
                #expect(statvfs(directory.path, &free) == 0)
                let room = Int(free.f_bavail) * Int(free.f_frsize) - freeKiB << 10
                #expect(FileManager.default.createFile(atPath: filler, contents: Data(count: max(room, 0))))
                defer {
                    try? FileManager.default.removeItem(atPath: filler)
                    try? FileManager.default.removeItem(atPath: journal)
                }
                let imported = try run(BuiltProgram.liftledger, ["import"] + second + ["--journal", journal])
                let projections = try run(BuiltProgram.liftledger, ["projections", "--json", "--journal", journal])
                // The training read model behind the journal: its line of `projections --json` gives a lag other
                // than 0.
                let training = projections.standardOutput.split(separator: "\n").first { $0.contains("training") }
                guard imported.standardError.contains("the read models could not follow it"),
                    training?.contains("\"lag\":0,") == false
                else { continue }
                reached = true
                #expect(imported.status == 0)
                #expect(
                    imported.standardError
                        == "liftledger: warning: the import is recorded, but the disk is full and the read models "
                        + "could not follow it; free space on it (until then, queries answer from a replay of the "
                        + "journal)\n")
                let history = try run(BuiltProgram.liftledger, ["history", "--json", "--journal", journal])
                #expect(history.status == 0, "\(history.standardError)")
                #expect(history.standardError.contains("the disk is full, so the read models cannot follow"))
                #expect(history.standardOutput == expected)
                // The commands that read through the training log, not `history`'s path, answer so too.
                let status = try run(BuiltProgram.liftledger, ["status", "--journal", journal])
                #expect(status.status == 0, "\(status.standardError)")
                let exported = try run(
                    BuiltProgram.liftledger, ["export", "--format", "strong-csv", "--journal", journal])
                let exportedRoomy = try run(
                    BuiltProgram.liftledger, ["export", "--format", "strong-csv", "--journal", roomy])
                #expect(exported.status == 0 && exported.standardOutput == exportedRoomy.standardOutput)
            }
            #expect(reached, "no room left made the import's records fit and its read models not")
        }
    }

    /// A backup into a directory it cannot write in named the staging directory inside it (`.partial-PID`), or the
    /// destination, as "the journal directory" it could not create. It now names the destination and why.
    @Test(.enabled(if: canMount, "needs root to mount a tmpfs; skipped"))
    func aBackupIntoADirectoryItCannotWriteInNamesThatDirectory() async throws {
        let home = try TemporaryDirectory()
        let journal = home.child("journal")
        _ = try Journal.open(at: journal, create: true)
        try await Tmpfs.mounted(size: "256k") { directory in
            let destination = directory.child("backup")
            #expect(mkdir(destination, 0o755) == 0)
            try Tmpfs.remountReadOnly(directory)
            let backup = try run(BuiltProgram.liftledger, ["backup", destination, "--journal", journal])
            #expect(backup.status == 1)
            #expect(
                backup.standardError
                    == "liftledger: error: cannot write the backup into \(destination): Read-only file system; give a "
                    + "new or empty directory you may write to, then back up again\n")
            // One still to make is named as the backup's, once.
            let missing = directory.child("new")
            let made = try run(BuiltProgram.liftledger, ["backup", missing, "--journal", journal])
            #expect(
                made.standardError
                    == "liftledger: error: cannot create the backup directory \(missing): Read-only file system; "
                    + "choose a directory you can write to\n")
        }
    }

    /// A backup onto a full disk named the journal's volume as the one to free space on, and made the user's existing
    /// destination directory private (0700) on its way to failing.
    @Test(.enabled(if: canMount, "needs root to mount a tmpfs; skipped"))
    func aBackupOntoAFullDiskNamesThatDiskAndLeavesTheDestinationAsItWas() async throws {
        let home = try TemporaryDirectory()
        let journal = try Journal.open(at: home.child("journal"), create: true)
        for index in 0..<1_000 {
            let proposed = ProposedEvent(
                type: "Filler", encoding: .opaque, payload: [UInt8](repeating: UInt8(index % 251), count: 1_000))
            _ = try await journal.append([proposed], to: "filler")
        }
        try await Tmpfs.mounted(size: "256k") { directory in
            let destination = directory.child("backup")
            #expect(mkdir(destination, 0o755) == 0 && chmod(destination, 0o755) == 0)
            let failure = #expect(throws: JournalError.self) { try journal.backup(to: destination) }
            #expect(failure?.code == .outOfSpace)
            #expect(
                failure?.description.hasPrefix("the disk that holds \(destination) is full; free space there") == true)
            var status = stat()
            #expect(stat(destination, &status) == 0 && status.st_mode & 0o777 == 0o755)
            let left = try FileManager.default.contentsOfDirectory(atPath: destination)
            #expect(left.isEmpty)
        }
    }

    /// LMDB reports a write cut short by a full disk as EIO, which a rebuild printed as a bare I/O error: on a volume
    /// with under a mebibyte left, it says the disk is full.
    @Test(.enabled(if: canMount, "needs root to mount a tmpfs; skipped"))
    func anInputOutputErrorOnAFullVolumeSaysTheDiskIsFull() async throws {
        try await Tmpfs.mounted(size: "4m") { directory in
            let file = directory.child("filler")
            #expect(FileManager.default.createFile(atPath: file, contents: Data(count: 3_584 << 10)))
            let error = LMDBError(code: .inputOutput, operation: "mdb_txn_commit", path: directory.path)
            #expect(error.description.hasPrefix("the disk is full: mdb_txn_commit failed at \(directory.path)"))
            #expect(error.description.contains("free space on the volume"))
            // Cut to nothing rather than removed: a program another test starts meanwhile can inherit the filler's
            // descriptor, and a removed file's pages are freed only once every descriptor of it is closed (under a
            // parallel run the volume then still read as full).
            #expect(truncate(file, 0) == 0)
            let roomy = LMDBError(code: .inputOutput, operation: "mdb_txn_commit", path: directory.path)
            #expect(roomy.description.hasPrefix("mdb_txn_commit failed"))
        }
    }

    @Test(.enabled(if: canMount, "needs root to mount a tmpfs; skipped"))
    func aReserveThatDoesNotFitIsCutOffAndAppendsGoOn() async throws {
        // A durable journal keeps at least 1 MiB of zeros past its pages; on a 1 MiB tmpfs that cannot fit, so the
        // zeros written before the disk filled must be cut off again, leaving the file as LMDB made it.
        try await Tmpfs.mounted(size: "1m") { directory in
            let journal = try Journal.open(at: directory.child("journal"), create: true)
            for index in 0..<20 {
                let proposed = ProposedEvent(
                    type: "Filler", encoding: .opaque, payload: [UInt8](repeating: 1, count: 500))
                _ = try await journal.append([proposed], to: "filler-\(index % 4)")
            }
            let statistics = try journal.statistics()
            #expect(statistics.events == 20)
            #expect(statistics.fileBytes <= statistics.usedBytes)  // LMDB may not have written its last free page
            #expect(try journal.verify().isValid)
        }
    }
}
