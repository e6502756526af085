import ConfigTrack
import Replication
import SecretTrack

/// An honest summary of a vault on this device; gathering it needs no key.
public struct VaultStatus: Sendable {
    /// The replication state of one zone: `localOnly` without a remote; `syncing` while a sync
    /// runs; otherwise the outcome of the last sync run (`available`, `localFallback`,
    /// `needsAttention`).
    public enum ZoneState: String, Sendable {
        case localOnly
        case syncing
        case available
        case localFallback
        case needsAttention
        /// A remote is set and this device has not synced with it yet (nothing failed).
        case neverSynced
    }

    public struct Zone: Sendable {
        public let name: String
        public let state: ZoneState
        /// Why, for `localFallback` and `needsAttention`.
        public let reason: String?
        /// Unix seconds of the last successful fetch and send.
        public let lastFetch: Int64?
        public let lastSend: Int64?
        /// Local edits waiting to be uploaded.
        public let pendingChanges: Int
        public let quarantined: Int
        /// Objects waiting behind a gap in another device's sequence, and since when (Unix
        /// seconds) the gap has been there.
        public let waiting: Int
        public let waitingSince: Int64?
        /// Objects that cannot be read (quarantined whole; read again by every sync), and
        /// quarantined entries dropped to keep quarantine within its bounds.
        public let unreadableObjects: [String]
        public let quarantineDropped: UInt64
    }

    /// How long a gap may stay open before the zone needs attention: sync tools deliver late,
    /// but a day without the missing object means it was most likely lost on the way.
    public static let gapPatienceSeconds: Int64 = 86_400

    public let path: String
    public let vaultID: String
    public let deviceID: String
    public let unlocked: Bool
    /// How this vault unlocks on this device (`passphrase`, `keyfile`).
    public let unlockMethods: [String]
    /// The Argon2id parameters of the passphrase slot, when the vault has one.
    public let passphraseKDF: KDFParameters?
    /// Where the sealed bodies are kept.
    public let secretBackend: SecretBackend
    public let hosts: Int
    public let groups: Int
    public let identities: Int
    public let forwards: Int
    public let deviceOnlySecrets: Int
    public let syncableSecrets: Int
    public let deletionMarkers: Int
    /// Device-only secrets that the next unlock will make syncable (with a remote bound).
    public let awaitingMigration: Int
    /// Migrated secrets whose device-only copy stays until the remote is verified to hold them.
    public let awaitingVerification: Int
    /// Versions of secrets made here that lost a merge, kept for `conflicts restore`.
    public let conflicts: Int
    /// Config field values written here that lost a merge, kept for `conflicts restore`.
    public let configConflicts: Int
    /// Secret bodies that no host or identity names (never usable; collected after a grace period).
    public let orphans: Int
    public let zones: [Zone]
    /// Where the vault syncs, if anywhere (a path or an s3:// address; never a credential).
    public let remote: String?
    /// `directory` or `s3`, with an S3 remote's endpoint, and whether that store refuses to
    /// overwrite (when it does not, every device writing only its own names keeps it safe).
    public let remoteKind: String?
    public let remoteEndpoint: String?
    public let remoteConditionalWrites: Bool?
    /// What the remote held when a sync last measured it (hourly), and when (Unix seconds).
    public let remoteObjects: Int?
    public let remoteBytes: Int64?
    public let remoteMeasuredAt: Int64?
    /// Stored records that break the rules saves and merges now hold records to (written before
    /// those rules): refused by `ssh` and `export ssh-config` until edited.
    public let ruleViolations: [RuleViolation]
}

extension Vault {
    public func status() throws(VaultError) -> VaultStatus {
        try VaultError.wrapping {
            let binding = try RemoteBinding.load(from: directory)
            let records = ZoneStatusRecord.load(from: directory)
            let syncing = binding != nil && directory.isLockedByAnother()
            let usage = binding == nil ? nil : RemoteUsageRecord.load(from: directory)
            let configCounts = try config.counts()
            let secretCounts = try secrets.counts()
            return VaultStatus(
                path: directory.path, vaultID: vaultID, deviceID: deviceID, unlocked: isUnlocked,
                unlockMethods: try secrets.providers().map(\.rawValue), passphraseKDF: try secrets.passphraseParameters(),
                secretBackend: secrets.backend,
                hosts: configCounts.hosts, groups: configCounts.groups, identities: configCounts.identities, forwards: configCounts.forwards,
                deviceOnlySecrets: secretCounts.deviceOnly, syncableSecrets: secretCounts.syncable, deletionMarkers: secretCounts.deletionMarkers,
                awaitingMigration: binding == nil ? 0 : secretCounts.awaitingMigration,
                awaitingVerification: secretCounts.awaitingVerification, conflicts: secretCounts.conflicts, configConflicts: configCounts.conflicts, orphans: try orphanedSecrets().count,
                zones: [
                    zone(.config, binding: binding, records: records, syncing: syncing, pending: configCounts.pendingChanges, quarantined: configCounts.quarantined,
                         summary: try config.quarantineSummary()),
                    zone(.secrets, binding: binding, records: records, syncing: syncing, pending: secretCounts.pendingChanges, quarantined: secretCounts.quarantined,
                         summary: try secrets.quarantineSummary()),
                ], remote: binding?.location, remoteKind: binding?.kind, remoteEndpoint: binding?.endpoint,
                remoteConditionalWrites: binding?.kind == "s3" ? binding?.conditionalWrites ?? true : nil,
                remoteObjects: usage?.objects, remoteBytes: usage?.bytes, remoteMeasuredAt: usage?.measuredAt,
                ruleViolations: try config.ruleViolations())
        }
    }

    private func zone(_ zone: SyncZone, binding: RemoteBinding?, records: [String: ZoneStatusRecord], syncing: Bool, pending: Int,
                      quarantined: Int, summary: QuarantineSummary) -> VaultStatus.Zone {
        guard binding != nil else {
            return VaultStatus.Zone(name: zone.rawValue, state: .localOnly, reason: nil, lastFetch: nil, lastSend: nil, pendingChanges: pending,
                                    quarantined: quarantined, waiting: 0, waitingSince: nil, unreadableObjects: summary.unreadableObjects,
                                    quarantineDropped: summary.dropped)
        }
        let record = records[zone.rawValue]
        var state = record.flatMap { VaultStatus.ZoneState(rawValue: $0.state) } ?? .neverSynced
        var reason = record == nil ? "never synced with the remote from this device; run credctl sync" : record?.reason
        let now = Int64(HybridLogicalClock.wallMilliseconds() / 1_000)
        if syncing {
            // The outcome being made replaces the last one; until then, say what is going on.
            state = .syncing
            reason = nil
        } else if state == .available, let object = summary.unreadableObjects.first {
            state = .needsAttention
            let more = summary.unreadableObjects.count - 1
            reason = "\(Self.describe(object)) cannot be read" + (more > 0 ? " (and \(more) more object\(more == 1 ? "" : "s"))" : "")
                + "; every sync reads it again and applies it once it opens (see credctl quarantine list)"
        } else if state == .available, quarantined > 0 || summary.dropped > 0 {
            state = .needsAttention
            reason = "\(quarantined) received change\(quarantined == 1 ? " is" : "s are") quarantined (see credctl quarantine list)"
                + (summary.dropped > 0 ? "; \(summary.dropped) older entr\(summary.dropped == 1 ? "y was" : "ies were") dropped to keep quarantine within its bounds" : "")
        } else if state == .available, let waiting = record?.waiting, let since = record?.waitingSince, now - since > VaultStatus.gapPatienceSeconds {
            state = .needsAttention
            reason = "\(waiting) object\(waiting == 1 ? "" : "s") from another device \(waiting == 1 ? "has" : "have") waited more than a day for an earlier one that never arrived (lost by the sync tool?); that device's later changes are not applied until it does"
        }
        return VaultStatus.Zone(name: zone.rawValue, state: state, reason: reason, lastFetch: record?.lastFetch, lastSend: record?.lastSend,
                                pendingChanges: pending, quarantined: quarantined, waiting: record?.waiting ?? 0, waitingSince: record?.waitingSince,
                                unreadableObjects: summary.unreadableObjects, quarantineDropped: summary.dropped)
    }

    /// `zones/<zone>/<device>/<sequence>.batch` as a person reads it.
    private static func describe(_ object: String) -> String {
        let parts = object.split(separator: "/")
        guard parts.count == 4, let sequence = UInt64(parts[3].prefix { $0 != "." }) else { return "object \(object)" }
        return "batch \(sequence) of device \(parts[2]) in zone \(parts[1])"
    }
}
