import LMDB

/// An error from the journal: a matchable code, a one-line account of what went wrong, and how to fix it.
public struct JournalError: Error, Sendable, CustomStringConvertible {
    public enum Code: Sendable, Equatable {
        /// The stream's version was not the one the append expected.
        case wrongExpectedVersion
        /// An event id already stored with other content, or repeated within one append.
        case duplicateEventID
        /// A stored record fails its checksum or does not decode, or a page of the journal's file is damaged.
        case corruptRecord
        /// The directory holds no journal.
        case noJournal
        /// The directory holds something that is not a journal.
        case notAJournal
        /// The journal was written by a newer on-disk format than this build reads.
        case newerFormat
        /// A stream id, event type or other argument is not acceptable.
        case invalidArgument
        /// The destination of a backup is not an empty directory.
        case destinationNotEmpty
        /// The disk (or a file-size limit) has no room for the write.
        case outOfSpace
        /// The journal is on a read-only file system, and something was to be written to it.
        case readOnly
        /// Any other failure of the storage layer.
        case storage
    }

    public let code: Code
    /// What went wrong.
    public let message: String
    /// What the user can do about it.
    public let remedy: String
    /// The journal position concerned, when there is one (for example the first corrupt record).
    public let position: UInt64?
    /// For `wrongExpectedVersion`: the stream's actual version.
    public let actualVersion: UInt64?

    public init(
        _ code: Code, _ message: String, remedy: String, position: UInt64? = nil, actualVersion: UInt64? = nil
    ) {
        self.code = code
        self.message = message
        self.remedy = remedy
        self.position = position
        self.actualVersion = actualVersion
    }

    public var description: String { "\(message); \(remedy)" }

    /// Wraps an error of the storage layer, keeping disk-full, read-only file systems and damage apart from the rest.
    public static func storage(_ error: LMDBError) -> JournalError {
        if error.isOutOfSpace {
            return JournalError(
                .outOfSpace, "the disk is full: \(error.operation) failed with \(error.code)",
                remedy: "free space on the volume that holds the journal, then retry; nothing was written")
        }
        if error.code == .readOnlyFileSystem, let path = error.path { return readOnly(path) }
        if error.isDamage {
            return JournalError(
                .corruptRecord, "the journal's file is damaged: \(error.operation) failed with \(error.code)",
                remedy: error.remedy)
        }
        return JournalError(
            .storage, "storage error: \(error.operation) failed with \(error.code)", remedy: error.remedy)
    }

    /// `error` as the journal's error: itself, or an error of the storage layer from the read models' side (a write to
    /// a journal opened read-only, a full disk) wrapped as ``storage(_:)`` wraps the journal's own; nil for any other.
    public static func from(_ error: any Error) -> JournalError? {
        (error as? JournalError) ?? (error as? LMDBError).map(storage)
    }

    /// A write to the journal at `path`, which is on a read-only file system.
    public static func readOnly(_ path: String) -> JournalError {
        JournalError(
            .readOnly, "the journal at \(path) is on a read-only file system: nothing can be written to it",
            remedy: "mount it read-write, or copy it to a writable disk (liftledger backup --journal \(path) DEST) "
                + "and use the copy; its events and the queries can be read where it is")
    }

    static func corrupt(_ position: UInt64, _ detail: String) -> JournalError {
        JournalError(
            .corruptRecord, "record \(position) is corrupt: \(detail)",
            remedy: "put a backup in its place (a directory liftledger backup made is a journal; check it with "
                + "liftledger verify --journal BACKUP)",
            position: position)
    }

    static func invalid(_ message: String, remedy: String) -> JournalError {
        JournalError(.invalidArgument, message, remedy: remedy)
    }
}

/// Runs `body`, turning storage-layer errors into `JournalError`s.
func mappingStorageErrors<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as LMDBError {
        throw JournalError.storage(error)
    }
}
