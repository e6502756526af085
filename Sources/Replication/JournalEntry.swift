/// One pending upload intent: the newest local version of a record that has not been sent.
public struct JournalEntry: Sendable, Equatable {
    /// `<kind>/<id>` for config records, the reference key for secret items.
    public let recordName: String
    public let kind: String
    public let version: RecordVersion
    public let deleted: Bool
    /// Secret items only: which incarnation this entry belongs to (0 for config records).
    public let incarnation: Int64

    public init(recordName: String, kind: String, version: RecordVersion, deleted: Bool, incarnation: Int64 = 0) {
        self.recordName = recordName
        self.kind = kind
        self.version = version
        self.deleted = deleted
        self.incarnation = incarnation
    }
}
