import LMDB

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
    var builder: BuilderProcess

    /// The checkpoint's bytes, then the builder's (``BuilderProcess/encoded``).
    var encoded: [UInt8] { checkpoint.encoded + builder.encoded }

    init(checkpoint: Checkpoint, builder: BuilderProcess = .current()) {
        self.checkpoint = checkpoint
        self.builder = builder
    }

    init?(decoding raw: UnsafeRawBufferPointer) {
        // The checkpoint's length is in its bytes: 16, and the rules digest's length at offset 14.
        guard raw.count >= 16 else { return nil }
        let checkpointLength = 16 + Int(raw.bigEndian(UInt16.self, at: 14))
        guard raw.count >= checkpointLength,
            let checkpoint = Checkpoint(decoding: UnsafeRawBufferPointer(rebasing: raw[..<checkpointLength])),
            let builder = BuilderProcess(decoding: UnsafeRawBufferPointer(rebasing: raw[checkpointLength...]))
        else { return nil }
        self.checkpoint = checkpoint
        self.builder = builder
    }
}
