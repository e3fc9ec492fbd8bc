import Foundation

/// Flips the first payload byte of the record at `position` in a journal's data file, found through the layout of
/// docs/FORMAT.md: the event id at offset 44 of the record, the position (big-endian) at offset 8, the total length
/// at offset 4, and the payload just before the 4-byte checksum. Copy-on-write leaves stale copies of a record in
/// freed pages, so every copy is changed. Returns how many copies were.
public func flipFirstPayloadByte(
    inJournal path: String, eventID: UUID, position: UInt64, payloadLength: Int
) throws -> Int {
    try changeCopies(inJournal: path, eventID: eventID, position: position) { data, start in
        let length = Int(data[(start + 4)..<(start + 8)].reduce(0) { $0 << 8 | UInt32($1) })
        let payloadStart = start + length - 4 - payloadLength
        return (payloadStart, data[payloadStart] ^ 0x01)
    }
}

/// Writes, in every copy of the record at `position` with `eventID` in a journal's data file (found by the event id at
/// offset 44 of the record, and the position, big-endian, at offset 8), the byte `change` gives for the copy that
/// starts at its offset in `data`, at the offset it gives; a copy it gives nothing for is left. Returns how many
/// copies were changed.
private func changeCopies(
    inJournal path: String, eventID: UUID, position: UInt64,
    _ change: (_ data: Data, _ start: Int) -> (offset: Int, byte: UInt8)?
) throws -> Int {
    let file = path + "/data.mdb"
    let data = try Data(contentsOf: URL(fileURLWithPath: file))
    let idBytes = Data(withUnsafeBytes(of: eventID.uuid) { Array($0) })
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
    defer { try? handle.close() }
    var searchFrom = data.startIndex
    var changed = 0
    while let idRange = data.range(of: idBytes, in: searchFrom..<data.endIndex) {
        searchFrom = idRange.upperBound
        let start = idRange.lowerBound - 44
        guard start >= 0, data[(start + 8)..<(start + 16)].reduce(0, { $0 << 8 | UInt64($1) }) == position,
            let (offset, byte) = change(data, start)
        else { continue }
        try handle.seek(toOffset: UInt64(offset))
        try handle.write(contentsOf: Data([byte]))
        changed += 1
    }
    return changed
}

/// `record` with its last 4 bytes made the CRC-32C of the others (big-endian), as a record stores its checksum: a
/// record changed on purpose that still passes its checksum.
public func withChecksumRecomputed(_ record: [UInt8]) -> [UInt8] {
    var bytes = record
    let checksum = crc32c(bytes[0..<(bytes.count - 4)])
    bytes.replaceSubrange((bytes.count - 4)..., with: withUnsafeBytes(of: checksum.bigEndian) { Array($0) })
    return bytes
}

/// CRC-32C written out bit by bit from its definition (docs/FORMAT.md), independent of the journal's table and
/// hardware code; its check value is asserted in FormatTests.
public func crc32c<C: Collection<UInt8>>(_ bytes: C) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
    }
    return ~crc
}

/// Makes the data size LMDB keeps for the record at `position` 16 MiB larger, in every copy of the record's leaf node
/// in a journal's data file: LMDB's node header (its `mdb.c`: two 16-bit halves of the data size, the low half
/// first, then 16-bit flags and key size, all little-endian) lies just before the node's key, the record's position
/// in 8 big-endian bytes, which lies just before the record. The record is found by its event id at offset 44, as
/// ``flipFirstPayloadByte(inJournal:eventID:position:payloadLength:)`` finds it. Returns how many copies were changed.
public func enlargeNodeSize(inJournal path: String, eventID: UUID, position: UInt64) throws -> Int {
    let key = Data(withUnsafeBytes(of: position.bigEndian) { Array($0) })
    return try changeCopies(inJournal: path, eventID: eventID, position: position) { data, start in
        let header = start - 8 - 8
        // The key before the record, and a key size of 8 in the header before it.
        guard header >= 0, data[(start - 8)..<start] == key, data[header + 6] == 8, data[header + 7] == 0 else {
            return nil
        }
        // The low byte of the size's high half: 0xFF × 65,536 bytes more.
        return (header + 2, 0xFF)
    }
}
