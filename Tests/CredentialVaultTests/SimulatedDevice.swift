import FoundationEssentials
import Replication
import SQLite
import Sodium
@testable import ConfigTrack
@testable import SecretTrack

/// One device of a convergence run: both tracks over real SQLite files, with the facade's write
/// order (body before reference, reference before body on removal) and a skewed clock.
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
    func dump() throws -> [String] {
        let hosts = try Connection(path: config.queue.path).query("""
            SELECT id, label, hostname, port, username, auth_method, identity_id, group_id, jump_host_id, password_ref, version_clock, version_device
            FROM hosts ORDER BY id
            """) { row in (Int32(0)..<12).map { "\(row.value($0))" }.joined(separator: "|") }
        let tombstones = try Connection(path: config.queue.path).query("SELECT record_name, version_clock, version_device FROM config_tombstones ORDER BY record_name") {
            "tombstone \($0.text(0) ?? "") \($0.int64(1)) \($0.text(2) ?? "")"
        }
        // Per reference, the state that wins: a body, or the newest deletion if it is of that
        // incarnation or later. Markers of incarnations a newer body superseded are redundant
        // (the newer incarnation already beats any delivery of the old one) and need not travel.
        var winners: [String: String] = [:]
        for item in try secrets.items() {
            let sealed = try secrets.read("body") { db in try secrets.state(db, item.reference).sealed } ?? []
            winners[item.reference] = "item \(item.reference) #\(item.incarnation) \(item.version) \(item.availability) \(sealed)"
        }
        for reference in try Connection(path: secrets.queue.path).query("SELECT DISTINCT reference FROM deletion_markers", [], { $0.text(0) ?? "" }) {
            guard case .deleted(let marker) = try secrets.state(of: reference) else { continue }
            winners[reference] = "deleted \(reference) #\(marker.incarnation) \(marker.version)"
        }
        return hosts + tombstones + winners.keys.sorted().map { winners[$0]! }
    }
}
