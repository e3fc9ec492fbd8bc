import LMDB

#if canImport(Glibc)
    import Glibc
#endif

/// How far a read model has folded the journal, by which code, under which rules, and which of its two table slots
/// holds it. Stored in the `checkpoints` database under the projection's name (layout in docs/FORMAT.md).
public struct Checkpoint: Sendable, Equatable {
    /// The position of the last record folded (0: none).
    public var position: UInt64
    public var version: UInt32
    public var rulesDigest: [UInt8]
    /// The slot (0 or 1) whose tables hold the read model.
    public var slot: UInt8

    public init(position: UInt64, version: UInt32, rulesDigest: [UInt8], slot: UInt8) {
        self.position = position
        self.version = version
        self.rulesDigest = rulesDigest
        self.slot = slot
    }

    static let layoutVersion: UInt8 = 1

    /// 1 byte layout version, 1 byte slot, u32 code version, u64 position, u16 digest length, the digest.
    var encoded: [UInt8] {
        var bytes: [UInt8] = [Self.layoutVersion, slot]
        bytes.appendBigEndian(version)
        bytes.appendBigEndian(position)
        bytes.appendBigEndian(UInt16(rulesDigest.count))
        bytes += rulesDigest
        return bytes
    }

    init?(decoding raw: UnsafeRawBufferPointer) {
        guard raw.count >= 16, raw[0] == Self.layoutVersion, raw[1] <= 1 else { return nil }
        let length = Int(raw.bigEndian(UInt16.self, at: 14))
        guard raw.count == 16 + length else { return nil }
        slot = raw[1]
        version = raw.bigEndian(UInt32.self, at: 2)
        position = raw.bigEndian(UInt64.self, at: 6)
        rulesDigest = Array(raw[16...])
    }
}

/// A rebuild under way: the checkpoint of the read model being built in the spare slot, and the process building it.
struct RebuildMarker: Equatable {
    var checkpoint: Checkpoint
    var processID: Int32

    /// The checkpoint's bytes, then the builder's process id (i32).
    var encoded: [UInt8] {
        var bytes = checkpoint.encoded
        bytes.appendBigEndian(UInt32(bitPattern: processID))
        return bytes
    }

    init(checkpoint: Checkpoint, processID: Int32 = getpid()) {
        self.checkpoint = checkpoint
        self.processID = processID
    }

    init?(decoding raw: UnsafeRawBufferPointer) {
        guard raw.count >= 4, let checkpoint = Checkpoint(decoding: UnsafeRawBufferPointer(rebasing: raw.dropLast(4)))
        else { return nil }
        self.checkpoint = checkpoint
        processID = Int32(bitPattern: raw.bigEndian(UInt32.self, at: raw.count - 4))
    }

    /// True while the process that writes this rebuild is alive (another process may then go on answering from the
    /// old read model); a builder that died leaves the rebuild to be resumed by the next process that needs it. The
    /// process is known by its id alone: processes sharing a journal must share a PID namespace, and a dead builder
    /// whose id was reused counts as alive until `liftledger rebuild` takes its rebuild over.
    var builderIsAlive: Bool {
        processID == getpid() || kill(processID, 0) == 0 || errno == EPERM
    }
}
