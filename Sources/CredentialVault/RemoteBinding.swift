import JSON
import Replication
import Sodium

/// `remote.json` in the vault directory (docs/devices.md, "Local files"): which remote this vault
/// syncs with, the vault id it is bound to, the remote format, the genesis hash pinned when this
/// device joined, and the transport keys of every epoch it holds.
///
/// The transport keys seal what the remote stores; they are kept readable by the user (mode
/// 0600) so sync runs while the vault is locked. Secret bodies stay sealed under the vault keys,
/// which never appear here; with `device-keys`, a copy of this file writes config as this device
/// only, never as another, never a secret and never a roster entry.
struct RemoteBinding: Codable {
    static let fileName = "remote.json"
    static let format = 2

    let kind: String
    let location: String
    let vaultID: String
    /// 2; absent in the bindings of format 1, which carried one shared transport key.
    var format: Int? = nil
    /// The hash of the roster's genesis (Base64): every object is signed for it.
    var genesis: String? = nil
    /// Epoch number → that epoch's transport key (Base64).
    var transportKeys: [String: String]? = nil
    /// In `join.json` only: the hash of the join request this device wrote (Base64); only an
    /// `add` that names it is this device's approval.
    var requestHash: String? = nil
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
        case location, endpoint, region
        case pathStyle = "path_style"
        case conditionalWrites = "conditional_writes"
        case kind, format, genesis
        case vaultID = "vault_id"
        case transportKeys = "transport_keys"
        case requestHash = "request_hash"
        case requeuePending = "requeue_pending"
    }

    init(address: RemoteAddress, vaultID: String, genesis: [UInt8], transportKeys: [UInt32: SecretBytes], requeuePending: Bool? = nil, conditionalWrites: Bool = true) {
        kind = address.kind
        location = address.location
        self.vaultID = vaultID
        format = Self.format
        self.genesis = Base64.encode(genesis)
        self.transportKeys = Dictionary(uniqueKeysWithValues: transportKeys.map { (String($0.key), $0.value.withUnsafeBytes { Base64.encode($0) }) })
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
        case "s3":
            do {
                return try RemoteAddress.parse(location, endpoint: endpoint, region: region, pathStyle: pathStyle ?? false, allowInsecureHTTP: true)
            } catch {
                // Earlier builds read endpoints more loosely (an IPv6 zone, a name not in ASCII).
                throw VaultError(.invalidInput, "The vault's remote.json names an S3 remote this build does not accept: \(error.message)",
                                 hint: "Bind it again with: credctl remote set \(location) --endpoint http[s]://HOST[:PORT] (a name in its ASCII, punycode form)")
            }
        default: throw VaultError(.storage, "The vault's remote kind '\(kind)' is not supported by this build.")
        }
    }

    func remote() throws -> any Remote { try address().open(conditionalWrites: conditionalWrites ?? true) }

    /// The pinned genesis hash; a binding of format 1 is refused with the command that upgrades it.
    func pinnedGenesis() throws -> [UInt8] {
        guard format == Self.format else {
            throw VaultError(.conflict, "This vault is bound to a remote of an older format (1).",
                             hint: "Upgrade the remote from one device with: credctl remote upgrade (it asks for the sync passphrase once); the other devices then join it again with: credctl remote set \(location)")
        }
        guard let genesis, let bytes = Base64.decode(genesis), bytes.count == 32 else {
            throw VaultError(.corrupt, "The vault's remote.json holds no usable genesis hash.", hint: "Bind the remote again with credctl remote set.")
        }
        return bytes
    }

    /// The transport key of every epoch this device holds.
    func keys() throws -> [UInt32: SecretBytes] {
        var keys: [UInt32: SecretBytes] = [:]
        for (epoch, text) in transportKeys ?? [:] {
            guard let number = UInt32(epoch), let bytes = Base64.decode(text), bytes.count == SealedBox.keyCount else {
                throw VaultError(.corrupt, "The vault's remote.json holds an unusable transport key.")
            }
            keys[number] = try SecretBytes(copying: bytes)
        }
        guard !keys.isEmpty else { throw VaultError(.corrupt, "The vault's remote.json holds no transport key.") }
        return keys
    }

    /// The binding with `keys` held as well.
    func adding(_ keys: [UInt32: SecretBytes]) -> RemoteBinding {
        var binding = self
        var held = transportKeys ?? [:]
        for (epoch, key) in keys { held[String(epoch)] = key.withUnsafeBytes { Base64.encode($0) } }
        binding.transportKeys = held
        return binding
    }

    /// Whether `directory` holds a binding file, read or not: a vault bound to a remote.
    static func exists(in directory: VaultDirectory) -> Bool { VaultDirectory.exists(location(in: directory)) }

    private static func location(in directory: VaultDirectory, fileName: String = fileName) -> String { directory.path + "/" + fileName }

    static func load(from directory: VaultDirectory, fileName: String = fileName) throws -> RemoteBinding? {
        let path = location(in: directory, fileName: fileName)
        guard VaultDirectory.exists(path) else { return nil }
        let contents = try SecretBytes.read(contentsOfFile: path, limit: 64 << 10)
        guard let binding = contents.withUnsafeBytes({ try? JSONCodec.decode(RemoteBinding.self, from: Array($0)) }) else {
            throw VaultError(.corrupt, "The vault's \(fileName) is damaged.", hint: "Bind the remote again with credctl remote set.")
        }
        return binding
    }

    /// Writes the binding atomically with mode 0600 (temp file, fsync, rename).
    func save(in directory: VaultDirectory, fileName: String = fileName) throws {
        let bytes = try JSONCodec.encode(self, pretty: true) + [0x0a]
        try AtomicFile.write(bytes, to: Self.location(in: directory, fileName: fileName))
    }
}
