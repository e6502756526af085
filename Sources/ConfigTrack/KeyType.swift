/// The algorithm of an SSH key, spelled as OpenSSH spells it in a public key line.
public enum KeyType: String, Sendable, CaseIterable, Codable {
    case ed25519 = "ssh-ed25519"
    case ecdsaP256 = "ecdsa-sha2-nistp256"
    case ecdsaP384 = "ecdsa-sha2-nistp384"
    case ecdsaP521 = "ecdsa-sha2-nistp521"
    case rsa = "ssh-rsa"
    case ed25519SecurityKey = "sk-ssh-ed25519@openssh.com"
    case ecdsaSecurityKey = "sk-ecdsa-sha2-nistp256@openssh.com"
    case dsa = "ssh-dss"
}
