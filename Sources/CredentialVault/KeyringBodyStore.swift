import Keyring
import Replication
import SecretTrack
import Sodium

/// The desktop keyring as the place for a vault's sealed bodies (the `keyring` secret backend):
/// one item per body version, named by the device that keeps it, the reference, incarnation
/// and version, holding the sealed bytes exactly as `secrets.sqlite` would (never a plaintext
/// secret).
struct KeyringBodyStore: ExternalBodyStore {
    static let keyring = Keyring(schema: "org.credvault.SecretBody", attributes: ["device_id", "reference", "incarnation", "version"])

    func store(_ sealed: [UInt8], for key: BodyKey) throws {
        let bytes = try SecretBytes(copying: sealed)
        try Self.calling { () throws(KeyringError) in try Self.keyring.store(bytes, label: "CredentialVault secret \(key.reference) (sealed)", values: Self.values(key)) }
    }

    func load(_ key: BodyKey) throws -> [UInt8]? {
        try Self.calling { () throws(KeyringError) in try Self.keyring.lookup(Self.values(key)) }.map { $0.withUnsafeBytes { Array($0) } }
    }

    func remove(_ key: BodyKey) throws {
        _ = try Self.calling { () throws(KeyringError) in try Self.keyring.clear(Self.values(key)) }
    }

    func keys(device: String) throws -> [BodyKey] {
        try Self.calling { () throws(KeyringError) in try Self.keyring.search(["device_id": device]) }.compactMap { Self.key($0.attributes) }
    }

    private static func values(_ key: BodyKey) -> [String: String] {
        ["device_id": key.device, "reference": key.reference, "incarnation": String(key.incarnation), "version": "\(key.version.clock):\(key.version.device)"]
    }

    private static func key(_ attributes: [String: String]) -> BodyKey? {
        guard let device = attributes["device_id"], let reference = attributes["reference"],
              let incarnation = attributes["incarnation"].flatMap({ Int64($0) }),
              let version = attributes["version"]?.split(separator: ":", maxSplits: 1), version.count == 2,
              let clock = UInt64(version[0]) else { return nil }
        return BodyKey(device: device, reference: reference, incarnation: incarnation, version: RecordVersion(clock: clock, device: String(version[1])))
    }

    /// A locked keyring is `locked` (exit 77, like a locked vault); one that cannot be reached
    /// or does not answer is `unavailable` (69), so no script takes it for a wrong passphrase.
    private static func calling<T>(_ body: () throws(KeyringError) -> T) throws -> T {
        do {
            return try body()
        } catch {
            let message = "This vault keeps its secrets in the desktop keyring, which cannot be used now: \(error.message)"
            switch error.code {
            case .locked:
                throw SecretError(.locked, message, hint: "Unlock the keyring in the desktop session that holds it.")
            case .noBus, .noProvider, .timedOut:
                throw SecretError(.unavailable, message, hint: "Run this in the desktop session whose keyring holds them.")
            case .noLibrary:
                // The message names the package to install.
                throw SecretError(.unavailable, message)
            case .failed:
                throw SecretError(.storage, message)
            }
        }
    }
}
