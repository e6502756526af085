import Foundation
import Replication
import Sodium
@testable import ConfigTrack
@testable import CredentialVault
@testable import SecretTrack

/// The edits of a convergence run: every record kind, each through the vault's own method.
extension VaultDevice {
    /// Private key files identities are made from: one plain, one encrypted with a passphrase.
    struct KeyFiles {
        let plain: String
        let encrypted: String
    }

    /// What one random edit did.
    enum EditOutcome: Equatable {
        /// Done; with the secret incarnations it deleted (`reference#incarnation`).
        case done(deleted: Set<String>)
        /// Refused by the vault, as designed: the state merged from other devices no longer
        /// allows it (a host still used as a jump host, a group or jump host deleted elsewhere
        /// that a host still names, a jump chain merged into a loop, a duplicate rule).
        case refused(VaultError.Code)
    }

    /// The refusals a merged state can cause; any other error fails the run.
    static let refusals: Set<VaultError.Code> = [.inUse, .notFound, .invalidInput, .alreadyExists, .conflict]

    /// One edit of a kind chosen by `random`; `step` makes every label unique.
    func randomEdit(step: Int, random: FlakyRemote, keys: KeyFiles) throws -> EditOutcome {
        do {
            switch random.next(9) {
            case 0, 1: try addHost(step: step, random: random)
            case 2: try editHost(random: random)
            case 3: return .done(deleted: try changePassword(step: step, random: random))
            case 4: return .done(deleted: try removeHost(random: random))
            case 5: try editGroups(step: step, random: random)
            case 6: return .done(deleted: try editIdentities(step: step, random: random, keys: keys))
            default: try editForwards(random: random)
            }
            return .done(deleted: [])
        } catch let error as VaultError where Self.refusals.contains(error.code) {
            return .refused(error.code)
        }
    }

    private func addHost(step: Int, random: FlakyRemote) throws {
        var host = Host(id: random.uuid(), label: "h\(step)-\(name)", hostname: "h\(step).example")
        if random.next(2) == 0 { host.groupID = pick(try vault.groups(), random)?.id }
        if random.next(3) == 0, let identity = pick(try vault.identities(), random) {
            host.identityID = identity.id
            host.authMethod = .publicKey
        }
        if random.next(4) == 0 { host.jumpHostID = pick(try vault.hosts(), random)?.id }
        try vault.addHost(host, password: random.next(2) == 0 ? try SecretBytes(utf8: "pw\(step)") : nil)
    }

    private func editHost(random: FlakyRemote) throws {
        guard var host = pick(try vault.hosts(), random) else { return }
        switch random.next(5) {
        case 0: host.port = 1 + Int(random.next(60_000))
        case 1: host.username = random.next(3) == 0 ? nil : "user\(random.next(100))"
        case 2: host.groupID = random.next(3) == 0 ? nil : pick(try vault.groups(), random)?.id
        case 3: host.identityID = random.next(3) == 0 ? nil : pick(try vault.identities(), random)?.id
        default: host.jumpHostID = random.next(3) == 0 ? nil : pick(try vault.hosts().filter { $0.id != host.id }, random)?.id
        }
        try vault.updateHost(host)
    }

    private func changePassword(step: Int, random: FlakyRemote) throws -> Set<String> {
        guard let host = pick(try vault.hosts(), random) else { return [] }
        guard random.next(3) == 0 else {
            try vault.updateHost(host, password: .set(try SecretBytes(utf8: "pw\(step)")))
            return []
        }
        let deleted = try liveIncarnations([.hostPassword(host.id)])
        try vault.updateHost(host, password: .clear)
        return deleted
    }

    private func removeHost(random: FlakyRemote) throws -> Set<String> {
        guard let host = pick(try vault.hosts(), random) else { return [] }
        let deleted = try liveIncarnations([.hostPassword(host.id)])
        try vault.removeHost(CanonicalUUID.text(host.id))
        return deleted
    }

    private func editGroups(step: Int, random: FlakyRemote) throws {
        let groups = try vault.groups()
        switch (random.next(4), pick(groups, random)) {
        case (0, let group?): try vault.removeGroup(CanonicalUUID.text(group.id))
        case (1, var group?):
            group.label = "g\(step)-\(name)"
            try vault.saveGroup(group)
        case (2, var group?):
            group.parentID = pick(groups.filter { $0.id != group.id }, random)?.id
            try vault.saveGroup(group)
        default: try vault.saveGroup(HostGroup(id: random.uuid(), label: "g\(step)-\(name)", parentID: random.next(2) == 0 ? pick(groups, random)?.id : nil))
        }
    }

    private func editIdentities(step: Int, random: FlakyRemote, keys: KeyFiles) throws -> Set<String> {
        if random.next(3) == 0, let identity = pick(try vault.identities(), random) {
            let deleted = try liveIncarnations([.identityPrivateKey(identity.id), .identityPassphrase(identity.id)])
            try vault.removeIdentity(CanonicalUUID.text(identity.id))
            return deleted
        }
        if random.next(2) == 0 {
            try vault.addIdentity(id: random.uuid(), label: "i\(step)-\(name)", privateKeyPath: keys.encrypted, username: nil,
                                  passphrase: try SecretBytes(utf8: "key passphrase"))
        } else {
            try vault.addIdentity(id: random.uuid(), label: "i\(step)-\(name)", privateKeyPath: keys.plain, username: "deploy", passphrase: nil)
        }
        return []
    }

    private func editForwards(random: FlakyRemote) throws {
        if random.next(3) == 0, let rule = pick(try vault.forwards(), random) {
            if random.next(2) == 0 { return try vault.removeForward(id: rule.id) }
            var edited = rule
            edited.bindPort = 1024 + Int(random.next(60_000))
            try vault.saveForward(edited)
            return
        }
        guard let host = pick(try vault.hosts(), random) else { return }
        let port = 1024 + Int(random.next(60_000))
        switch random.next(3) {
        case 0: try vault.saveForward(PortForwardRule(id: random.uuid(), hostID: host.id, kind: .local, bindPort: port, destinationHost: "db.internal", destinationPort: 5432))
        case 1: try vault.saveForward(PortForwardRule(id: random.uuid(), hostID: host.id, kind: .remote, bindAddress: "127.0.0.1", bindPort: port, destinationHost: "localhost", destinationPort: 80))
        default: try vault.saveForward(PortForwardRule(id: random.uuid(), hostID: host.id, kind: .dynamic, bindPort: port))
        }
    }

    /// `reference#incarnation` of each of `references` that holds a body now.
    private func liveIncarnations(_ references: [SecretReference]) throws -> Set<String> {
        var live: Set<String> = []
        for reference in references {
            if case .present(let item) = try secrets.state(of: reference.key) { live.insert("\(reference.key)#\(item.incarnation)") }
        }
        return live
    }

    private func pick<T>(_ items: [T], _ random: FlakyRemote) -> T? {
        items.isEmpty ? nil : items[Int(random.next(UInt64(items.count)))]
    }
}
