/// A stored record read where it lies, in the journal's map or in an ``EventRecord``'s bytes, and checked as an
/// `EventRecord` is: what a fold needs of a record, without copying it.
///
/// It points into memory it does not own: use it only while it is lent (see ``RecordReader/next()`` and
/// ``EventRecord/withView(_:)``), and copy what must outlive that.
public struct RecordView {
    /// The record exactly as stored, checksum included.
    public let bytes: UnsafeRawBufferPointer
    /// Inlinable, with the accessors that read it: a fold reads every record's fields through them.
    @usableFromInline let header: RecordFormat.Header

    init(_ bytes: UnsafeRawBufferPointer, _ header: RecordFormat.Header) {
        self.bytes = bytes
        self.header = header
    }

    /// Checks the record at `bytes`, which the journal keeps at `expectedPosition`; a record that fails its checksum
    /// or does not parse throws `JournalError.Code.corruptRecord`.
    init(checking bytes: UnsafeRawBufferPointer, at expectedPosition: UInt64) throws(JournalError) {
        self.init(bytes, try RecordFormat.parse(bytes, at: expectedPosition))
    }

    @inlinable public var position: UInt64 { header.position }
    @inlinable public var streamVersion: UInt64 { header.streamVersion }
    @inlinable public var recordedAt: Timestamp { header.recordedAt }
    @inlinable public var occurredAt: Timestamp { header.occurredAt }
    @inlinable public var schemaVersion: UInt32 { header.schemaVersion }
    @inlinable public var encoding: PayloadEncoding { header.encoding }
    @inlinable public var streamID: String { String(decoding: field(header.fields.streamID), as: UTF8.self) }
    @inlinable public var type: String { String(decoding: typeUTF8, as: UTF8.self) }
    /// The type's UTF-8 bytes, for matching it without making a string.
    @inlinable public var typeUTF8: UnsafeRawBufferPointer { field(header.fields.type) }
    @inlinable public var payload: UnsafeRawBufferPointer { field(header.fields.payload) }

    @inlinable func field(_ range: Range<UInt32>) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[Int(range.lowerBound)..<Int(range.upperBound)])
    }
}
