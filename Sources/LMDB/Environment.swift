import CLMDB
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// How to open an environment.
public struct EnvironmentOptions: Sendable, Equatable {
    /// Initial size of the memory map in bytes. Writes that do not fit grow it transparently.
    public var mapSize: Int
    public var maxReaders: UInt32
    public var maxDatabases: UInt32
    /// Skip the fsync at commit (`MDB_NOSYNC`): survives a killed process, may lose recent commits on power loss.
    public var noSync: Bool
    /// Open for reading only (`MDB_RDONLY`): for an environment on a file system mounted read-only, where LMDB goes
    /// without its lock file (no process can write there). A write transaction is an error.
    public var readOnly: Bool
    /// Open without the lock file (`MDB_NOLOCK`), read-only, private to the caller: for inspecting a directory
    /// without creating or changing anything in it. No other process may write meanwhile.
    public var inspectOnly: Bool
    /// Permissions for files LMDB creates.
    public var fileMode: mode_t

    public init(
        mapSize: Int = 64 << 20, maxReaders: UInt32 = 126, maxDatabases: UInt32 = 128,
        noSync: Bool = false, readOnly: Bool = false, inspectOnly: Bool = false, fileMode: mode_t = 0o600
    ) {
        self.mapSize = mapSize
        self.maxReaders = maxReaders
        self.maxDatabases = maxDatabases
        self.noSync = noSync
        self.readOnly = readOnly || inspectOnly
        self.inspectOnly = inspectOnly
        self.fileMode = fileMode
    }
}

/// Environment-wide figures from `mdb_env_info`.
public struct EnvironmentInfo: Sendable {
    public let mapSize: Int
    public let lastPage: Int
    public let lastTransactionID: Int
    public let maxReaders: Int
    public let readers: Int
}

/// An LMDB environment: one memory-mapped file holding named databases.
///
/// One instance exists per path per process (opening a path again returns the same instance), as LMDB requires.
/// Transactions run inside `read` and `write` closures; a write that runs out of map space is aborted, the map
/// grows while no transaction of this process is live, and the closure runs again.
///
/// `@unchecked Sendable`: the `MDB_env` is opened with `MDB_NOTLS`, so LMDB allows its use from any thread; the
/// mutable properties of the map, its size and where it lies (`map`), change only while `gate` is held exclusively,
/// which waits for every transaction in this process to end (each holds `gate` shared).
public final class Environment: @unchecked Sendable {
    let handle: OpaquePointer
    /// The directory, as given when first opened.
    public let path: String
    public let options: EnvironmentOptions
    /// The data file's page size.
    public let pageSize: Int
    private let registryKey: String?
    /// The data file, as `/proc/self/maps` names its mapping (resolved at open, so a later `chdir` cannot change it).
    private let dataFile: String
    private let gate = ReadWriteLock()
    /// Taken around every write transaction (see ``WriterLock``).
    private let writers: WriterLock
    /// The data file's descriptor, which LMDB keeps open for the environment's life.
    private let dataFileDescriptor: Int32
    /// Where the data file is mapped, as `/proc/self/maps` gives it; nil where it does not. Set at open and when the
    /// map is resized, with `gate` held exclusively (or before anyone else has the environment).
    private var map: Range<UInt>?
    /// Serialises `mdb_dbi_open`, which LMDB forbids in concurrent transactions.
    private let databaseOpening = Mutex(())
    private let fileSpaceReserve = FileSpaceReserve()

    /// Opens (creating files if needed, unless read-only) the environment in the directory `path`.
    public static func open(path: String, options: EnvironmentOptions = .init()) throws(LMDBError) -> Environment {
        ForkGuard.install()
        try ForkGuard.check("mdb_env_open")
        if options.inspectOnly {
            return try Environment(path: path, options: options, registryKey: nil)
        }
        let key = canonicalPath(path)
        while true {
            // The closure only takes strong references; releasing one inside it could run `deinit`, which takes the
            // registry lock again.
            let found: Result<Environment, LMDBError>? = EnvironmentRegistry.shared.withLock {
                open -> Result<Environment, LMDBError>? in
                switch open[key] {
                case .some(let box):
                    return box.environment.map { .success($0) }  // nil: closing right now, so wait
                case .none:
                    do throws(LMDBError) {
                        let environment = try Environment(path: path, options: options, registryKey: key)
                        open[key] = WeakEnvironment(environment: environment)
                        return .success(environment)
                    } catch {
                        return .failure(error)
                    }
                }
            }
            guard let found else {
                sched_yield()
                continue
            }
            let environment = try found.get()
            guard environment.options.noSync == options.noSync, environment.options.readOnly == options.readOnly else {
                throw LMDBError(
                    code: .misuse, operation: "mdb_env_open", path: path,
                    remedy: "this process has the environment open with other durability or access flags")
            }
            return environment
        }
    }

    private init(path: String, options: EnvironmentOptions, registryKey: String?) throws(LMDBError) {
        var env: OpaquePointer?
        try check(mdb_env_create(&env), "mdb_env_create", path: path)
        guard let env else { throw LMDBError(code: .misuse, operation: "mdb_env_create", path: path) }
        do {
            try check(mdb_env_set_maxreaders(env, options.maxReaders), "mdb_env_set_maxreaders", path: path)
            try check(mdb_env_set_maxdbs(env, options.maxDatabases), "mdb_env_set_maxdbs", path: path)
            try check(mdb_env_set_mapsize(env, options.mapSize), "mdb_env_set_mapsize", path: path)
            var flags = UInt32(MDB_NOTLS)
            if options.noSync { flags |= UInt32(MDB_NOSYNC) }
            if options.readOnly { flags |= UInt32(MDB_RDONLY) }
            if options.inspectOnly { flags |= UInt32(MDB_NOLOCK) }
            try MetaPages.requirePlausiblePageSizes(inEnvironmentAt: path)
            if !options.readOnly {
                try LockFileSpace.reserve(
                    inEnvironmentAt: path, maxReaders: options.maxReaders, mode: options.fileMode)
            }
            try check(mdb_env_open(env, path, flags, options.fileMode), "mdb_env_open", path: path)
            // After the open, which creates the data file of a new environment.
            dataFile = canonicalPath(path) + "/data.mdb"
            writers = WriterLock(dataFile: dataFile)
            try Self.requireWholeDataFile(env, path: path)
            if !options.inspectOnly {
                var dead: Int32 = 0
                try check(mdb_reader_check(env, &dead), "mdb_reader_check", path: path)
            }
            if !options.readOnly { try Self.adoptAbandonedCommitIfAny(env, path: path, writers: writers) }
        } catch {
            mdb_env_close(env)
            throw error
        }
        var stat = MDB_stat()
        mdb_env_stat(env, &stat)
        self.pageSize = Int(stat.ms_psize)
        self.handle = env
        self.path = path
        self.options = options
        self.registryKey = registryKey
        var info = MDB_envinfo()
        mdb_env_info(env, &info)
        map = Self.map(of: dataFile, size: info.me_mapsize)
        var descriptor: Int32 = -1
        mdb_env_get_fd(env, &descriptor)
        dataFileDescriptor = descriptor
    }

    /// Refuses a data file shorter than the pages its meta page counts (a copy cut short, a truncated file): LMDB
    /// would map past the file's end, and reading a page there kills the process with SIGBUS.
    private static func requireWholeDataFile(_ env: OpaquePointer, path: String) throws(LMDBError) {
        // The pages first, then the size: a writer writes its pages before the meta page that counts them, so a
        // commit in between makes the file longer than the count read, never shorter.
        var info = MDB_envinfo()
        try check(mdb_env_info(env, &info), "mdb_env_info", path: path)
        var statistics = MDB_stat()
        try check(mdb_env_stat(env, &statistics), "mdb_env_stat", path: path)
        var file: Int32 = -1
        try check(mdb_env_get_fd(env, &file), "mdb_env_get_fd", path: path)
        var status = stat()
        guard fstat(file, &status) == 0 else { throw LMDBError(code: .init(errno), operation: "fstat", path: path) }
        // A damaged meta page's count can be past what a file can hold: no product to trap on.
        let (bytes, overflow) = (info.me_last_pgno &+ 1).multipliedReportingOverflow(by: Int(statistics.ms_psize))
        guard !overflow, Int(status.st_size) >= bytes else {
            throw LMDBError(
                code: .corrupted, operation: "mdb_env_open", path: path,
                remedy: "the data file is shorter than the pages it holds: it was cut short (an interrupted copy, a "
                    + "full disk); restore it from a backup")
        }
    }

    deinit {
        guard let registryKey else {
            mdb_env_close(handle)
            return
        }
        // Close under the registry lock, so that no new instance for this path opens before this one has closed.
        EnvironmentRegistry.shared.withLock { open in
            mdb_env_close(handle)
            open[registryKey] = nil
        }
    }

    /// Opens named databases, creating the missing ones when `create` is true, and runs `initialize` in the same
    /// transaction (so that a crash cannot leave databases without their initial contents). A handle stays valid for
    /// the environment's life: open each database once, at start-up where it can be.
    public func openDatabases(
        _ names: [String], create: Bool, initialize: (Transaction, [Database]) throws -> Void = { _, _ in }
    ) throws -> [Database] {
        let readOnly = !create || options.readOnly
        if !readOnly {
            try TransactionDepth.requireNone(
                "mdb_txn_begin", path: path,
                remedy: "databases cannot be created inside another transaction on the same thread; finish that first")
        }
        return try databaseOpening.withLock { _ in
            try openDatabasesUnserialised(names, create: create, readOnly: readOnly, initialize: initialize)
        }
    }

    /// Has every write of this process that waits longer than `delay` for another process's write (which holds the
    /// environment's writer lock: a long import, or a process stopped with Ctrl-Z) call `notify` once, on another
    /// thread, with that process's id where the system tells it; the write goes on waiting.
    public static func noticeLongWriterWaits(after delay: Duration, _ notify: @escaping @Sendable (Int32?) -> Void) {
        WriterWaitNotice.current.withLock { $0 = (delay, notify) }
    }

    /// The names of the environment's named databases: the keys of its main database, which in an environment used
    /// only through named databases are their names.
    public func databaseNames() throws -> [String] {
        // `mdb_dbi_open` of the main database too is serialised with every other.
        try databaseOpening.withLock { _ in try mainDatabaseKeys() }
    }

    /// Whether either meta page of the data file records named databases, read from the file, whichever LMDB goes by:
    /// an environment whose newer meta page holds none, while the older held some, has a damaged newer one (a changed
    /// byte of its transaction id makes the older, empty one of a compacted copy look newer), not a new environment.
    public func metaPagesRecordDatabases() throws(LMDBError) -> Bool {
        try MetaPages.recordDatabases(inEnvironmentAt: path)
    }

    private func mainDatabaseKeys() throws -> [String] {
        try withTransaction(readOnly: true, commit: false) { transaction in
            var main: MDB_dbi = 0
            try check(mdb_dbi_open(transaction.txn, nil, 0, &main), "mdb_dbi_open(main)", path: path)
            return try transaction.withCursor(on: Database(dbi: main, name: "main")) { cursor in
                var names: [String] = []
                var entry = try cursor.first()
                while let found = entry {
                    names.append(String(decoding: found.key, as: UTF8.self))
                    entry = try cursor.next()
                }
                return names
            }
        }
    }

    /// Opens (and creates) the databases in one transaction; when a new one does not fit the map (a journal copied
    /// or restored fills its file, which the map is no larger than), the transaction is aborted, the map grows, and
    /// it runs again, `initialize` too, as a write's body does.
    private func openDatabasesUnserialised(
        _ names: [String], create: Bool, readOnly: Bool, initialize: (Transaction, [Database]) throws -> Void
    ) throws -> [Database] {
        while true {
            let observedMapSize = info().mapSize
            do {
                return try withTransaction(readOnly: readOnly, commit: true) { transaction in
                    let databases = try names.map { name in
                        var dbi: MDB_dbi = 0
                        try check(
                            mdb_dbi_open(transaction.txn, name, create ? UInt32(MDB_CREATE) : 0, &dbi),
                            "mdb_dbi_open(\(name))", path: path)
                        return Database(dbi: dbi, name: name)
                    }
                    try initialize(transaction, databases)
                    return databases
                }
            } catch let error as LMDBError where error.code == .mapFull && !readOnly {
                try growMap(from: observedMapSize)
            }
        }
    }

    /// Runs `body` in a read-only transaction: a consistent snapshot. Keep it short; it pins old pages.
    @discardableResult
    public func read<T>(_ body: (Transaction) throws -> T) throws -> T {
        try withTransaction(readOnly: true, commit: false, body)
    }

    /// Runs `body` in a write transaction that commits when `body` returns and aborts when it throws.
    ///
    /// If the map fills up, the transaction is aborted, the map grows, and `body` runs again from the start, so
    /// `body` must not have effects outside the transaction (``reserveFileSpace(in:)`` has one, harmless to repeat:
    /// zeros past the pages in use). Write transactions never cross an `await`: `body` is
    /// synchronous and runs on the calling thread.
    @discardableResult
    public func write<T>(_ body: (Transaction) throws -> T) throws -> T {
        if options.inspectOnly {
            throw LMDBError(
                code: .misuse, operation: "mdb_txn_begin", path: path,
                remedy: "the environment was opened to inspect it; open it for writing")
        }
        if options.readOnly {
            throw LMDBError(
                code: .readOnlyFileSystem, operation: "mdb_txn_begin", path: path,
                remedy: "it was opened for reading only, as its file system is read-only; mount that read-write, or "
                    + "copy the environment to one that is")
        }
        try TransactionDepth.requireNone(
            "mdb_txn_begin", path: path,
            remedy: "a write transaction cannot begin inside another transaction on the same thread; finish that first")
        while true {
            let observedMapSize = info().mapSize
            do {
                return try withTransaction(readOnly: false, commit: true, body)
            } catch let error as LMDBError where error.code == .mapFull {
                try growMap(from: observedMapSize)
            }
        }
    }

    /// Writes a consistent copy of the environment into the empty directory `destination`, compacted
    /// (`MDB_CP_COMPACT`): free pages are left out. Writers may go on meanwhile.
    public func copy(to destination: String) throws(LMDBError) {
        try ForkGuard.check("mdb_env_copy2")
        // mdb_env_copy2 creates its file (O_EXCL) before its own transaction can meet MDB_MAP_RESIZED: adopt a map
        // another process grew first, and remove a partial copy on failure so that a retry can start afresh.
        let copyFile = destination + "/data.mdb"
        // A data file there already is not this copy's to remove (LMDB refuses to write over it).
        let fileWasThere = access(copyFile, F_OK) == 0
        while true {
            do {
                try withTransaction(readOnly: true, commit: false) { _ in }
            } catch let error as LMDBError {
                throw error
            } catch {
                throw LMDBError(code: .misuse, operation: "mdb_txn_begin", path: path)
            }
            gate.lockShared()
            let rc = mdb_env_copy2(handle, destination, UInt32(MDB_CP_COMPACT))
            gate.unlock()
            if rc == 0 { return }
            if !fileWasThere { unlink(copyFile) }
            if rc != MDB_MAP_RESIZED { try check(rc, "mdb_env_copy2", path: destination) }
        }
    }

    /// Makes visible to this process's readers a commit whose writer died after writing it and before publishing
    /// it. Such a commit is durable, but readers keep the previous snapshot until a writer takes the write lock,
    /// which finds the dead owner and adopts the newest meta page. Runs when the environment opens, if the newest
    /// meta page is newer than a reader's snapshot; call it again after a writer process is known to have died.
    public func adoptAbandonedCommit() throws(LMDBError) {
        try ForkGuard.check("mdb_txn_begin")
        try TransactionDepth.requireNone(
            "mdb_txn_begin", path: path,
            remedy: "a write transaction cannot begin inside another transaction on the same thread; finish that first")
        // `writers` first, then `gate`, as every write takes them.
        try writers.withLock { () throws(LMDBError) in
            gate.lockShared()
            defer { gate.unlock() }
            try Self.adoptAbandonedCommit(handle, path: path)
        }
    }

    /// Adopts an abandoned commit only when there is one: when the newest meta page is newer than the snapshot a
    /// reader is given (or a commit under way is between the two). Taking the write lock regardless would make every
    /// opening, a reading command's too, wait for another process's write to end.
    private static func adoptAbandonedCommitIfAny(
        _ env: OpaquePointer, path: String, writers: WriterLock
    ) throws(LMDBError) {
        var txn: OpaquePointer?
        let rc = mdb_txn_begin(env, nil, UInt32(MDB_RDONLY), &txn)
        var isAbandoned = rc == MDB_MAP_RESIZED
        if !isAbandoned {
            try check(rc, "mdb_txn_begin", path: path)
            let snapshot = mdb_txn_id(txn)
            mdb_txn_abort(txn)
            var info = MDB_envinfo()
            try check(mdb_env_info(env, &info), "mdb_env_info", path: path)
            isAbandoned = info.me_last_txnid > snapshot
        }
        if isAbandoned { try writers.withLock { () throws(LMDBError) in try adoptAbandonedCommit(env, path: path) } }
    }

    /// Begins and ends a write transaction; the caller holds `writers`, as every write transaction does.
    private static func adoptAbandonedCommit(_ env: OpaquePointer, path: String) throws(LMDBError) {
        var txn: OpaquePointer?
        let rc = mdb_txn_begin(env, nil, 0, &txn)
        if rc == MDB_MAP_RESIZED { return }  // the next transaction adopts the new size and the commit with it
        try check(rc, "mdb_txn_begin", path: path)
        mdb_txn_abort(txn)
    }

    /// Keeps zero-filled space, written and synced, at the end of the data file past the pages in use, so that the
    /// commits that follow need not make the file longer: a durable commit's sync then flushes pages only, not a new
    /// file size as well (see ``FileSpaceReserve``). Call it inside `write` on this environment, after the
    /// transaction's writes, and only in a transaction that wrote something. Does nothing in an environment opened
    /// with `noSync`, or while enough space remains. Space that does not fit on the disk is not an error: the file
    /// is left as it was, and this instance keeps no reserve from then on. Any other failure (a failed sync) is
    /// thrown, so that the transaction aborts.
    public func reserveFileSpace(in txn: Transaction) throws(LMDBError) {
        // Only this environment's write transaction holds the write lock that makes the end of the file free.
        guard !txn.isReadOnly, mdb_txn_env(txn.txn) == handle else {
            throw LMDBError(
                code: .misuse, operation: "reserveFileSpace", path: path,
                remedy: "reserve file space inside this environment's write transaction, which holds its write lock")
        }
        guard !options.noSync else { return }
        var file: Int32 = -1
        try check(mdb_env_get_fd(handle, &file), "mdb_env_get_fd", path: path)
        // The transaction holds `gate` shared, as `unguardedInfo` needs.
        try fileSpaceReserve.extendIfLow(
            file: file, usedBytes: (unguardedInfo().lastPage + 1) * pageSize, path: path)
    }

    /// Flushes committed data to disk (`mdb_env_sync`, forced). Used by relaxed durability.
    public func sync() throws(LMDBError) {
        try ForkGuard.check("mdb_env_sync")
        // Later LMDB releases read a meta page from the map here: not while it is resized.
        gate.lockShared()
        defer { gate.unlock() }
        try check(mdb_env_sync(handle, 1), "mdb_env_sync", path: path)
    }

    /// Drops the pages of the data file's map from this process's resident memory: they stay in the page cache and
    /// come back, without reading the disk, on the next access. A long scan of a large environment otherwise keeps
    /// every page it has read resident in the process. Safe at any time: the map is a shared mapping of the file, so
    /// nothing in it is private to the process. LMDB does not tell where its map is (`mdb_env_info`'s address is
    /// set only with `MDB_FIXEDMAP`), so the mapping is found in `/proc/self/maps`; where there is none, nothing
    /// happens.
    public func releaseResidentPages() {
        gate.lockShared()
        defer { gate.unlock() }
        for mapping in Self.mappings(of: dataFile) {
            guard let address = UnsafeMutableRawPointer(bitPattern: mapping.lowerBound) else { continue }
            madvise(address, Int(mapping.count), MADV_DONTNEED)
        }
    }

    /// Where this process maps `file` with an environment's map of `size` bytes.
    private static func map(of file: String, size: Int) -> Range<UInt>? {
        // LMDB maps the whole map size at once; another mapping of the file (an environment opened only to inspect
        // it, say) makes the map ambiguous, and it is then not checked.
        let maps = mappings(of: file).filter { $0.count == size }
        return maps.count == 1 ? maps[0] : nil
    }

    /// The address ranges at which this process maps `file`, as `/proc/self/maps` lists them.
    private static func mappings(of file: String) -> [Range<UInt>] {
        guard let maps = fopen("/proc/self/maps", "r") else { return [] }
        defer { fclose(maps) }
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        var found: [Range<UInt>] = []
        while getline(&line, &capacity, maps) > 0, let line {
            let text = String(cString: line)
            // A file removed since it was opened (a scratch store's) is listed with ` (deleted)` after its path.
            guard text.hasSuffix(" " + file + "\n") || text.hasSuffix(" " + file + " (deleted)\n") else { continue }
            let range = text.prefix { $0 != " " }.split(separator: "-")
            guard range.count == 2, let start = UInt(range[0], radix: 16), let end = UInt(range[1], radix: 16),
                end > start
            else { continue }
            found.append(start..<end)
        }
        return found
    }

    public func info() -> EnvironmentInfo {
        gate.lockShared()
        defer { gate.unlock() }
        return unguardedInfo()
    }

    /// `mdb_env_info` reads the meta pages inside the map: call it only while holding `gate`.
    private func unguardedInfo() -> EnvironmentInfo {
        var info = MDB_envinfo()
        mdb_env_info(handle, &info)
        return EnvironmentInfo(
            mapSize: info.me_mapsize, lastPage: info.me_last_pgno, lastTransactionID: info.me_last_txnid,
            maxReaders: Int(info.me_maxreaders), readers: Int(info.me_numreaders))
    }

    // MARK: - Transactions and map size

    /// Begins a transaction, runs `body`, then commits or aborts. Holds `gate` shared throughout, a write `writers`
    /// too (taken first, as everywhere), and adopts a map size grown by another process (`MDB_MAP_RESIZED`) before
    /// retrying, holding neither: a write that held `writers` meanwhile would keep every other process's writes
    /// waiting while this process's readers finish.
    private func withTransaction<T>(
        readOnly: Bool, commit: Bool, _ body: (Transaction) throws -> T
    ) throws -> T {
        try ForkGuard.check("mdb_txn_begin")
        while true {
            let result =
                readOnly
                ? try attemptTransaction(readOnly: true, commit: commit, body)
                : try writers.withLock { try attemptTransaction(readOnly: false, commit: commit, body) }
            if let result { return result.value }
            try adoptMapSize()
        }
    }

    /// A transaction's result, boxed so that a nil result is not taken for a map to adopt.
    private struct Outcome<T> {
        let value: T
    }

    /// Runs `body` in one transaction; nil, having run nothing, when another process has grown the map, which must be
    /// adopted first.
    private func attemptTransaction<T>(
        readOnly: Bool, commit: Bool, _ body: (Transaction) throws -> T
    ) throws -> Outcome<T>? {
        gate.lockShared()
        var txn: OpaquePointer?
        let rc = mdb_txn_begin(handle, nil, readOnly ? UInt32(MDB_RDONLY) : 0, &txn)
        guard rc != MDB_MAP_RESIZED else {
            gate.unlock()
            return nil
        }
        guard rc == 0, let txn else {
            gate.unlock()
            throw LMDBError(code: .init(rc), operation: "mdb_txn_begin", path: path)
        }
        TransactionDepth.enter()
        defer {
            TransactionDepth.leave()
            gate.unlock()
        }
        // The pages in use as the transaction begins, and the file beyond them, where the values it reads from the
        // map must lie.
        let pages = map.map { map in
            MappedPages(map: map, pages: unguardedInfo().lastPage + 1, pageSize: pageSize, file: dataFileDescriptor)
        }
        let result: T
        do {
            result = try body(Transaction(txn, readOnly: readOnly, pages: pages))
        } catch {
            mdb_txn_abort(txn)
            throw error
        }
        if commit {
            try check(mdb_txn_commit(txn), "mdb_txn_commit", path: path)
        } else {
            mdb_txn_abort(txn)
        }
        return Outcome(value: result)
    }

    /// Resizing waits for every transaction of this process to end, so it must not start inside one.
    private func requireNoTransactionForResize() throws(LMDBError) {
        try TransactionDepth.requireNone(
            "mdb_env_set_mapsize", path: path,
            remedy: "the map must be resized, which cannot happen inside a transaction on the same thread; "
                + "end the outer transaction and retry")
    }

    /// Grows the map, doubling it as a full map does, until it holds at least `bytes`: a write known to need that much
    /// then runs once, where it would run again after each growth. Not inside a transaction.
    public func growMap(toHold bytes: Int) throws(LMDBError) {
        while info().mapSize < bytes { try growMap(from: info().mapSize) }
    }

    /// Doubles the map, unless another thread already grew it past `observed`.
    private func growMap(from observed: Int) throws(LMDBError) {
        try requireNoTransactionForResize()
        gate.lockExclusive()
        defer { gate.unlock() }
        let current = unguardedInfo().mapSize
        guard current <= observed else { return }
        // LMDB unmaps the old map before it maps the new one, and when that fails (a limited address space,
        // `ulimit -v`) leaves the environment with no map, which the next call dies on: the room the growth takes is
        // tried first, the old map still in place, so that a failure leaves it as it was.
        let probe = mmap(nil, current, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
        guard probe != MAP_FAILED else {
            throw LMDBError(code: .mapFull, operation: "mdb_env_set_mapsize", path: path)
        }
        munmap(probe, current)
        try check(mdb_env_set_mapsize(handle, current * 2), "mdb_env_set_mapsize", path: path)
        map = Self.map(of: dataFile, size: unguardedInfo().mapSize)
    }

    private func adoptMapSize() throws(LMDBError) {
        try requireNoTransactionForResize()
        gate.lockExclusive()
        defer { gate.unlock() }
        try check(mdb_env_set_mapsize(handle, 0), "mdb_env_set_mapsize", path: path)
        map = Self.map(of: dataFile, size: unguardedInfo().mapSize)
    }
}

/// The environments open in this process, by canonical path.
private enum EnvironmentRegistry {
    static let shared = Mutex<[String: WeakEnvironment]>([:])
}

private struct WeakEnvironment {
    weak var environment: Environment?
}

private func canonicalPath(_ path: String) -> String {
    guard let resolved = realpath(path, nil) else { return path }
    defer { free(resolved) }
    return String(cString: resolved)
}
