/// Something received that could not be applied, kept with its reason (its bytes stay in the
/// database, never shown).
public struct QuarantineEntry: Sendable, Equatable {
    /// Its number within its zone.
    public let id: Int64
    public let zone: String
    /// The record's name, or the object's name when the whole object was kept.
    public let recordName: String
    public let reason: String
    public let size: Int
    /// Written by a newer build: every sync tries it again, so upgrading applies it.
    public let awaitsUpgrade: Bool
}
