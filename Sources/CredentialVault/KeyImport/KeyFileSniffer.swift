import KeyFormats

/// Recognises files people commonly mistake for an SSH private key, to reject them with a
/// message that says what they are.
enum KeyFileSniffer {
    /// PEM labels of public keys.
    static let publicKeyLabels: Set<String> = ["PUBLIC KEY", "RSA PUBLIC KEY", "SSH2 PUBLIC KEY", "OPENSSH PUBLIC KEY"]

    static let publicKeyDefect = KeyFileDefect("this is a public key; give the private key file",
                                               hint: "the private key is usually the same path without .pub")

    private static let putty = Array("PuTTY-User-Key-File-".utf8)
    private static let rfc4716 = Array("---- BEGIN SSH2 PUBLIC KEY ----".utf8)
    private static let publicTypePrefixes = ["ssh-", "ecdsa-sha2-", "sk-ssh-", "sk-ecdsa-"].map { Array($0.utf8) }

    /// Throws a `KeyFileDefect` naming what `bytes` are when they are a PuTTY key or an OpenSSH
    /// or RFC 4716 public key; returns otherwise.
    static func rejectKnownNonKeys(_ bytes: UnsafeRawBufferPointer) throws {
        let start = bytes.firstIndex(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) ?? bytes.count
        let text = bytes[start...]
        if text.starts(with: putty) {
            throw KeyFileDefect("PuTTY key: convert with puttygen",
                                hint: "puttygen KEY.ppk -O private-openssh -o KEY, then import KEY")
        }
        if text.starts(with: rfc4716) || isPublicKeyLine(text) { throw publicKeyDefect }
    }

    /// True when the first word looks like an OpenSSH key type name followed by key data, as in
    /// `ssh-ed25519 AAAA… comment` or `ssh-rsa-cert-v01@openssh.com AAAA…`.
    private static func isPublicKeyLine(_ text: Slice<UnsafeRawBufferPointer>) -> Bool {
        guard publicTypePrefixes.contains(where: { text.starts(with: $0) }) else { return false }
        let word = text.prefix(80).prefix(while: { $0 > 0x20 && $0 < 0x7F })
        guard word.count < 80, word.endIndex < text.endIndex, [0x20, 0x09].contains(text[word.endIndex]) else { return false }
        // The key data of every type starts with the Base64 of a 32-bit length below 2^24.
        return text[(word.endIndex + 1)...].starts(with: Array("AAAA".utf8))
    }
}
