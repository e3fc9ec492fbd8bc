import Foundation
import LMDB

/// When an append counts as done.
public enum Durability: Sendable, Equatable, CustomStringConvertible {
    /// Acknowledged only after the commit is on disk (fsync). Concurrent appends share one fsync per batch.
    case durable
    /// `MDB_NOSYNC`, with a background sync every `syncInterval`: survives a killed process. A power cut or a
    /// system crash may lose the appends of the last interval and, unless the file system keeps the order of writes,
    /// damage the journal (LMDB's documented risk of `MDB_NOSYNC`; `verify` tells).
    case relaxed(syncInterval: Duration)

    public static let relaxed = Durability.relaxed(syncInterval: .milliseconds(100))

    public var description: String {
        switch self {
        case .durable: "durable"
        case .relaxed(let interval): "relaxed (sync every \(interval))"
        }
    }
}

/// How to open a journal.
public struct JournalOptions: Sendable {
    public var durability: Durability
    /// The initial memory map; it grows as the journal does.
    public var initialMapSize: Int
    /// In durable mode, keep zero-filled space past the last page, so that commits write inside the file instead
    /// of making it longer (docs/FORMAT.md). Off, the file holds its pages only.
    public var reservesFileSpace: Bool
    /// Check every page of an existing journal as it opens, before anything is read through LMDB's trees (see
    /// `Environment.checkPages()`): a damaged page is refused as damage rather than followed into a crash. For what must
    /// get through a damaged journal to report it, as `verify` and `backup` must; a walk of the whole file.
    public var checksPagesFirst: Bool

    public init(
        durability: Durability = .durable, initialMapSize: Int = 64 << 20, reservesFileSpace: Bool = true,
        checksPagesFirst: Bool = false
    ) {
        self.durability = durability
        self.initialMapSize = initialMapSize
        self.reservesFileSpace = reservesFileSpace
        self.checksPagesFirst = checksPagesFirst
    }
}

/// An append-only, hash-chained log of events in an LMDB environment, with streams, global positions, idempotent
/// appends and optimistic concurrency. Nothing in it knows what the events mean.
public final class Journal: Sendable {
    /// The journal's on-disk format version (docs/FORMAT.md).
    public static let formatVersion: UInt32 = 1

    public let path: String
    public let id: UUID
    public let durability: Durability
    let store: JournalStore
    private let committer: GroupCommitter
    /// Whether every page was checked as the journal opened (``JournalOptions/checksPagesFirst``).
    let pagesChecked: Bool

    /// Opens the journal in the directory `path`. With `create`, makes the directory (mode 0700) and an empty
    /// journal in it when there is none yet; an existing journal is opened as it is.
    public static func open(at path: String, options: JournalOptions = .init(), create: Bool = false) throws -> Journal
    {
        var layout = try JournalDirectory.inspect(path)
        // An `init` killed before LMDB wrote the data file's first page left it empty: no journal, nothing to lose.
        if layout == .journal, JournalDirectory.hasEmptyDataFileOpenNowhere(path) {
            guard create else {
                throw JournalError(
                    .noJournal, "no journal at \(path): the making of one was cut short",
                    remedy: "make it anew with: liftledger init --journal \(path)")
            }
            JournalDirectory.removeUnfinishedDataFile(path)
            layout = .empty
        }
        var made: [String] = []
        switch layout {
        case .missing, .empty:
            guard create else {
                throw JournalError(
                    .noJournal, "no journal at \(path)", remedy: "create one with: liftledger init --journal \(path)")
            }
            made = try JournalDirectory.prepare(path)
        case .journal:
            try JournalDirectory.checkIsLMDB(path)
            try JournalDirectory.refuseDataFileCutShort(path)
            if !JournalDirectory.hasLockFile(path) {
                try JournalDirectory.inspectWithoutLocking(
                    path, mapSize: options.initialMapSize, checkingPages: options.checksPagesFirst)
            }
        }
        let readOnly = layout == .journal && JournalDirectory.isOnReadOnlyFileSystem(path)
        do {
            return try Journal(
                path: path, options: options, existing: layout == .journal, create: create, readOnly: readOnly)
        } catch let error as JournalError where error.code == .readOnly && layout == .journal && !readOnly {
            // A file system that says it is writable and is not (a read-only export shared over the network).
            return try Journal(path: path, options: options, existing: true, create: create, readOnly: true)
        } catch {
            // A journal that could not be made (a full disk) leaves nothing behind that would stop the next try.
            if layout != .journal { JournalDirectory.removeUnfinishedDataFile(path) }
            JournalDirectory.removeEmpty(made)
            throw error
        }
    }

    /// Runs `body` unless another process has the environment in the directory `path` open: LMDB holds a shared lock
    /// of byte 0 of the lock file in each process that has it open, and `body` runs while this one holds a write lock
    /// of that byte. Without a lock file, `body` runs; with one that cannot be opened (another user's), it does not.
    /// For removing the files of a journal whose making failed. Not for a journal this process has open: locks never
    /// conflict within one process, and closing the lock file drops every lock of it this process holds.
    public static func unlessOpenElsewhere(at path: String, _ body: () -> Void) {
        let descriptor = Glibc.open(path + "/lock.mdb", O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { body() }
            return
        }
        defer { close(descriptor) }
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = 0
        lock.l_len = 1
        if fcntl(descriptor, F_SETLK, &lock) == 0 { body() }
    }

    /// Whether the journal is on a read-only file system (a read-only mount, a snapshot): it was opened for reading
    /// only, without LMDB's lock file, which no process can write there; an append is an error.
    public var isReadOnly: Bool { store.environment.options.readOnly }

    /// Whether this open made the journal: it was missing, or its making was cut short, and no other process made it
    /// first.
    public var wasMadeByThisOpen: Bool { store.madeJournal }

    /// Whether this process has appended records to a journal since it started: a command that cannot print what it
    /// did says by it whether anything was recorded.
    public static var hasAppendedInThisProcess: Bool { JournalStore.hasAppended.load(ordering: .relaxed) }

    /// Opens the environment; for an `existing` directory, checks that it holds a journal before anything is
    /// created in it. With `create`, makes the journal in a new directory, or in one whose making was cut short.
    /// `readOnly` opens an existing journal on a read-only file system, for reading only.
    private init(path: String, options: JournalOptions, existing: Bool, create: Bool, readOnly: Bool) throws {
        var environmentOptions = EnvironmentOptions(mapSize: options.initialMapSize, readOnly: readOnly)
        if case .relaxed = options.durability { environmentOptions.noSync = true }
        let environment = try mappingStorageErrors { try Environment.open(path: path, options: environmentOptions) }
        if existing, options.checksPagesFirst { try Self.refuseDamagedPages(environment) }
        pagesChecked = existing && options.checksPagesFirst
        // Another process making the journal is not waited for by one that would make it too: their making is one
        // write transaction each, and the second finds the first's journal.
        let making =
            try !existing || JournalDirectory.checkIsJournal(environment, waitingForItsMaker: !create) == .unmade
        guard (create && !readOnly) || !making else {
            throw JournalError(
                .noJournal, "no journal at \(path): the making of one was cut short",
                remedy: "create one with: liftledger init --journal \(path)")
        }
        let store = try JournalStore(
            environment: environment, create: making, reservesFileSpace: options.reservesFileSpace && !readOnly)
        // The new data file's name on the disk, as its first commit is, in durable mode.
        if making, case .durable = options.durability { try JournalDirectory.sync(path) }
        self.path = path
        self.id = store.journalID
        self.durability = options.durability
        self.store = store
        let syncInterval: Duration?
        if case .relaxed(let interval) = options.durability { syncInterval = interval } else { syncInterval = nil }
        self.committer = GroupCommitter(store: store, syncInterval: syncInterval)
    }

    deinit { committer.stop() }

    // MARK: Appending

    /// Appends `events`, in order, to `stream`, if the stream's version is what `expectedVersion` says.
    ///
    /// Returns once the events are committed (and on disk, in `durable` mode). All the events are appended or none
    /// is. Re-appending events whose ids are stored already, with the same content, returns their positions and
    /// writes nothing.
    public func append(
        _ events: [ProposedEvent], to stream: String, expectedVersion: ExpectedVersion = .any
    ) async throws -> AppendResult {
        try Names.validateNewStreamID(stream)
        guard !events.isEmpty else {
            throw JournalError.invalid("an append needs at least one event", remedy: "pass one or more events")
        }
        for event in events { try Names.validateNew(event) }
        let request = AppendRequest(stream: stream, expectedVersion: expectedVersion, events: events)
        if let result = committer.commitIfIdle(request) { return try result.get() }
        return try await withCheckedThrowingContinuation { continuation in
            committer.submit(request) { continuation.resume(with: $0) }
        }
    }

    /// Appends to several streams at once, all or nothing, in one write transaction: an append that fails its
    /// checks (a wrong expected version, an id stored with other content) throws, and nothing at all is written.
    /// Appends whose events are all stored already, with the same content, are idempotent retries, as with
    /// ``append(_:to:expectedVersion:)``.
    public func append(_ appends: [StreamAppend]) async throws -> [AppendResult] {
        var requests: [AppendRequest] = []
        for append in appends {
            try Names.validateNewStreamID(append.stream)
            guard !append.events.isEmpty else {
                throw JournalError.invalid("an append needs at least one event", remedy: "pass one or more events")
            }
            for event in append.events { try Names.validateNew(event) }
            requests.append(
                AppendRequest(stream: append.stream, expectedVersion: append.expectedVersion, events: append.events))
        }
        guard !requests.isEmpty else { return [] }
        let results = try store.commitAll(requests)
        // Committed on this thread, past the writer's relaxed-mode sync clock: sync now.
        if case .relaxed = durability { try mappingStorageErrors { try store.environment.sync() } }
        return results
    }

    /// Gives the records of a restore one at a time, and nil after the last.
    public typealias NextRecord = () throws -> ExportedRecord?

    /// Writes records exported from another journal, with their positions, stream versions, ids, times and
    /// metadata, so that the chain hashes come out as exported: all or nothing. The records must continue this
    /// journal, and each must reproduce its exported hash. `records` starts them from the first, each time it is
    /// called (a write runs again after the map grows); what it returns gives them one at a time, so that a large
    /// export is never held whole, and an error that throws writes nothing. Returns the number written. The map is
    /// grown first to hold `expectedBytes` (when it can be), so that the records are not read again after a growth.
    @discardableResult
    public func restore(expectedBytes: Int = 0, _ records: () -> NextRecord) async throws -> Int {
        // A hint: a map that cannot grow so far now grows as the records need, and fails only if they need it.
        try? store.environment.growMap(toHold: expectedBytes)
        let count = try store.restore(records)
        if case .relaxed = durability { try mappingStorageErrors { try store.environment.sync() } }
        return count
    }

    // MARK: Reading

    /// The position of the record with event id `id`, or nil when it is not stored.
    public func position(ofEvent id: UUID) throws -> UInt64? {
        try mappingStorageErrors { try store.environment.read { try store.position(ofEvent: id, $0) } }
    }

    /// The position of the last record (0 for an empty journal) and its chain hash.
    public func head() throws -> (position: UInt64, hash: [UInt8]) {
        try mappingStorageErrors { try store.environment.read { try store.readHead($0) } }
    }

    /// The current version of `stream`: the number of events in it (0 when it does not exist).
    public func version(of stream: String) throws -> UInt64 {
        try mappingStorageErrors { try store.environment.read { try store.streamHead(stream, $0).version } }
    }

    /// The record at `position`, or nil past the head.
    public func record(at position: UInt64) throws -> EventRecord? {
        try mappingStorageErrors { try store.environment.read { try store.record(at: position, $0) } }
    }

    /// Up to `limit` records from `position` on, read in one short transaction.
    public func records(from position: UInt64, limit: Int) throws -> [EventRecord] {
        try mappingStorageErrors { try store.environment.read { try store.records(from: position, limit: limit, $0) } }
    }

    /// Calls `body` with each record from `position` on, up to `limit` records, reading `chunkSize` records per
    /// short read transaction so that memory stays bounded; `body` runs outside any transaction. A record that cannot
    /// be read (a damaged one) throws once `body` has had every record before it.
    public func forEachRecord(
        from position: UInt64 = 1, limit: Int = .max, chunkSize: Int = 4_096, _ body: (EventRecord) throws -> Void
    ) throws {
        var next = max(position, 1)
        var remaining = limit
        while remaining > 0 {
            let chunk: [EventRecord]
            do {
                chunk = try records(from: next, limit: min(chunkSize, remaining))
            } catch {
                // The chunk failed as a whole: its records are read again one by one, up to the one that fails.
                for position in next..<(next + UInt64(min(chunkSize, remaining))) {
                    guard let record = try record(at: position) else { break }
                    try body(record)
                }
                throw error
            }
            for record in chunk { try body(record) }
            guard let last = chunk.last, chunk.count == min(chunkSize, remaining) else { return }
            next = last.position + 1
            remaining -= chunk.count
        }
    }

    /// The records of `stream` from version `version` on (forward) or down from it (backward).
    public func readStream(
        _ stream: String, from version: UInt64 = 1, direction: ReadDirection = .forward, limit: Int = .max
    ) throws -> [EventRecord] {
        try Names.validateStreamID(stream)
        return try mappingStorageErrors {
            try store.environment.read {
                try store.streamRecords(stream, from: version, direction: direction, limit: limit, $0)
            }
        }
    }

    /// Calls `body` with each record of `stream`, oldest first, as `transaction` (a transaction of ``environment``)
    /// sees them, until it returns false. Each record is lent for the call (see ``RecordView``). Cheaper than
    /// ``readStream(_:from:direction:limit:)`` for a whole stream: nothing is copied, and records that lie close
    /// together are read in turn rather than looked up one by one.
    public func forEachRecord(
        of stream: String, in transaction: Transaction, _ body: (RecordView) throws -> Bool
    ) throws {
        try Names.validateStreamID(stream)
        try mappingStorageErrors { try store.forEachStreamRecord(stream, transaction, body) }
    }

    /// Calls `body` with each record of `stream`, as ``forEachRecord(of:in:_:)`` does, in a read transaction of its
    /// own.
    public func forEachRecord(of stream: String, _ body: (RecordView) throws -> Bool) throws {
        try mappingStorageErrors {
            try store.environment.read { try forEachRecord(of: stream, in: $0, body) }
        }
    }

    /// New records from `position` on, as they are committed, by this process or any other. Ends when cancelled.
    public func follow(from position: UInt64, pollInterval: Duration = .milliseconds(50)) -> JournalFollower {
        JournalFollower(journal: self, next: max(position, 1), pollInterval: pollInterval)
    }

    // MARK: Read models kept beside the journal

    /// The LMDB environment that holds the journal. Read models may keep databases of their own in it, so that their
    /// changes commit in the transaction that read the events they fold; they must never write the journal's own
    /// databases (docs/FORMAT.md names them).
    public var environment: Environment { store.environment }

    /// The position of the last record as `transaction`, a transaction of ``environment``, sees it.
    public func headPosition(in transaction: Transaction) throws -> UInt64 {
        try mappingStorageErrors { try store.readHead(transaction).position }
    }

    /// The version of `stream` as `transaction`, a transaction of ``environment``, sees it.
    public func version(of stream: String, in transaction: Transaction) throws -> UInt64 {
        try Names.validateStreamID(stream)
        return try mappingStorageErrors { try store.streamHead(stream, transaction).version }
    }

    /// Calls `body` with a reader of the records from `position` on, as `transaction`, a transaction of
    /// ``environment``, sees them. The reader reads each record where it lies, without copying it (see ``RecordView``).
    public func withRecords<Result>(
        from position: UInt64, in transaction: Transaction, _ body: (inout RecordReader) throws -> Result
    ) throws -> Result {
        try mappingStorageErrors { try store.withRecords(from: position, transaction, body) }
    }

    // MARK: Maintenance

    /// Makes visible a commit left by a writer process that died between committing and publishing it (see
    /// `Environment.adoptAbandonedCommit`). Opening a journal does this when there is one; call it after killing a
    /// writer.
    public func adoptAbandonedCommit() throws {
        try mappingStorageErrors { try store.environment.adoptAbandonedCommit() }
    }

    /// Figures about the journal: counts, sizes and the head.
    public func statistics() throws -> JournalStatistics {
        try store.statistics(path: path)
    }

    /// Writes a compact, consistent copy of the journal into `destination`, a new or empty directory, while writers
    /// go on. The copy is a journal: open it like any other. It is written into a staging directory inside the
    /// destination (see ``backupStaging(for:)``), verified, and moved into place: a backup that fails or is killed
    /// leaves no data file in the destination, and a damaged journal is refused rather than copied as if it were whole.
    public func backup(to destination: String) throws {
        // The copy reads every page through LMDB, which follows a damaged one's pointers wherever they lead.
        if !pagesChecked { try Self.refuseDamagedPages(store.environment) }
        let destinationExisted = FileManager.default.fileExists(atPath: destination)
        try JournalDirectory.prepareBackupDestination(destination, journal: path)
        let staging = Self.backupStaging(for: destination)
        let dataFile = "/" + JournalDirectory.dataFile
        // The copy's device and inode, once it is to take its name.
        var copied: JournalDirectory.FileIdentity?
        do {
            // The staging directory is the backup's own business: a destination it cannot be made in is named.
            if mkdir(staging, 0o700) != 0, case let failure = errno, failure != EEXIST {
                throw JournalError(
                    .storage, "cannot write the backup into \(destination): \(String(cString: strerror(failure)))",
                    remedy: "give a new or empty directory you may write to, then back up again")
            }
            try JournalDirectory.prepare(staging)
            do {
                try mappingStorageErrors { try store.environment.copy(to: staging) }
            } catch let error as JournalError where error.code == .outOfSpace {
                throw JournalError(
                    .outOfSpace, "the disk that holds \(destination) is full",
                    remedy: "free space there, or back up to another disk; the journal was not changed")
            }
            chmod(staging + dataFile, 0o600)
            let report = try Journal.open(at: staging).verify()
            if let problem = report.problem {
                throw JournalError(
                    .corruptRecord, "the journal is damaged (\(problem)), and a copy of it would be too",
                    remedy: "run liftledger verify on it, and restore it from an earlier backup",
                    position: problem.position)
            }
            // On the disk before it takes its name, and its name on the disk before the backup is reported done.
            try JournalDirectory.sync(staging + dataFile)
            copied = JournalDirectory.fileIdentity(staging + dataFile)
            // Within one directory, so within one file system: the rename is atomic, and needs no hard links (a USB
            // stick's exFAT has none).
            guard rename(staging + dataFile, destination + dataFile) == 0 else {
                throw JournalError(
                    .storage, "cannot put the backup into \(destination): \(String(cString: strerror(errno)))",
                    remedy: "give a new or empty directory you may write to, then back up again")
            }
            try JournalDirectory.sync(destination)
            try? FileManager.default.removeItem(atPath: staging)
        } catch {
            // A backup that failed leaves no data file: not one in place whose name could not be flushed either
            // (this backup's, not one another backup put there since).
            if let copied, JournalDirectory.fileIdentity(destination + dataFile) == copied {
                unlink(destination + dataFile)
            }
            try? FileManager.default.removeItem(atPath: staging)
            if !destinationExisted { rmdir(destination) }
            throw error
        }
    }

    /// Refuses an environment with a damaged page (see `Environment.checkPages()`), naming it.
    static func refuseDamagedPages(_ environment: Environment) throws {
        guard let damage = try mappingStorageErrors({ try environment.checkPages() }) else { return }
        let problem = JournalStore.problem(damage)
        throw JournalError(
            .corruptRecord, "the journal is damaged at \(problem)", remedy: problem.remedy, position: problem.position)
    }

    /// Where a backup into `destination` is written before it is moved into place: a directory inside it, named for
    /// the process. One left by a process that is gone is removed by the next backup there.
    public static func backupStaging(for destination: String) -> String {
        destination + "/" + JournalDirectory.backupStagingPrefix + String(getpid())
    }
}

public enum ReadDirection: Sendable {
    case forward
    case backward
}

/// Figures about a journal.
public struct JournalStatistics: Sendable {
    public let journalID: UUID
    public let formatVersion: UInt32
    public let createdAt: Timestamp
    public let events: UInt64
    public let streams: Int
    public let headPosition: UInt64
    public let headHash: [UInt8]
    /// Size of the data file on disk.
    public let fileBytes: Int
    /// Bytes in the pages in use.
    public let usedBytes: Int
    public let mapSize: Int
}
