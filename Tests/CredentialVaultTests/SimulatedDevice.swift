import FoundationEssentials
import Replication
import Sodium
@testable import ConfigTrack
@testable import SecretTrack

/// One device for the tests of the replication engine itself (compaction, recovery): both
/// tracks over real SQLite files under a name the test chooses, synced by `ZoneEngine` directly,
/// with a skewed clock. The convergence property drives whole vaults instead (`VaultDevice`).
struct SimulatedDevice {
    let name: String
    let config: ConfigStore
    let secrets: SecretStore
    let configZone: RecordingZone
    let secretZone: RecordingZone

    init(name: String, directory: String, vaultKey: SecretBytes, skewMilliseconds: Int64) throws {
        self.name = name
        config = try ConfigStore.create(at: "\(directory)/\(name)-config.sqlite", deviceID: name)
        secrets = try SecretStore.create(at: "\(directory)/\(name)-secrets.sqlite", storeID: "vault", deviceID: name,
                                         provider: .passphrase(try SecretBytes(utf8: "pw")), kdf: .insecureForTesting(), vaultKey: vaultKey)
        config.clockSkew.withLock { $0 = skewMilliseconds }
        secrets.clockSkew.withLock { $0 = skewMilliseconds }
        configZone = RecordingZone(ConfigZone(store: config))
        secretZone = RecordingZone(SecretZone(store: secrets))
    }

    /// The device again from its database files (after a restart, or a restore from backup).
    init(reopening name: String, directory: String) throws {
        self.name = name
        config = try ConfigStore.open(at: "\(directory)/\(name)-config.sqlite")
        secrets = try SecretStore.open(at: "\(directory)/\(name)-secrets.sqlite")
        configZone = RecordingZone(ConfigZone(store: config))
        secretZone = RecordingZone(SecretZone(store: secrets))
    }

    func addHost(label: String, password: String?) throws {
        var host = Host(label: label, hostname: "\(label).example", authMethod: password == nil ? .agent : .password)
        if let password {
            host.passwordRef = .hostPassword(host.id)
            try secrets.put(try SecretBytes(utf8: password), for: host.passwordRef!.key, availability: .syncable)
        }
        try config.save(host)
    }

    func editPort(_ host: Host, port: Int) throws {
        var edited = host
        edited.port = port
        try config.save(edited)
    }

    func setPassword(_ host: Host, _ password: String) throws {
        try secrets.put(try SecretBytes(utf8: password), for: SecretReference.hostPassword(host.id).key, availability: .syncable)
        var edited = host
        edited.passwordRef = .hostPassword(host.id)
        try config.save(edited)
    }

    func clearPassword(_ host: Host) throws {
        var edited = host
        edited.passwordRef = nil
        try config.save(edited)
        try secrets.delete(SecretReference.hostPassword(host.id).key)
    }

    func removeHost(_ host: Host) throws {
        try config.removeHost(id: host.id)
        try secrets.delete(SecretReference.hostPassword(host.id).key)
    }

    /// Everything replicated, in a canonical text form: equal dumps mean equal replicas.
    func dump() throws -> [String] { try ReplicaDump.lines(config: config, secrets: secrets) }
}
