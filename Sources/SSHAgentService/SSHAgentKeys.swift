/// The keys behind an ssh-agent socket: what it lists and how it signs. The credctl agent's
/// come from its unlocked vault; `credctl ssh`'s own from the keys it opened for one connection.
/// Called from a connection's thread, several at once.
public protocol SSHAgentKeys: Sendable {
    /// The identities to list; none while the keys are unavailable (a locked vault).
    func identities() -> [SSHAgentIdentity]
    /// The signature blob (string algorithm, string signature) over `data` with the key whose
    /// public blob is `keyBlob`, or nil to refuse: a key this socket does not serve, a locked
    /// vault, a confirmation refused, a key that cannot be opened. `forwarded`: the request came
    /// from another host through agent forwarding (ssh said so with `session-bind@openssh.com`),
    /// which must be confirmed by the user whatever the key.
    func sign(keyBlob: [UInt8], data: [UInt8], flags: UInt32, forwarded: Bool) -> [UInt8]?
}
