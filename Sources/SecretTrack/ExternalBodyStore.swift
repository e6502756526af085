/// Where a store with the `keyring` backend keeps its sealed bodies (the vault supplies the
/// desktop keyring). It only ever holds sealed bytes. Failures are thrown as `SecretError`:
/// `locked` when it is locked, `unavailable` when it cannot be reached now (no keyring, no
/// answer), `storage` for anything else.
public protocol ExternalBodyStore: Sendable {
    /// Stores `sealed` under `key`, replacing what was there.
    func store(_ sealed: [UInt8], for key: BodyKey) throws
    /// The bytes stored under `key`, or nil when there are none.
    func load(_ key: BodyKey) throws -> [UInt8]?
    /// Removes what is stored under `key`, if anything.
    func remove(_ key: BodyKey) throws
    /// The keys of everything stored for `device`.
    func keys(device: String) throws -> [BodyKey]
}
