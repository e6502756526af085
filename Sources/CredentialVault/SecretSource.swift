/// Where a locked vault may get a body it holds: the credctl agent, which keeps the vault
/// unlocked and hands out one secret at a time (docs/agent.md). The vault answers everything
/// that needs no key itself first (not synced yet, deleted, no such record).
public protocol SecretSource: AnyObject, Sendable {
    func read(_ reference: SecretReference) throws -> SecretBytes
    /// Seals and stores `body` under `reference` (the agent holds the keys to seal it).
    func store(_ body: SecretBytes, for reference: SecretReference, availability: Availability) throws
}
