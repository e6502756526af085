import ConfigTrack
import Sodium

extension Identity {
    /// The public key blob of `publicKey` (SSH wire format), or nil when the line is not a key
    /// of a supported type: what an ssh-agent lists and a signature request names.
    public var publicKeyBlob: [UInt8]? { try? PublicKeyLine(parsing: publicKey).blob }

    /// The key's fingerprint as `ssh-keygen -l` shows it: `SHA256:` and the unpadded Base64 of
    /// the blob's SHA-256.
    public static func fingerprint(ofBlob blob: [UInt8]) -> String {
        var text = Base64.encode(SHA256.hash(blob))
        while text.hasSuffix("=") { text.removeLast() }
        return "SHA256:" + text
    }

    /// Whether an agent can sign with the key: a security key's signatures come from its token.
    public var agentCanSign: Bool { keyType != .ed25519SecurityKey && keyType != .ecdsaSecurityKey }
}
