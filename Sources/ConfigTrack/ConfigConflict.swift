import Identifiers
import Replication
import SQLite

/// A field group's value written on this device that lost a merge to a write made without
/// knowing it — a concurrent edit on another device, or a deletion of the record — kept here so
/// nothing is lost silently (docs/concurrent-edits.md).
public struct ConfigConflict: Sendable, Equatable {
    public let id: Int64
    public let recordName: String
    public let kind: String
    /// The field group (`endpoint`, `auth`, …) and its columns, in the kind's order.
    public let group: String
    public let columns: [String]
    /// The kept values, and the version that wrote them.
    public let kept: [SQLValue]
    public let keptVersion: RecordVersion
    /// What won: the values (none for a deletion) and their version: which device, when.
    public let winner: [SQLValue]?
    public let winnerVersion: RecordVersion
    public var winnerDeleted: Bool { winner == nil }
    /// The whole record's column values when the value was kept (to bring back a removed record).
    public let recordState: [SQLValue]
    /// Unix seconds when this device kept it; collected `ConfigStore.conflictRetentionDays` later.
    public let recordedAt: Int64

    public var expiresAt: Int64 { recordedAt + ConfigStore.conflictRetentionDays * 86_400 }

    /// The record's id, parsed from its name.
    public var recordID: UUID? { recordName.split(separator: "/").last.flatMap { CanonicalUUID.parse(String($0)) } }
}
