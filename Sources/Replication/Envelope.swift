/// One record as it travels between devices: enough metadata to merge without decoding the
/// payload, and the payload itself (opaque to replication; for secret items, a body already
/// sealed under the vault key).
public struct Envelope: Sendable, Equatable {
    /// `<kind>/<uuid>` for config records, the reference key for secret items.
    public let recordName: String
    public let kind: String
    /// The version of the payload's format for this kind; readers quarantine versions they do
    /// not know instead of guessing.
    public let formatVersion: UInt16
    public let version: RecordVersion
    public let deleted: Bool
    /// Which life of the record this is (0 for format-1 config records).
    public let incarnation: Int64
    /// The largest incarnation read from the remote (a secret set again after a delete a
    /// million times a second would need nine years to reach it), so adding 1 never overflows.
    public static let maximumIncarnation: Int64 = 1 << 48
    /// Empty for tombstones.
    public let payload: [UInt8]

    /// The kind of removal envelopes: the context of a deletion, sent just before its tombstone
    /// as `removal/<record name>` (docs/concurrent-edits.md). Bookkeeping of the deletion, so
    /// not counted as a change of its own.
    public static let removalKind = "removal"

    public var isRemoval: Bool { kind == Self.removalKind }

    public init(recordName: String, kind: String, formatVersion: UInt16, version: RecordVersion, deleted: Bool,
                incarnation: Int64, payload: [UInt8]) {
        self.recordName = recordName
        self.kind = kind
        self.formatVersion = formatVersion
        self.version = version
        self.deleted = deleted
        self.incarnation = incarnation
        self.payload = deleted ? [] : payload
    }
}
