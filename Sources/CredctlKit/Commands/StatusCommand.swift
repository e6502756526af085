import Agent
import CredentialVault
import Keyring

struct StatusCommand: Command {
    static let path = ["status"]
    static let spec = CommandSpec(
        path: path,
        summary: "Show the vault's path, ids, lock state, record counts and sync state.",
        overview: "Show the vault's path, ids, lock state, record counts and the sync state of each zone. Never needs unlocking.",
        usage: ["status [--json]"],
        options: [],
        positionals: 0...0,
        examples: ["credctl status", "credctl status --json"],
        printsData: true)

    init(_ parsed: ParsedCommand) throws {}

    /// Bytes as people read them: 512 B, 3.4 KiB, 12.0 MiB, 1.5 GiB.
    static func size(_ bytes: Int64) -> String {
        guard bytes >= 1_024 else { return "\(bytes) B" }
        var value = Double(bytes) / 1_024, unit = 0
        let units = ["KiB", "MiB", "GiB", "TiB"]
        while value >= 1_024 && unit < units.count - 1 { value /= 1_024; unit += 1 }
        return "\((value * 10).rounded() / 10) \(units[unit])"
    }

    func run(_ context: Context) throws {
        let status = try context.openVault().status()
        // Asked every time (bounded): a desktop session's keyring comes and goes.
        let keyring = Keyring.status()
        // Asked, bounded in time; an agent of another vault at this place counts as none.
        let agent = AgentClient(place: context.agentPlace).flatMap { try? $0.status() }.flatMap { $0.vaultID == status.vaultID ? $0 : nil }
        let agentState: String = agent.map { $0.unlocked ? "unlocked" : "locked" } ?? "not-running"
        let agentJSON = JSONValue.object([("state", .string(agentState)), ("pid", .optional(agent.map { Int($0.pid) })),
                                          ("seconds_left", .optional(agent?.secondsLeft)), ("last_sync", .optional(agent?.sync.last.map { Int($0) })),
                                          ("next_sync", .optional(agent?.sync.next.map { Int($0) })), ("sync_error", .optional(agent?.sync.error)),
                                          ("sync_count", .optional(agent?.sync.count)), ("remote_watch", .optional(agent?.sync.watch)),
                                          ("ssh_auth_sock", .optional(agent.map { _ in context.agentPlace.sshSocket }))])
        if context.json {
            Output.json(.object([
                ("path", .string(status.path)), ("vault_id", .string(status.vaultID)), ("device_id", .string(status.deviceID)),
                ("locked", .bool(!status.unlocked)), ("unlock_methods", .array(status.unlockMethods.map(JSONValue.string))),
                ("passphrase_kdf", status.passphraseKDF.map { kdf in
                    .object([("algorithm", .string(kdf.algorithm)), ("ops_limit", .int(Int(kdf.opsLimit))),
                             ("mem_limit", .int(Int(kdf.memLimit))), ("weak", .bool(kdf.isWeak))])
                } ?? .null),
                ("secret_backend", .string(status.secretBackend.rawValue)),
                ("counts", .object([("hosts", .int(status.hosts)), ("groups", .int(status.groups)), ("identities", .int(status.identities)),
                                    ("forwards", .int(status.forwards)), ("device_only_secrets", .int(status.deviceOnlySecrets)),
                                    ("syncable_secrets", .int(status.syncableSecrets)), ("deletion_markers", .int(status.deletionMarkers)),
                                    ("awaiting_migration", .int(status.awaitingMigration)),
                                    ("awaiting_verification", .int(status.awaitingVerification)), ("conflicts", .int(status.conflicts)), ("config_conflicts", .int(status.configConflicts)),
                                    ("orphans", .int(status.orphans))])),
                ("remote", .optional(status.remote)), ("remote_kind", .optional(status.remoteKind)), ("remote_endpoint", .optional(status.remoteEndpoint)),
                ("remote_conditional_writes", status.remoteConditionalWrites.map(JSONValue.bool) ?? .null),
                ("remote_objects", status.remoteObjects.map(JSONValue.int) ?? .null), ("remote_bytes", status.remoteBytes.map { JSONValue.int(Int($0)) } ?? .null),
                ("remote_measured_at", status.remoteMeasuredAt.map { JSONValue.int(Int($0)) } ?? .null),
                ("keyring", .object([("state", .string(keyring.name)), ("reason", .optional(keyring.reason))])),
                ("agent", agentJSON),
                ("invalid_records", .array(status.ruleViolations.map { violation in
                    .object([("kind", .string(violation.kind)), ("label", .string(violation.label)), ("reason", .string(violation.reason))])
                })),
                ("zones", .array(status.zones.map { zone in
                    .object([("name", .string(zone.name)), ("state", .string(zone.state.rawValue)), ("reason", .optional(zone.reason)),
                             ("last_fetch", .optional(zone.lastFetch.map(Int.init))), ("last_send", .optional(zone.lastSend.map(Int.init))),
                             ("pending_changes", .int(zone.pendingChanges)), ("quarantined", .int(zone.quarantined)),
                             ("waiting", .int(zone.waiting)), ("waiting_since", .optional(zone.waitingSince.map(Int.init))),
                             ("unreadable_objects", .array(zone.unreadableObjects.map(JSONValue.string))),
                             ("quarantine_dropped", .int(Int(clamping: zone.quarantineDropped)))])
                })),
            ]))
            return
        }
        var lines = [
            "Vault:       \(status.path)",
            "Vault id:    \(status.vaultID)",
            "Device id:   \(status.deviceID)",
            "Lock state:  locked (unlocks with \(status.unlockMethods.joined(separator: ", ")))",
        ]
        if let kdf = status.passphraseKDF {
            lines.append("Passphrase:  Argon2id, \(kdf.opsLimit) passes over \(kdf.memLimit >> 10) KiB" + (kdf.isWeak ? " (WEAK: test-suite parameters)" : ""))
        }
        lines.append("Secrets in:  " + (status.secretBackend == .keyring ? "the desktop keyring (sealed; metadata in secrets.sqlite)" : "secrets.sqlite"))
        lines += [
            "Hosts:       \(status.hosts)    Groups: \(status.groups)    Identities: \(status.identities)    Forwards: \(status.forwards)"
                + (status.configConflicts > 0 ? "    (\(status.configConflicts) losing field value\(status.configConflicts == 1 ? "" : "s") kept: credctl conflicts list)" : ""),
            "Secrets:     \(status.deviceOnlySecrets) device-only, \(status.syncableSecrets) syncable, \(status.deletionMarkers) deletion markers"
                + (status.awaitingMigration > 0 ? ", \(status.awaitingMigration) to become syncable at the next unlock" : "")
                + (status.awaitingVerification > 0 ? ", \(status.awaitingVerification) migrated awaiting verification on the remote" : "")
                + (status.orphans > 0 ? ", \(status.orphans) unreferenced (orphan) bod\(status.orphans == 1 ? "y" : "ies")" : "")
                + (status.conflicts > 0 ? ", \(status.conflicts) losing version\(status.conflicts == 1 ? "" : "s") kept (credctl conflicts list)" : ""),
        ]
        if let remote = status.remote {
            var line = "Remote:      \(remote)" + (status.remoteEndpoint.map { " at \($0)" } ?? "")
            if status.remoteConditionalWrites == false {
                line += " (the store ignores create-only writes: each device writes only names of its own, read first, which is safe while one copy of each vault directory syncs at a time)"
            }
            lines.append(line)
            if let objects = status.remoteObjects, let bytes = status.remoteBytes {
                lines.append("             \(objects) object\(objects == 1 ? "" : "s"), \(Self.size(bytes)) (measured by the last sync, at most hourly)")
            }
        }
        lines.append("Keyring:     \(keyring.name)" + (keyring.reason.map { " (\($0))" } ?? ""))
        lines.append("Agent:       " + (agent.map { agent in
            agent.unlocked ? "unlocked (pid \(agent.pid); locks in \(Self.duration(agent.secondsLeft ?? 0)) at the latest, or with credctl lock)"
                : "running, locked (pid \(agent.pid); credctl unlock)"
        } ?? "not running (credctl unlock starts one)"))
        if agent != nil { lines.append("             ssh-agent: SSH_AUTH_SOCK=\(context.agentPlace.sshSocket)") }
        if let sync = agent?.sync, sync.last != nil || sync.next != nil {
            lines.append("             background sync: last \(sync.last.map { LocalTime.iso($0) } ?? "never")"
                         + (sync.next.map { ", next \(LocalTime.iso($0))" } ?? ", running now") + (sync.error.map { "; failed: \($0)" } ?? "")
                         + " (\(sync.count) since it started)")
            lines.append("             and soon after each local change" + (sync.watch.map { watch in
                watch == AgentSyncStatus.watching ? " or change in the remote directory (inotify)" : "; the remote directory is not watched: \(watch)"
            } ?? ""))
        }
        for zone in status.zones {
            let reason = zone.reason.map { ": \($0)" } ?? ""
            lines.append("Zone \(zone.name):".padding(13) + "\(zone.state.rawValue)\(reason) (\(zone.pendingChanges) pending, \(zone.quarantined) quarantined"
                         + (zone.waiting > 0 ? ", \(zone.waiting) waiting for an earlier object" : "") + ")")
        }
        if !status.ruleViolations.isEmpty {
            let count = status.ruleViolations.count
            lines.append("Invalid:     \(count) record\(count == 1 ? " breaks" : "s break") rules credctl now checks (stored before them; refused by ssh and export until edited):")
            for violation in status.ruleViolations { lines.append("             \(violation.kind) '\(violation.label)': \(violation.reason)") }
        }
        Output.out(lines.joined(separator: "\n") + "\n")
    }

    /// `14m 05s`, `2h 03m`, `42s`.
    static func duration(_ seconds: Int) -> String {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        if seconds >= 3_600 { return "\(seconds / 3_600)h \(two(seconds % 3_600 / 60))m" }
        if seconds >= 60 { return "\(seconds / 60)m \(two(seconds % 60))s" }
        return "\(seconds)s"
    }
}
