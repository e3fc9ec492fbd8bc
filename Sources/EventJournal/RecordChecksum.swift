import CChecksum

/// The record checksum: CRC-32C (Castagnoli), computed by the CPU's CRC instruction where it has one.
enum RecordChecksum {
    static func compute(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        liftledger_crc32c(bytes.baseAddress, bytes.count)
    }
}
