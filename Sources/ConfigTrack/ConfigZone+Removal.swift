import Replication
import SQLite

/// Deletions of config records carry their removal envelopes (`RemovalLog`).
extension ConfigZone {
    /// The context a deletion made here carries: everything its device had seen of the record's
    /// groups, and the deletion itself.
    static func removalContext(deleting stored: StoredRecord?, at version: RecordVersion) -> VersionContext {
        RemovalLog.context(deleting: (stored?.stamps ?? []).map(\.context), at: version)
    }

    /// A removal of a record of a kind this build reads.
    func mergeRemoval(_ db: Connection, _ envelope: Envelope) throws -> MergeOutcome {
        try RemovalLog.merge(db, envelope) { recordName in
            guard let slash = recordName.firstIndex(of: "/"), let type = Self.kinds[String(recordName[..<slash])] else { return false }
            return Self.id(of: recordName, kind: type.kind) != nil
        }
    }
}
