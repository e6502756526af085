/// An envelope that could not be read from an otherwise valid batch: kept, with its reason and
/// bytes, for quarantine, while the batch's other envelopes apply.
public struct RejectedEnvelope: Sendable, Equatable {
    /// The record's name when it could be read.
    public let recordName: String?
    public let reason: String
    public let bytes: [UInt8]
    /// For a whole object that did not open: `SyncTables.objectDigest` of its bytes, so it is
    /// read again once they change.
    public let objectDigest: [UInt8]?

    public init(recordName: String?, reason: String, bytes: [UInt8], objectDigest: [UInt8]? = nil) {
        self.recordName = recordName
        self.reason = reason
        self.bytes = bytes
        self.objectDigest = objectDigest
    }
}
