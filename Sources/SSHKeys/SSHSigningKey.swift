import KeyFormats
import Sodium

/// A stored SSH private key, opened to sign as ssh-agent does, so the key never leaves this
/// process (docs/ssh-keys.md).
///
/// It reads every format `credctl identity add` stores: OpenSSH's `openssh-key-v1`, plain or
/// encrypted with bcrypt_pbkdf and any cipher OpenSSH writes, and OpenSSL PEM (PKCS#1, SEC 1,
/// DSA, PKCS#8, plain or encrypted). Ed25519 signs through libsodium, RSA, ECDSA and DSA
/// through OpenSSL's libcrypto, loaded on first use. Key material stays in guarded memory or
/// in OpenSSL's own objects, which clear it when this key is freed.
public final class SSHSigningKey: @unchecked Sendable {
    // `@unchecked Sendable`: every stored property is set once in `init`; signing only reads
    // them (libsodium's signing is pure; an OpenSSL key signs under its own lock).

    /// The SSH wire public key blob; the one the key was opened against.
    public let publicBlob: [UInt8]
    /// The key's algorithm name as in a public key line: "ssh-ed25519", "ssh-rsa",
    /// "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521" or "ssh-dss".
    public let keyType: String
    private let signer: Signer

    /// ssh-agent's `SSH_AGENT_RSA_SHA2_256` and `SSH_AGENT_RSA_SHA2_512` sign flags (the fuzz
    /// harness signs with them; the agent passes a client's flags through as they come).
    public static let rsaSHA256Flag = Signer.rsaSHA256Flag
    public static let rsaSHA512Flag = Signer.rsaSHA512Flag
    /// Key files are a few KiB; the vault stores none over 1 MiB (`credctl identity add`).
    public static let maximumFileCount = 1 << 20

    /// Opens the exact bytes of a private key file as `credctl identity add` stores them (see
    /// `PrivateKeyFile`), with the passphrase when the key is encrypted.
    ///
    /// `publicBlob` is the SSH wire public key blob the vault recorded; the opened key must be
    /// that key. Throws `.passphraseNeeded` for an encrypted key without a passphrase (or with
    /// an empty one), `.wrongPassphrase`, `.mismatch`, `.unsupported` for security keys and
    /// unknown types or ciphers, `.malformed` for anything that is not a consistent key, and
    /// `.unavailable` when libcrypto (Debian's libssl3) is needed and missing.
    public init(privateKey: SecretBytes, passphrase: SecretBytes?, publicBlob: [UInt8]) throws(SSHKeyError) {
        guard privateKey.count <= Self.maximumFileCount else {
            throw SSHKeyError.opening(.malformed, "it is larger than 1 MiB, so it is not a key file")
        }
        do {
            let armor = try privateKey.withUnsafeBytes { bytes in
                guard PEMArmor.looksLikePEM(bytes) else { throw KeyFileDefect("it is not a PEM or OpenSSH private key file") }
                return try PEMArmor(parsing: bytes)
            }
            let opened = armor.label == "OPENSSH PRIVATE KEY"
                ? try OpenSSHKeyFile.open(armor.decoded, passphrase: passphrase, publicBlob: publicBlob)
                : try PEMKeyFile.open(privateKey, armor: armor, passphrase: passphrase, publicBlob: publicBlob)
            keyType = opened.keyType
            signer = opened.signer
            self.publicBlob = publicBlob
        } catch let error as SSHKeyError {
            throw error
        } catch let defect as KeyFileDefect {
            throw SSHKeyError.opening(.malformed, defect.reason)
        } catch {
            // Only guarded memory can fail otherwise (SodiumError).
            throw SSHKeyError.opening(.unavailable, "\(error)")
        }
    }

    /// The SSH signature blob (string algorithm name, string signature) over `data`, as an
    /// ssh-agent `SSH_AGENT_SIGN_RESPONSE` carries it.
    ///
    /// `flags` are ssh-agent's sign flags: for RSA, `SSH_AGENT_RSA_SHA2_256` (2) signs `rsa-sha2-256`,
    /// else `SSH_AGENT_RSA_SHA2_512` (4) `rsa-sha2-512`, else SHA-1 `ssh-rsa`, as OpenSSH's own agent
    /// does. Other types ignore them.
    public func sign(_ data: [UInt8], flags: UInt32) throws(SSHKeyError) -> [UInt8] {
        do {
            return try signer.sign(data, flags: flags, keyType: keyType)
        } catch let error as SSHKeyError {
            throw error
        } catch {
            throw SSHKeyError(.unavailable, "Unable to sign with the \(keyType) key: \(error).")
        }
    }
}
