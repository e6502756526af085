import JSON
import Sodium

/// `vault.json` on the remote: the vault's id and format, and its vault and transport keys
/// wrapped under the sync passphrase (Argon2id, parameters stored and authenticated).
///
/// Written once, by the first device, with create-only semantics; a later key generation would
/// be a new object, never an overwrite. Joining a device needs the sync passphrase.
public struct RemoteVaultKeys: Sendable {
    public static let objectName = "vault.json"
    public static let format = 1
    static let purpose = SealPurpose(tag: 4, label: "credvault/v1/remote-keys")

    public let vaultID: String
    public let vaultKey: SecretBytes
    public let transportKey: SecretBytes

    public init(vaultID: String, vaultKey: SecretBytes, transportKey: SecretBytes) {
        self.vaultID = vaultID
        self.vaultKey = vaultKey
        self.transportKey = transportKey
    }

    private struct Document: Codable {
        let format: Int
        let vaultID: String
        let kdf: String
        let opsLimit: UInt64
        let memLimit: UInt64
        let salt: String
        let wrappedKeys: String

        enum CodingKeys: String, CodingKey {
            case format, kdf, salt
            case vaultID = "vault_id"
            case opsLimit = "ops_limit"
            case memLimit = "mem_limit"
            case wrappedKeys = "wrapped_keys"
        }
    }

    /// The `vault.json` bytes: keys wrapped under `passphrase`.
    public func encoded(passphrase: SecretBytes, kdf: KDFParameters) throws -> [UInt8] {
        let wrapping = try Argon2id.deriveKey(passphrase: passphrase, parameters: kdf)
        let plain = try vaultKey.appending(transportKey)
        let wrapped = try SealedBox.seal(plain, key: wrapping, purpose: Self.purpose, context: Self.context(vaultID: vaultID, kdf: kdf))
        let document = Document(format: Self.format, vaultID: vaultID, kdf: kdf.algorithm, opsLimit: kdf.opsLimit, memLimit: kdf.memLimit,
                                salt: Base64.encode(kdf.salt), wrappedKeys: Base64.encode(wrapped))
        return try JSONCodec.encode(document, pretty: true) + [0x0a]
    }

    /// Just the vault id, readable without the passphrase (to check a binding).
    public static func vaultID(in bytes: [UInt8]) throws -> String {
        try decode(bytes).vaultID
    }

    /// Unwraps the keys; a wrong passphrase is `authenticationFailed`.
    public static func open(_ bytes: [UInt8], passphrase: SecretBytes) throws -> RemoteVaultKeys {
        let document = try decode(bytes)
        guard let salt = Base64.decode(document.salt), let wrapped = Base64.decode(document.wrappedKeys) else {
            throw ReplicationError(.malformed, "The remote's vault.json is damaged.")
        }
        let kdf = KDFParameters(algorithm: document.kdf, opsLimit: document.opsLimit, memLimit: document.memLimit, salt: salt)
        let wrapping: SecretBytes
        do {
            wrapping = try Argon2id.deriveKey(passphrase: passphrase, parameters: kdf)
        } catch {
            throw ReplicationError(.malformed, "The remote's vault.json has unusable key derivation parameters.")
        }
        let plain: SecretBytes
        do {
            plain = try SealedBox.open(wrapped, key: wrapping, purpose: purpose, context: context(vaultID: document.vaultID, kdf: kdf))
        } catch {
            throw ReplicationError(.authenticationFailed, "The sync passphrase does not open this remote's keys.")
        }
        guard plain.count == 2 * SealedBox.keyCount else { throw ReplicationError(.malformed, "The remote's vault.json holds keys of the wrong size.") }
        return RemoteVaultKeys(vaultID: document.vaultID, vaultKey: try plain.slice(0..<SealedBox.keyCount),
                               transportKey: try plain.slice(SealedBox.keyCount..<(2 * SealedBox.keyCount)))
    }

    private static func decode(_ bytes: [UInt8]) throws -> Document {
        guard bytes.count <= 64 << 10, let document = try? JSONCodec.decode(Document.self, from: bytes) else {
            throw ReplicationError(.malformed, "The remote's vault.json is not a CredentialVault key file.")
        }
        guard document.format == format else {
            throw ReplicationError(.unsupportedFormat, "The remote's vault.json has format \(document.format); this build reads \(format).")
        }
        return document
    }

    private static func context(vaultID: String, kdf: KDFParameters) -> [UInt8] {
        Array("\(vaultID)\u{0}\(format)\u{0}\(kdf.canonicalText)".utf8) + kdf.salt
    }
}
