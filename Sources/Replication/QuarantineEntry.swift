/// Something received that could not be applied, kept with its reason (its bytes stay in the
/// database, never shown).
public struct QuarantineEntry: Sendable, Equatable {
    public let zone: String
    /// The record's name, or the object's name when the whole object was kept.
    public let recordName: String
    public let reason: String
    public let size: Int
}
