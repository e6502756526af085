import FoundationEssentials
import Replication
import Sodium

/// `remote.json` in the vault directory: which remote this vault syncs with, the remote vault
/// id it is bound to, and the transport key.
///
/// The transport key seals what the remote stores; it is kept readable by the user (mode 0600)
/// so sync runs while the vault is locked. Secret bodies stay sealed under the vault key, which
/// never appears here.
struct RemoteBinding: Codable {
    static let fileName = "remote.json"

    let kind: String
    let location: String
    let vaultID: String
    let transportKey: String
    /// BLAKE2b of the `vault.json` bound to: a remote whose keys were re-created (after a reset)
    /// is noticed even when its vault id is the same.
    let keysDigest: String
    /// Set while a rebind's requeue (cursors reset, every record queued again) is not done yet:
    /// a crash in between finishes it at the next sync instead of leaving records unsent.
    var requeuePending: Bool? = nil
    /// S3 only: the endpoint, region and addressing (never a credential), and whether the store
    /// honours create-only writes (found when binding).
    var endpoint: String? = nil
    var region: String? = nil
    var pathStyle: Bool? = nil
    var conditionalWrites: Bool? = nil

    enum CodingKeys: String, CodingKey {
        case kind, location, endpoint, region
        case pathStyle = "path_style"
        case conditionalWrites = "conditional_writes"
        case vaultID = "vault_id"
        case transportKey = "transport_key"
        case keysDigest = "keys_digest"
        case requeuePending = "requeue_pending"
    }

    static func digest(_ vaultJSON: [UInt8]) -> String { Base64.encode(GenericHash.hash(vaultJSON)) }

    init(address: RemoteAddress, vaultID: String, transportKey: String, keysDigest: String, requeuePending: Bool? = nil, conditionalWrites: Bool = true) {
        kind = address.kind
        location = address.location
        self.vaultID = vaultID
        self.transportKey = transportKey
        self.keysDigest = keysDigest
        self.requeuePending = requeuePending
        if case .s3(let s3) = address {
            endpoint = s3.endpoint
            region = s3.region
            pathStyle = s3.pathStyle
            self.conditionalWrites = conditionalWrites
        }
    }

    /// Where the binding points.
    func address() throws -> RemoteAddress {
        switch kind {
        case "directory": return .directory(location)
        // Plain HTTP was refused when the binding was made, unless the user allowed it then.
        case "s3": return try RemoteAddress.parse(location, endpoint: endpoint, region: region, pathStyle: pathStyle ?? false, allowInsecureHTTP: true)
        default: throw VaultError(.storage, "The vault's remote kind '\(kind)' is not supported by this build.")
        }
    }

    func remote() throws -> any Remote { try address().open(conditionalWrites: conditionalWrites ?? true) }

    func key() throws -> SecretBytes {
        guard let bytes = Base64.decode(transportKey), bytes.count == SealedBox.keyCount else {
            throw VaultError(.corrupt, "The vault's remote.json holds no usable transport key.")
        }
        return try SecretBytes(copying: bytes)
    }

    static func load(from directory: VaultDirectory) throws -> RemoteBinding? {
        let path = directory.path + "/" + fileName
        guard VaultDirectory.exists(path) else { return nil }
        let contents = try SecretBytes.read(contentsOfFile: path, limit: 64 << 10)
        guard let binding = contents.withUnsafeBytes({ try? JSONDecoder().decode(RemoteBinding.self, from: Data($0)) }) else {
            throw VaultError(.corrupt, "The vault's \(fileName) is damaged.", hint: "Bind the remote again with credctl remote set.")
        }
        return binding
    }

    /// Writes the binding atomically with mode 0600 (temp file, fsync, rename).
    func save(in directory: VaultDirectory) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let bytes = Array(try encoder.encode(self)) + [0x0a]
        try AtomicFile.write(bytes, to: directory.path + "/" + Self.fileName)
    }
}
