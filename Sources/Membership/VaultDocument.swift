import JSON
import Replication
import Sodium

/// `vault.json` of remote format 2: the vault's id and the hash of its roster's genesis, no key
/// material (docs/devices.md). Written once, create-only, after `roster/0.entry`; a device joining
/// reads it to find the genesis it then verifies the roster from — and a recovery key or the
/// codes of an approval authenticate that genesis, never this file alone.
public struct VaultDocument: Sendable, Equatable {
    public static let objectName = "vault.json"
    public static let format = 2

    public let vaultID: String
    public let genesis: [UInt8]

    public init(vaultID: String, genesis: [UInt8]) {
        self.vaultID = vaultID
        self.genesis = genesis
    }

    private struct Document: Codable {
        let format: Int
        let vaultID: String?
        let genesis: String?

        enum CodingKeys: String, CodingKey {
            case format, genesis
            case vaultID = "vault_id"
        }
    }

    public var encoded: [UInt8] {
        let document = Document(format: Self.format, vaultID: vaultID, genesis: Base64.encode(genesis))
        return ((try? JSONCodec.encode(document, pretty: true)) ?? []) + [0x0a]
    }

    /// Reads `vault.json`; one of format 1 is refused with the command that upgrades it.
    public static func decode(_ bytes: [UInt8]) throws -> VaultDocument {
        guard bytes.count <= 64 << 10, let document = try? JSONCodec.decode(Document.self, from: bytes) else {
            throw ReplicationError(.malformed, "The remote's vault.json is not a CredentialVault vault description.")
        }
        guard document.format == format else {
            if document.format == 1 {
                throw ReplicationError(.unsupportedFormat, "This remote is of an older format (1); upgrade it with: credctl remote upgrade")
            }
            throw ReplicationError(.unsupportedFormat, "The remote's vault.json has format \(document.format); this build reads \(format).")
        }
        guard let vaultID = document.vaultID, VersionContext.isDeviceName(vaultID), let text = document.genesis,
              let genesis = Base64.decode(text), genesis.count == SignedFrame.hashCount else {
            throw ReplicationError(.malformed, "The remote's vault.json is damaged.")
        }
        return VaultDocument(vaultID: vaultID, genesis: genesis)
    }
}
