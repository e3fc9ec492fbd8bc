import Foundation
import LMDB

/// What a journal directory holds, and the checks made before LMDB is allowed to touch it.
enum JournalDirectory {
    enum Layout: Equatable {
        case missing
        case empty
        case journal
    }

    static let dataFile = "data.mdb"

    /// Looks at `path` without changing anything.
    static func inspect(_ path: String) throws(JournalError) -> Layout {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return .missing }
        guard isDirectory.boolValue else {
            throw JournalError(
                .notAJournal, "\(path) is a file, not a journal directory",
                remedy: "point --journal (or LIFTLEDGER_JOURNAL) at a journal directory")
        }
        guard let contents = try? FileManager.default.contentsOfDirectory(atPath: path) else {
            throw JournalError(
                .storage, "cannot read the directory \(path)",
                remedy: "check that it is yours and that you may read and write it (mode 0700)")
        }
        // A directory where LMDB's files should be, made by mistake: LMDB reports only "Is a directory".
        for file in [dataFile, "lock.mdb"] where contents.contains(file) {
            var isFileDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path + "/" + file, isDirectory: &isFileDirectory),
                isFileDirectory.boolValue
            {
                throw JournalError(
                    .notAJournal, "\(path)/\(file) is a directory, where the journal keeps a file",
                    remedy: "move it away, or point --journal at another directory")
            }
        }
        if contents.contains(dataFile) { return .journal }
        if contents.isEmpty { return .empty }
        // LMDB's lock file alone: another process is making the journal (LMDB makes the lock file first), or one was
        // killed before it made the data file, which leaves the directory as good as empty.
        if contents == ["lock.mdb"] {
            waitWhileCreated { !FileManager.default.fileExists(atPath: path + "/" + dataFile) }
            return FileManager.default.fileExists(atPath: path + "/" + dataFile) ? .journal : .empty
        }
        // What a backup into it leaves while it runs, and when it is killed: its staging directory alone.
        if let staging = contents.first, contents.count == 1, staging.hasPrefix(backupStagingPrefix) {
            let pid = pid_t(staging.dropFirst(backupStagingPrefix.count))
            if let pid, kill(pid, 0) == 0 || errno != ESRCH {
                throw JournalError(
                    .notAJournal, "\(path) holds a backup still being made (by process \(pid)) and no journal yet",
                    remedy: "wait for the backup to finish, then try again")
            }
            throw JournalError(
                .notAJournal, "\(path) holds a backup that was cut short (\(staging)) and no journal",
                remedy: "run the backup into it again, which removes what was cut short, or remove the directory "
                    + path + "/" + staging)
        }
        throw JournalError(
            .notAJournal, "\(path) holds other files and no journal",
            remedy: "point --journal at a journal directory, or at a new or empty one for liftledger init")
    }

    /// Makes the directory for a new journal, private to its owner (an existing empty one is made private too, unless
    /// `privatizingExisting` is false).
    /// Missing parents are made too (mode 0700, as `mkdir -p -m 700` does), and each directory made is flushed into
    /// its parent, so that a power cut cannot take away a journal (or a backup) once it is reported made; a failure
    /// names the part of the path that failed and the system's reason, and removes the directories made before it.
    /// Returns the directories made, parents first. A failure calls the directory `role` (the journal's, a backup's).
    @discardableResult
    static func prepare(
        _ path: String, privatizingExisting: Bool = true, role: String = "the journal directory"
    ) throws(JournalError) -> [String] {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        var made = ""
        var parentsOfMade: [String] = []
        var madeHere: [String] = []
        for (index, part) in parts.enumerated() {
            let parent = made.isEmpty && index > 0 ? "/" : made
            made += (index == 0 ? "" : "/") + part
            guard !part.isEmpty, part != ".", part != ".." else { continue }
            if mkdir(made, 0o700) == 0 {
                parentsOfMade.append(parent.isEmpty ? "." : parent)
                madeHere.append(made)
                continue
            }
            let failure = errno
            if failure == EEXIST && isDirectory(made) { continue }
            // A failure writes nothing: the directories made on the way go (rmdir leaves one another process filled).
            for directory in madeHere.reversed() { rmdir(directory) }
            let reason: String
            switch failure {
            case EEXIST:
                reason =
                    FileManager.default.fileExists(atPath: made)
                    ? "\(made) is a file" : "\(made) is a symbolic link to nothing"
            default: reason = (made == path ? "" : "\(made): ") + String(cString: strerror(failure))
            }
            throw JournalError(
                .storage, "cannot create \(role) \(path): \(reason)", remedy: "choose a directory you can write to")
        }
        if privatizingExisting || !parentsOfMade.isEmpty { chmod(path, 0o700) }
        for parent in parentsOfMade { try sync(parent) }
        return madeHere
    }

    /// Removes the data file and the lock file LMDB left in `path` when it could not write the data file's meta pages
    /// (a full disk): LMDB refuses such a file as none of its own, so the next `init` there failed too, disk freed or
    /// not. A data file with its meta pages (a journal whose making was cut short after them) is left: the next `init`
    /// makes the journal in it. So is one that cannot be read, and both files while another process has the
    /// environment open (each opener holds a shared lock of the lock file's first byte, LMDB's own way to tell).
    static func removeUnfinishedDataFile(_ path: String) {
        let data = path + "/" + dataFile
        guard FileManager.default.fileExists(atPath: data), hasMetaPages(data) == false else { return }
        Journal.unlessOpenElsewhere(at: path) {
            unlink(data)
            unlink(path + "/lock.mdb")
        }
    }

    /// Whether the directory `path` holds a data file of no bytes that no process has open: what an `init` killed
    /// before LMDB wrote a page leaves (LMDB refuses such a file as none of its own).
    static func hasEmptyDataFileOpenNowhere(_ path: String) -> Bool {
        let size = (try? FileManager.default.attributesOfItem(atPath: path + "/" + dataFile)[.size] as? Int) ?? -1
        return size == 0 && isOpenNowhere(path)
    }

    /// Whether no other process has the environment in `path` open (see ``Journal/unlessOpenElsewhere(at:_:)``).
    private static func isOpenNowhere(_ path: String) -> Bool {
        var isOpenNowhere = false
        Journal.unlessOpenElsewhere(at: path) { isOpenNowhere = true }
        return isOpenNowhere
    }

    /// Refuses a data file that begins as LMDB's do but is shorter than its two meta pages, which no process is
    /// making: a copy cut short, a truncated file. LMDB reports it as no LMDB file, which it is not quite.
    static func refuseDataFileCutShort(_ path: String) throws(JournalError) {
        guard hasMetaPages(path + "/" + dataFile) == false, isOpenNowhere(path) else { return }
        throw JournalError(
            .corruptRecord,
            "\(path)/\(dataFile) is cut short (an interrupted copy, a full disk): it ends before LMDB's two first pages",
            remedy: "restore it from a backup")
    }

    /// Whether the data file at `path` holds LMDB's two meta pages: the first opens with LMDB's magic number (at byte
    /// 16, see ``checkIsLMDB(_:)``), and the file is at least two of its pages long; nil when it cannot be read.
    private static func hasMetaPages(_ path: String) -> Bool? {
        guard let file = FileHandle(forReadingAtPath: path) else { return nil }
        guard let header = try? file.read(upToCount: 48), header.count == 48 else { return false }
        let magic = header.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 16, as: UInt32.self) }
        // The page size, the free-pages database's first field (see MetaPages in LMDB).
        let pageSize = header.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 40, as: UInt32.self) }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        return magic == 0xBEEF_C0DE && pageSize > 0 && size >= 2 * Int(pageSize)
    }

    /// Removes `directories`, made by ``prepare(_:privatizingExisting:)``, children first, when nothing was put in
    /// them: what a journal that could not be made leaves behind (`rmdir` leaves a directory another process filled).
    static func removeEmpty(_ directories: [String]) {
        for directory in directories.reversed() { rmdir(directory) }
    }

    /// `path` with its links and `.` and `..` resolved: the part that exists by the system, the rest by its words.
    static func resolved(_ path: String) -> String {
        var existing = path.isEmpty ? "." : path
        var missing: [Substring] = []
        // Each turn takes the last word off: the loop ends at "/" or ".", which exist.
        while realpath(existing, nil) == nil, existing != "/", existing != "." {
            guard let slash = existing.lastIndex(of: "/") else {
                missing.insert(Substring(existing), at: 0)
                existing = "."
                continue
            }
            missing.insert(existing[existing.index(after: slash)...], at: 0)
            existing = slash == existing.startIndex ? "/" : String(existing[..<slash])
        }
        guard let real = realpath(existing, nil) else { return path }
        defer { free(real) }
        var words = String(cString: real).split(separator: "/")
        for word in missing where word != "." && !word.isEmpty {
            if word == ".." { _ = words.popLast() } else { words.append(word) }
        }
        return "/" + words.joined(separator: "/")
    }

    /// Whether `path` is a directory, or a link to one.
    private static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// What the staging directory of a backup is named, before its process id (see `Journal.backupStaging(for:)`).
    static let backupStagingPrefix = ".partial-"

    static func prepareBackupDestination(_ path: String, journal: String) throws(JournalError) {
        // An empty path would put the staging directory, and then the copy, at the file system's root.
        guard !path.isEmpty else {
            throw JournalError.invalid(
                "the backup destination is empty", remedy: "give the path of a new or empty directory")
        }
        // A copy inside the journal's directory goes wherever the journal goes: lost with it.
        let journalDirectory = resolved(journal)
        let destination = resolved(path)
        if destination == journalDirectory || destination.hasPrefix(journalDirectory + "/") {
            throw JournalError.invalid(
                "backup destination \(path) is inside the journal's directory",
                remedy: "give a directory outside it, on another disk if you can")
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw JournalError(
                .destinationNotEmpty, "backup destination \(path) is a file",
                remedy: "give a new or empty directory as the backup destination")
        }
        // The staging directories of backups whose process is gone (killed): what they hold was never put in place.
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        where entry.hasPrefix(backupStagingPrefix) {
            guard let pid = pid_t(entry.dropFirst(backupStagingPrefix.count)), kill(pid, 0) != 0, errno == ESRCH
            else { continue }
            try? FileManager.default.removeItem(atPath: path + "/" + entry)
        }
        let layout: Layout?
        do {
            layout = try inspect(path)
        } catch  where error.code == .storage {
            throw error  // a directory that cannot be read
        } catch {
            layout = nil
        }
        switch layout {
        // A directory the user made keeps its mode: the copy's data file is private (0600) in any case.
        case .missing, .empty: try prepare(path, privatizingExisting: false, role: "the backup directory")
        default:
            throw JournalError(
                .destinationNotEmpty, "backup destination \(path) is not empty",
                remedy: "give a new or empty directory as the backup destination")
        }
    }

    /// Checks, by reading the data file's first page (no LMDB involved), that `path` holds an LMDB environment:
    /// LMDB's first meta page starts with the magic number 0xBEEFC0DE, in the machine's byte order, at offset 16.
    static func checkIsLMDB(_ path: String) throws(JournalError) {
        func magic() -> UInt32? {
            let header = FileHandle(forReadingAtPath: path + "/" + dataFile).flatMap { try? $0.read(upToCount: 20) }
            return header.flatMap { bytes -> UInt32? in
                bytes.count == 20
                    ? bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 16, as: UInt32.self) } : nil
            }
        }
        var found = magic()
        // A data file still empty beside a lock file: another process is creating the journal.
        if found == nil, hasLockFile(path) {
            waitWhileCreated { magic() == nil }
            found = magic()
        }
        guard found == 0xBEEF_C0DE else {
            throw JournalError(
                .notAJournal, "\(path)/\(dataFile) is not an LMDB file",
                remedy: "point --journal at a LiftLedger journal directory")
        }
    }

    /// Waits, up to five seconds, while `isBeingCreated` says another process is making the journal (two `init`s at
    /// once, or a command beside one): what it sees then is the journal, not a half-made one.
    private static func waitWhileCreated(_ isBeingCreated: () throws -> Bool) rethrows {
        for _ in 0..<500 where try isBeingCreated() { usleep(10_000) }
    }

    /// Flushes `path`, a file or a directory (whose entries a rename or a new file changed), to the disk: LMDB's copy
    /// is written without a sync, and a journal or a backup is to survive a power cut or a stick pulled out once it is
    /// reported made. A file system that cannot flush a directory (`EINVAL`, as some shared folders answer) is not a
    /// failure.
    static func sync(_ path: String) throws(JournalError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        var failure = descriptor < 0 ? errno : 0
        if descriptor >= 0 {
            while fsync(descriptor) != 0 {
                guard errno == EINTR else {
                    failure = errno
                    break
                }
            }
            close(descriptor)
        }
        guard failure != 0, !(failure == EINVAL && isDirectory(path)) else { return }
        throw JournalError(
            .storage, "cannot flush \(path) to the disk: \(String(cString: strerror(failure)))",
            remedy: "check the disk (a full or removed one?), then try again")
    }

    /// A file's device and inode: which file a name stands for.
    struct FileIdentity: Equatable {
        let device: UInt64
        let inode: UInt64
    }

    /// The identity of the file at `path`; nil when there is none.
    static func fileIdentity(_ path: String) -> FileIdentity? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }

    /// Whether `path` lies on a file system mounted read-only.
    static func isOnReadOnlyFileSystem(_ path: String) -> Bool {
        var volume = statvfs()
        return statvfs(path, &volume) == 0 && volume.f_flag & UInt(ST_RDONLY) != 0
    }

    /// True when the directory has LMDB's lock file: some process has opened it the usual way, and one may be
    /// writing now.
    static func hasLockFile(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: path + "/lock.mdb")
    }

    /// Opens `path` read-only without the lock file, creating nothing, and checks that it is a journal this build
    /// can read. Only for a directory without a lock file: without it, a reader cannot tell a meta page that a
    /// writer is halfway through.
    static func inspectWithoutLocking(_ path: String, mapSize: Int, checkingPages: Bool) throws {
        let environment: Environment
        do throws(LMDBError) {
            environment = try Environment.open(path: path, options: .init(mapSize: mapSize, inspectOnly: true))
        } catch  where error.code == .invalid || error.code == .versionMismatch {
            throw JournalError(
                .notAJournal, "\(path)/\(dataFile) is not an LMDB file this build can read",
                remedy:
                    "point --journal at a LiftLedger journal directory, or restore it from a backup if it is damaged")
        } catch {
            throw JournalError.storage(error)
        }
        if checkingPages { try Journal.refuseDamagedPages(environment) }
        _ = try checkIsJournal(environment, waitingForItsMaker: true)
    }

    /// What an LMDB environment holds.
    enum Contents {
        case journal
        /// No database at all: the making of a journal was cut short (an `init` killed before its first commit).
        case unmade
    }

    /// Checks, without writing, that `environment` holds a journal of a format this build reads, or nothing at all.
    /// `waitingForItsMaker`, an environment of no journal yet is waited for while another process may be making one.
    static func checkIsJournal(_ environment: Environment, waitingForItsMaker: Bool) throws -> Contents {
        let path = environment.path
        let notAJournal = JournalError(
            .notAJournal, "\(path) holds an LMDB file that is not a LiftLedger journal",
            remedy: "point --journal at a LiftLedger journal directory, or restore it from a backup if it is damaged")
        func openMeta() throws -> Database? {
            do {
                return try environment.openDatabases([JournalStore.metaName], create: false).first
            } catch let error as LMDBError where error.code == .notFound || error.code == .invalid {
                return nil
            } catch let error as LMDBError {
                throw JournalError.storage(error)
            }
        }
        var found = try openMeta()
        func metaPagesRecordDatabases() throws -> Bool {
            try mappingStorageErrors { try environment.metaPagesRecordDatabases() }
        }
        // No journal yet in an environment of at most two transactions (the one that makes it, and one another opener
        // may commit): another process may be making the journal in it. Not when a meta page records databases: a
        // maker's commit is found as it lands there, and a damaged meta page (below) has no maker to wait for.
        try waitWhileCreated {
            guard waitingForItsMaker, found == nil, environment.info().lastTransactionID <= 2 else { return false }
            found = try openMeta()
            return try found == nil && !metaPagesRecordDatabases()
        }
        /// With no journal where LMDB looks: nil for an environment that never held one, whose making was cut short.
        /// A meta page that records databases LMDB does not go by is another process's journal, made since, which a
        /// new transaction finds (at once, or once its maker's commit is done), or else a damaged newer meta page,
        /// which `init` would write an empty journal over.
        func madeSince() throws -> Database? {
            if let made = try openMeta() { return made }
            guard try mappingStorageErrors({ try environment.databaseNames() }).isEmpty else {
                // A maker commits every database of a journal at once: ones seen since the look above are its.
                if let made = try openMeta() { return made }
                throw notAJournal
            }
            guard try metaPagesRecordDatabases() else { return nil }
            // A maker's commit writes its meta page a moment before LMDB goes by it (the lock file's transaction id is
            // set after the write): looked at again for a tenth of a second, which a damaged page does not outlast.
            for _ in 0..<20 {
                if let made = try openMeta() { return made }
                usleep(5_000)
            }
            throw JournalError(
                .corruptRecord,
                "the journal at \(path) is damaged: the meta page LMDB goes by holds no journal, while the other one "
                    + "holds it",
                remedy: "keep the directory as it is, and use another copy: a backup, or the journal this one was "
                    + "backed up from")
        }
        guard let meta = try found ?? madeSince() else { return .unmade }
        let (version, idBytes) = try mappingStorageErrors {
            try environment.read { txn in
                (
                    try txn.withValue(forKey: JournalStore.MetaKey.format, in: meta) {
                        JournalStore.integer(UInt32.self, $0)
                    },
                    try txn.withValue(forKey: JournalStore.MetaKey.journalID, in: meta) { $0.count }
                )
            }
        }
        guard let version, let version, idBytes == 16 else { throw notAJournal }
        guard version <= Journal.formatVersion else {
            throw JournalError(
                .newerFormat,
                "\(path) is a journal of format version \(version); this build reads up to \(Journal.formatVersion)",
                remedy: "upgrade liftledger to open it; the journal was not changed")
        }
        return .journal
    }
}
