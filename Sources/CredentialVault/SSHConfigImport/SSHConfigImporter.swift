import ConfigTrack
import FoundationEssentials
import Glibc

/// The writes of one ssh_config import, in order: hosts and their keys and forwards, then the
/// jump links (a jump host may come later in the file).
struct SSHConfigImporter {
    let vault: Vault
    let dryRun: Bool
    var hosts: [Host]
    var identities: [Identity]
    private var results: [(name: String, action: SSHConfigImportEntry.Action, endpoint: String?, notes: [String], key: Bool)] = []
    private var jumps: [(index: Int, host: UUID, jump: (host: String, user: String?, port: Int?))] = []

    init(vault: Vault, dryRun: Bool, hosts: [Host], identities: [Identity]) {
        self.vault = vault
        self.dryRun = dryRun
        self.hosts = hosts
        self.identities = identities
    }

    var entries: [SSHConfigImportEntry] {
        results.map { SSHConfigImportEntry(name: $0.name, action: $0.action, endpoint: $0.endpoint, notes: $0.notes, importsKey: $0.key) }
    }

    mutating func add(_ plan: SSHConfigHostPlan) throws {
        var notes = plan.notes
        if let refusal = plan.refusal { return results.append((plan.alias, .skipped, nil, notes + [refusal], false)) }
        guard (try? ConfigValidation.label(plan.alias, kind: "host")) != nil else {
            return results.append((plan.alias, .skipped, nil, notes + ["'\(plan.alias)' is not a valid host label"], false))
        }
        let known = identities.count
        let identity = try identity(for: plan, notes: &notes)
        let existingIndex = hosts.firstIndex { $0.label.lowercased() == plan.alias.lowercased() }
        var host = existingIndex.map { hosts[$0] } ?? Host(label: plan.alias, hostname: plan.hostname)
        let before = host
        host.hostname = plan.hostname
        host.port = plan.port
        host.username = plan.username
        if plan.jump == nil { host.jumpHostID = nil }
        if let identity {
            host.identityID = identity.id
            if host.authMethod == .agent { host.authMethod = .publicKey }
        }
        var changed = existingIndex == nil || host != before
        if !dryRun {
            if existingIndex == nil { host = try vault.addHost(host) } else if changed { host = try vault.updateHost(host) }
        }
        if let existingIndex { hosts[existingIndex] = host } else { hosts.append(host) }
        changed = try addForwards(plan, to: host) || changed
        if let jump = plan.jump { jumps.append((results.count, host.id, jump)) }
        results.append((plan.alias, existingIndex == nil ? .created : changed ? .updated : .unchanged, plan.endpoint, notes, identities.count > known))
    }

    mutating func linkJumps() throws {
        for (index, hostID, spec) in jumps {
            let name = spec.host
            guard let position = hosts.firstIndex(where: { $0.id == hostID }) else { continue }
            guard let jump = hosts.first(where: { $0.label.lowercased() == name.lowercased() }), jump.id != hostID else {
                results[index].notes.append("ProxyJump \(name) not linked: no host of that name")
                continue
            }
            if let user = spec.user, user != jump.username {
                results[index].notes.append("ProxyJump \(user)@\(name) not linked: host \(name) logs in as \(jump.username ?? "the local user")")
                continue
            }
            if let port = spec.port, port != jump.port {
                results[index].notes.append("ProxyJump \(name):\(port) not linked: host \(name) uses port \(jump.port)")
                continue
            }
            guard hosts[position].jumpHostID != jump.id else { continue }
            var host = hosts[position]
            host.jumpHostID = jump.id
            if !dryRun {
                do { host = try vault.updateHost(host) } catch {
                    results[index].notes.append("ProxyJump \(name) not linked: \(error.message)")
                    continue
                }
            }
            hosts[position] = host
            if results[index].action == .unchanged { results[index].action = .updated }
        }
    }

    /// Adds the plan's forwards the host does not have yet; whether any was added.
    private func addForwards(_ plan: SSHConfigHostPlan, to host: Host) throws -> Bool {
        let existing = try vault.forwards(forHost: host.id)
        var known = Set(existing.map { "\($0.kind.rawValue) \($0.specification)" })
        var added = false
        for (kind, specification) in plan.forwards {
            let rule = try ForwardSpecification.parse(specification, kind: kind, hostID: host.id)
            guard known.insert("\(kind.rawValue) \(rule.specification)").inserted else { continue }
            if !dryRun { try vault.saveForward(rule) }
            added = true
        }
        return added
    }

    /// The identity for the plan's key file: one already in the vault with the same public key,
    /// or a new one labelled with the file's name.
    private mutating func identity(for plan: SSHConfigHostPlan, notes: inout [String]) throws -> Identity? {
        guard let path = plan.identityFile else { return nil }
        guard access(path, R_OK) == 0 else {
            notes.append("IdentityFile \(path) not found")
            return nil
        }
        let key: PrivateKeyFile
        do { key = try PrivateKeyFile.load(path: path) } catch {
            notes.append("IdentityFile \(path) not imported: \(VaultError.from(error).message)")
            return nil
        }
        let blob = key.publicKey.split(separator: " ").prefix(2).joined(separator: " ")
        if let known = identities.first(where: { $0.publicKey.split(separator: " ").prefix(2).joined(separator: " ") == blob }) { return known }
        let base = path.split(separator: "/").last.map(String.init) ?? "key"
        var label = base, suffix = 2
        while identities.contains(where: { $0.label.lowercased() == label.lowercased() }) {
            label = "\(base)-\(suffix)"
            suffix += 1
        }
        let identity = dryRun ? Identity(label: label, keyType: key.keyType, publicKey: key.publicKey)
            : try vault.addIdentity(label: label, privateKeyPath: path)
        identities.append(identity)
        notes.append("key \(path) imported as identity '\(label)'")
        return identity
    }
}
