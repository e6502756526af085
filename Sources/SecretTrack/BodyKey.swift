import Replication

/// Names one stored version of one body: a body kept outside `secrets.sqlite` is found by it.
/// Every new version or incarnation has a key of its own, so a key is never reused.
public struct BodyKey: Hashable, Sendable {
    /// The id of the store the body belongs to (`SecretStore.storeID`).
    public let store: String
    public let reference: String
    public let incarnation: Int64
    public let version: RecordVersion

    public init(store: String, reference: String, incarnation: Int64, version: RecordVersion) {
        self.store = store
        self.reference = reference
        self.incarnation = incarnation
        self.version = version
    }
}
