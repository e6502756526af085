import Replication

/// Proof that one incarnation of a reference was deleted. Saved with (before) the removal of the
/// body; no later delivery of that incarnation may bring the body back.
public struct DeletionMarker: Sendable, Equatable {
    public let reference: String
    public let incarnation: Int64
    public let version: RecordVersion
}
