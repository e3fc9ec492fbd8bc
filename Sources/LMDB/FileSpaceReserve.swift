import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Zero-filled, synced space at the end of a data file, past the pages in use.
///
/// LMDB writes a new page past the end of its file, so a commit that needs a new page also makes the file longer,
/// and the `fdatasync` of a durable commit must then write the file's metadata (its new size) as well as the pages:
/// one more write to wait for, or a journal commit on a journalling file system. Pages written into space the file
/// already has, written and synced (space from `fallocate` would still change metadata when first written), leave
/// the metadata alone. The reserve is extended in large steps, each paid for once.
///
/// LMDB ignores what lies past its last page, so the reserve changes nothing LMDB reads, and a copy (which is
/// compacted) leaves it out.
final class FileSpaceReserve: Sendable {
    /// The least space the reserve extends by.
    static let minimumStep = 1 << 20
    /// The most: a large environment does not keep more than this in zeros.
    static let maximumStep = 16 << 20

    /// Set when the reserve did not fit (a full disk, a quota, a file-size limit): then commits go on as LMDB alone
    /// would make them, and no more zeros are written.
    private let abandoned = Atomic<Bool>(false)

    /// Extends the reserve if less than half a step remains past `usedBytes` (the last committed page: pages of the
    /// transaction under way are not counted, so a large transaction still makes the file longer when it commits).
    /// The caller holds the environment's write lock, so that no other writer (in any process) writes past the end of
    /// the file meanwhile: everything past the end is then free, and an extension that fails can be cut off again.
    ///
    /// Zeros that do not fit are cut off and the reserve abandoned, without an error: the commit reports a full disk
    /// itself if its own pages do not fit. Any other failure is thrown, after the cut: a failed sync may be reporting
    /// a write of LMDB's own pages on this file, which the commit's sync would then not see.
    func extendIfLow(file: Int32, usedBytes: Int, path: String) throws(LMDBError) {
        guard !abandoned.load(ordering: .relaxed) else { return }
        var status = stat()
        guard fstat(file, &status) == 0 else { throw LMDBError(code: .init(errno), operation: "fstat", path: path) }
        let size = Int(status.st_size)
        let step = min(max(usedBytes / 8, Self.minimumStep), Self.maximumStep)
        guard size - usedBytes < step / 2 else { return }
        let target = (usedBytes + step + Self.minimumStep - 1) / Self.minimumStep * Self.minimumStep
        guard target > size else { return }
        if let code = Self.writeZeros(file, from: size, to: target) {
            _ = ftruncate(file, off_t(size))
            let error = LMDBError(code: code, operation: "pwrite", path: path)
            guard error.isOutOfSpace else { throw error }
            abandoned.store(true, ordering: .relaxed)
            return
        }
        if let code = Self.dataSync(file) {
            _ = ftruncate(file, off_t(size))
            throw LMDBError(code: code, operation: "fdatasync", path: path)
        }
    }

    /// Writes zeros over `start..<end` of `file`, retrying short and interrupted writes; the `errno` of any other
    /// failure.
    private static func writeZeros(_ file: Int32, from start: Int, to end: Int) -> LMDBError.Code? {
        let zeros = [UInt8](repeating: 0, count: min(end - start, minimumStep))
        var offset = start
        return zeros.withUnsafeBytes { buffer in
            while offset < end {
                let written = pwrite(file, buffer.baseAddress, min(buffer.count, end - offset), off_t(offset))
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return LMDBError.Code(written < 0 ? errno : EIO) }
                offset += written
            }
            return nil
        }
    }

    /// Syncs `file`'s data, retrying when interrupted; the `errno` of a failure.
    private static func dataSync(_ file: Int32) -> LMDBError.Code? {
        while true {
            if fdatasync(file) == 0 { return nil }
            if errno != EINTR { return LMDBError.Code(errno) }
        }
    }
}
