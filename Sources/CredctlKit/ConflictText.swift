import CredentialVault
import Glibc

/// How `conflicts list` names a kept version and what beat it, for people: the record's label
/// instead of its reference, device names instead of ids, times in UTC. Never the secret.
struct ConflictText {
    let vault: Vault
    private let deviceNames: [String: String]

    init(vault: Vault) throws {
        self.vault = vault
        deviceNames = Dictionary(try vault.devices().map { (CanonicalUUID.text($0.id), $0.displayName) }, uniquingKeysWith: { first, _ in first })
    }

    /// "password of host 'web'", or the bare reference once the record is gone.
    func secret(_ conflict: SecretConflict) -> String { vault.describeSecret(conflict.lost.reference) }

    func device(_ id: String) -> String {
        id == vault.deviceID ? "this device" : deviceNames[id] ?? "device " + String(id.prefix(8))
    }

    func winner(_ conflict: SecretConflict) -> String {
        (conflict.winnerDeleted ? "deleted on " : "edit from ") + device(conflict.winner.device) + " at " + Self.time(conflict.winner.seconds)
    }

    /// Unix seconds as `2026-11-29 23:50 UTC`.
    static func time(_ seconds: Int64) -> String {
        var value = time_t(seconds)
        var parts = tm()
        gmtime_r(&value, &parts)
        func two(_ number: Int32) -> String { number < 10 ? "0\(number)" : "\(number)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) \(two(parts.tm_hour)):\(two(parts.tm_min)) UTC"
    }
}

extension RecordVersion {
    /// The wall-clock second a version was stamped at.
    var seconds: Int64 { Int64(milliseconds / 1_000) }
}
