import ConfigTrack
import Identifiers
import SSHConfig

/// ProxyJump, with a vault in which a host has one jump host and `credctl ssh` builds the chain
/// from each jump host's own jump host.
///
/// For `ProxyJump a,b,c` the target's jump host is one that stands for `c` reached through `b`,
/// reached through `a` — as ssh connects: `a` with its own settings (its own ProxyJump
/// included), each later hop through the one before it, with the user and port the hop gives
/// winning over the named host's. Each hop is the host of that label (in the file or the vault)
/// when it already is what the chain needs: same user and port, and for a later hop, its own
/// jump host already the previous hop's host. Otherwise a jump host of its own is made that
/// copies the named host's connection settings (host name, port, user, identity, auth method;
/// never its password: a stored password method becomes keyboard-interactive, so ssh asks), with
/// the hop's user and port, whose jump host is the previous hop's. Its label says what it is:
/// `NAME-USER-PORT` with only the parts that differ from the named host's (`main-ops`,
/// `main-2201`, `main-ops-2201`), then `-via-PREVIOUS` (the previous hop host's label) when it
/// is reached through other hops than the named host's own jump host: `c-via-b`, or
/// `c-via-b-via-a` when `b` itself needed a hop host. The label names the whole chain, so two
/// chains never share a jump host they would disagree about, and importing again finds the
/// same hosts by label and creates nothing (a host that already has such a label is taken for
/// that jump host and brought up to date; a label the file's Host lines use is refused). A hop that names no host in the file or the vault
/// becomes a host of that label with what the file gives for that name (HostName defaulting to
/// the name, pattern blocks applied), the hop's user and port, and the previous hop as its jump.
extension SSHConfigImporter {
    /// Links every pending ProxyJump, in file order.
    mutating func linkJumps() throws {
        while let next = pendingJumps.first { try link(next.host) }
    }

    /// Links one host's ProxyJump, or records why it cannot be linked as a problem of that host.
    private mutating func link(_ id: UUID) throws {
        guard let position = pendingJumps.firstIndex(where: { $0.host == id }) else { return }
        // Taken off the list first: a chain that leads back here finds nothing left to link and
        // takes this host as it stands; the loop check then refuses the loop.
        let (_, entry, hops) = pendingJumps.remove(at: position)
        let target = entries[entry].name
        linkDepth += 1
        defer { linkDepth -= 1 }
        do {
            guard linkDepth <= Self.deepestChain else { throw SSHConfigJumpProblem("the jump chain is longer than \(Self.deepestChain) hosts") }
            var previous: Host?
            for hop in hops { previous = try host(for: hop, after: previous, target: (id, target)) }
            if let last = previous { try setJump(of: id, to: last, entry: entry) }
        } catch let problem as SSHConfigJumpProblem {
            entries[entry].problems.append("ProxyJump \(hops.map(\.text).joined(separator: ",")) not linked: \(problem.reason)")
        }
    }

    /// The host that stands for `hop` reached through `previous` (nil: the first hop).
    private mutating func host(for hop: SSHConfigJumpHop, after previous: Host?, target: (id: UUID, label: String)) throws -> Host {
        let key = hop.name.lowercased()
        if entries.contains(where: { $0.action == .skipped && $0.name.lowercased() == key }) {
            throw SSHConfigJumpProblem("host '\(hop.name)' is not imported")
        }
        var named: Host
        if let found = hosts.first(where: { $0.label.lowercased() == key }) {
            guard found.id != target.id else { throw SSHConfigJumpProblem("it names the host itself (a loop)") }
            // Its own ProxyJump first: whether the chain can go through it depends on it.
            try link(found.id)
            named = try self.host(id: found.id)
        } else {
            named = try newHost(for: hop, after: previous, target: target.label)
        }
        let user = hop.user.flatMap { $0 == named.username ? nil : $0 }
        let port = hop.port.flatMap { $0 == named.port ? nil : $0 }
        let jump = previous == nil ? named.jumpHostID : previous?.id
        if user == nil, port == nil, jump == named.jumpHostID { return named }
        var label = named.label + (user.map { "-\($0)" } ?? "") + (port.map { "-\($0)" } ?? "")
        if jump != named.jumpHostID, let previous { label += "-via-" + previous.label }
        let hopHost = Host(label: label, hostname: named.hostname, port: port ?? named.port, username: user ?? named.username,
                           authMethod: named.authMethod == .password ? .keyboardInteractive : named.authMethod,
                           identityID: named.identityID, jumpHostID: jump)
        return try save(hopHost, target: target.label)
    }

    /// A host for a hop that names none: what the file gives for that name, with the hop's user
    /// and port. A later hop is reached through the previous one, whatever its own ProxyJump.
    private mutating func newHost(for hop: SSHConfigJumpHop, after previous: Host?, target: String) throws -> Host {
        var plan = SSHConfigHostPlan(SSHConfigHost(alias: hop.name, in: file), home: home, localUser: localUser)
        if let refusal = plan.refusal { throw SSHConfigJumpProblem("host '\(hop.name)': \(refusal)") }
        guard (try? ConfigValidation.label(hop.name, kind: "host")) != nil else { throw SSHConfigJumpProblem("'\(hop.name)' is not a valid host label") }
        if let user = hop.user { plan.username = user }
        if let port = hop.port { plan.port = port }
        if previous != nil { plan.hops = [] }
        guard let host = try add(plan, jump: previous?.id, note: "jump host made for the ProxyJump of '\(target)'") else {
            throw SSHConfigJumpProblem("host '\(hop.name)' cannot be imported")
        }
        try link(host.id)
        return try self.host(id: host.id)
    }

    /// Creates a made-up jump host, or brings the one of that label up to date.
    private mutating func save(_ template: Host, target: String) throws -> Host {
        let key = template.label.lowercased()
        guard !hostLineNames.contains(key) else {
            throw SSHConfigJumpProblem("the jump host it needs, '\(template.label)', would take the name of a Host of this file")
        }
        guard (try? ConfigValidation.label(template.label, kind: "host")) != nil else {
            throw SSHConfigJumpProblem("the jump host it needs would be labelled '\(template.label)', which is not a valid host label")
        }
        var host = template, changed = true
        let index = hosts.firstIndex { $0.label.lowercased() == key }
        if let index {
            host = hosts[index]
            let before = host
            host.hostname = template.hostname
            host.port = template.port
            host.username = template.username
            host.authMethod = template.authMethod
            host.identityID = template.identityID
            guard !leads(from: template.jumpHostID, to: host.id) else { throw SSHConfigJumpProblem("the jump hosts would form a loop") }
            host.jumpHostID = template.jumpHostID
            changed = host != before
            if changed, !dryRun { host = try vault.updateHost(host) }
            hosts[index] = host
        } else {
            if !dryRun { host = try vault.addHost(host) }
            hosts.append(host)
        }
        if let entry = entries.firstIndex(where: { $0.name.lowercased() == key }) {
            if changed, entries[entry].action == .unchanged { entries[entry].action = .updated }
        } else {
            let endpoint = (host.username.map { "\($0)@" } ?? "") + host.hostname + ":\(host.port)"
            entries.append(SSHConfigImportEntry(name: host.label, action: index == nil ? .created : changed ? .updated : .unchanged,
                                                endpoint: endpoint, notes: ["jump host made for the ProxyJump of '\(target)'"]))
        }
        return host
    }

    private mutating func setJump(of id: UUID, to jump: Host, entry: Int) throws {
        guard let index = hosts.firstIndex(where: { $0.id == id }) else { return }
        guard !leads(from: jump.id, to: id) else { throw SSHConfigJumpProblem("the jump hosts would form a loop") }
        guard hosts[index].jumpHostID != jump.id else { return }
        var host = hosts[index]
        host.jumpHostID = jump.id
        if !dryRun { host = try vault.updateHost(host) }
        hosts[index] = host
        if entries[entry].action == .unchanged { entries[entry].action = .updated }
    }

    /// Whether following jump hosts from `start` reaches `id`.
    private func leads(from start: UUID?, to id: UUID) -> Bool {
        var next = start, seen: Set<UUID> = []
        while let current = next, seen.insert(current).inserted {
            if current == id { return true }
            next = hosts.first { $0.id == current }?.jumpHostID
        }
        return false
    }

    private func host(id: UUID) throws -> Host {
        guard let host = hosts.first(where: { $0.id == id }) else { throw SSHConfigJumpProblem("its host is not imported") }
        return host
    }
}
