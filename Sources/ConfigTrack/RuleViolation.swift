/// A stored record that breaks a rule `ConfigValidation` holds records to now: written by an
/// older build, before the rule existed. It is reported (`status`) and refused where it would be
/// used (`ssh`, `export ssh-config`), never rewritten behind the user's back.
public struct RuleViolation: Sendable, Equatable {
    /// `host`, `identity`, `forward`, `group` or `device`.
    public let kind: String
    /// The record's label, in printable form (a forward: its host's label and its specification).
    public let label: String
    /// The rule it breaks, as the refusal of a local save would say it.
    public let reason: String
}
