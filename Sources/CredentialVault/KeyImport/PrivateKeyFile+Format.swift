extension PrivateKeyFile {
    /// The container a private key file uses.
    public enum Format: String, Sendable, CaseIterable {
        /// `-----BEGIN OPENSSH PRIVATE KEY-----` (`openssh-key-v1`), the default of `ssh-keygen`.
        case openSSH
        /// OpenSSL PEM: PKCS#1 RSA, SEC 1 EC, DSA or PKCS#8, possibly encrypted.
        case pem
    }
}
