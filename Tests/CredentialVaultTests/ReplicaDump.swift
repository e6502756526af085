import Sodium
import Replication
import SQLite
@testable import ConfigTrack
@testable import SecretTrack

/// Everything a device replicates, as canonical lines of text: equal dumps mean equal replicas.
/// Every config record kind (hosts, groups, identities, forwards, devices) with all its
/// replicated columns and version, the tombstones, and per secret reference the state that wins.
enum ReplicaDump {
    /// Per config record kind, its table and replicated columns (after `id`, before the version).
    static let configKinds: [(kind: String, table: String, columns: [String])] = [
        (Host.kind, Host.table, Host.columns), (HostGroup.kind, HostGroup.table, HostGroup.columns),
        (Identity.kind, Identity.table, Identity.columns), (PortForwardRule.kind, PortForwardRule.table, PortForwardRule.columns),
        (Device.kind, Device.table, Device.columns),
    ]

    static func lines(config: ConfigStore, secrets: SecretStore) throws -> [String] {
        let db = try Connection(path: config.queue.path)
        var lines: [String] = []
        for (kind, table, columns) in configKinds {
            let names = ["id"] + columns + ["version_clock", "version_device"]
            lines += try db.query("SELECT \(names.joined(separator: ", ")) FROM \(table) ORDER BY id") { row in
                "\(kind) " + (Int32(0)..<Int32(names.count)).map { "\(row.value($0))" }.joined(separator: "|")
            }
        }
        lines += try db.query("SELECT record_name, version_clock, version_device FROM config_tombstones ORDER BY record_name") {
            "tombstone \($0.text(0) ?? "") \($0.int64(1)) \($0.text(2) ?? "")"
        }
        // Per reference, the state that wins: a body, or the newest deletion if it is of that
        // incarnation or later. Markers of incarnations a newer body superseded are redundant
        // (the newer incarnation already beats any delivery of the old one) and need not travel.
        var winners: [String: String] = [:]
        for item in try secrets.items() {
            // Each device seals its own copy (and seals it again in each new epoch): the same
            // body is the same plaintext, compared by digest; one that does not open says so.
            let body = (try? secrets.read(item.reference)).map { GenericHash.hash($0.withUnsafeBytes { Array($0) }) }
            winners[item.reference] = "item \(item.reference) #\(item.incarnation) \(item.version) \(item.availability) \(body.map { "\($0)" } ?? "does not open")"
        }
        for reference in try Connection(path: secrets.queue.path).query("SELECT DISTINCT reference FROM deletion_markers", [], { $0.text(0) ?? "" }) {
            guard case .deleted(let marker) = try secrets.state(of: reference) else { continue }
            winners[reference] = "deleted \(reference) #\(marker.incarnation) \(marker.version)"
        }
        return lines + winners.keys.sorted().map { winners[$0]! }
    }

    /// The version of the config record `recordName` of `kind` in `config`: its live version,
    /// its tombstone's, or nil when the store holds neither.
    static func configVersion(_ config: ConfigStore, recordName: String, kind: String) throws -> (RecordVersion, deleted: Bool)? {
        guard let table = configKinds.first(where: { $0.kind == kind })?.table, let id = ConfigZone.id(of: recordName, kind: kind) else { return nil }
        let db = try Connection(path: config.queue.path)
        if let live = try db.queryFirst("SELECT version_clock, version_device FROM \(table) WHERE id = ?", [CanonicalUUID.text(id)], {
            RecordVersion(clock: $0.uint64(0), device: $0.text(1) ?? "")
        }) {
            return (live, false)
        }
        return try db.queryFirst("SELECT version_clock, version_device FROM config_tombstones WHERE record_name = ?", [recordName]) {
            (RecordVersion(clock: $0.uint64(0), device: $0.text(1) ?? ""), true)
        }
    }
}
