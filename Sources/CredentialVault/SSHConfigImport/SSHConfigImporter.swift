import ConfigTrack
import Identifiers
import Glibc
import SSHConfig

/// The writes of one ssh_config import, in order: hosts and their keys and forwards, then the
/// jump links (a jump host may come later in the file) and the jump hosts they need. With
/// `dryRun` the same steps run on copies in memory, so a plan reports exactly what the import
/// would do, problems included.
struct SSHConfigImporter {
    let vault: Vault
    let file: SSHConfigFile
    let home: String
    let localUser: String
    let dryRun: Bool
    var hosts: [Host]
    var identities: [Identity]
    var entries: [SSHConfigImportEntry] = []
    /// Every name of the file's Host lines, lowercased: labels no made-up jump host may take.
    var hostLineNames: Set<String> = []
    /// Hosts whose ProxyJump is still to be linked, in file order.
    var pendingJumps: [(host: UUID, entry: Int, hops: [SSHConfigJumpHop])] = []
    /// How many links are being made inside one another (a hop's own ProxyJump first): bounded,
    /// so a file that chains thousands of hosts gets a problem, not a stack overflow.
    var linkDepth = 0
    static let deepestChain = 32

    init(vault: Vault, file: SSHConfigFile, home: String, localUser: String, dryRun: Bool) throws {
        self.vault = vault
        self.file = file
        self.home = home
        self.localUser = localUser
        self.dryRun = dryRun
        hosts = try vault.config.hosts()
        identities = try vault.config.identities()
    }

    /// Imports one host: creates it or updates the host of the same label, with its key and the
    /// forwards it lacks. Its jump is `jump` when the plan has no ProxyJump (nil: a direct
    /// connection); a ProxyJump is linked later by `linkJumps`. Nil when it cannot be imported.
    @discardableResult
    mutating func add(_ plan: SSHConfigHostPlan, jump: UUID? = nil, note: String? = nil) throws -> Host? {
        var notes = note.map { [$0] } ?? []
        var problems = plan.problems
        if plan.refusal != nil { return skip(plan.alias, notes: notes, problems: problems) }
        guard (try? ConfigValidation.label(plan.alias, kind: "host")) != nil else {
            return skip(plan.alias, notes: notes, problems: problems + ["'\(plan.alias)' is not a valid host label"])
        }
        let known = identities.count
        let identity = try identity(for: plan, notes: &notes, problems: &problems)
        let existingIndex = hosts.firstIndex { $0.label.lowercased() == plan.alias.lowercased() }
        var host = existingIndex.map { hosts[$0] } ?? Host(label: plan.alias, hostname: plan.hostname)
        let before = host
        host.hostname = plan.hostname
        host.port = plan.port
        host.username = plan.username
        if plan.hops.isEmpty { host.jumpHostID = jump }
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
        if !plan.hops.isEmpty { pendingJumps.append((host.id, entries.count, plan.hops)) }
        entries.append(SSHConfigImportEntry(name: plan.alias, action: existingIndex == nil ? .created : changed ? .updated : .unchanged,
                                            endpoint: plan.endpoint, notes: notes, problems: problems, importsKey: identities.count > known))
        return host
    }

    private mutating func skip(_ name: String, notes: [String], problems: [String]) -> Host? {
        entries.append(SSHConfigImportEntry(name: name, action: .skipped, notes: notes, problems: problems))
        return nil
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
    private mutating func identity(for plan: SSHConfigHostPlan, notes: inout [String], problems: inout [String]) throws -> Identity? {
        guard let path = plan.identityFile else { return nil }
        guard access(path, R_OK) == 0 else {
            problems.append("IdentityFile \(path) not found")
            return nil
        }
        let key: PrivateKeyFile
        do { key = try PrivateKeyFile.load(path: path) } catch {
            problems.append("IdentityFile \(path) not imported: \(VaultError.from(error).message)")
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
