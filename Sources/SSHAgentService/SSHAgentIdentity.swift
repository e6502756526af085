/// A key an ssh-agent offers: its public key blob (SSH wire format) and a comment (the
/// identity's label, which `ssh-add -L` shows).
public struct SSHAgentIdentity: Equatable, Sendable {
    public let keyBlob: [UInt8]
    public let comment: String

    public init(keyBlob: [UInt8], comment: String) {
        self.keyBlob = keyBlob
        self.comment = comment
    }
}
