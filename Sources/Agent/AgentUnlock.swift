import CredentialVault
import Identifiers
import Glibc
import SSHKeys
import UnixSockets

/// The agent's hold on its vault: unlocked until a deadline — the idle time since the last use,
/// or the maximum since the unlock, whichever comes first — then locked, its keys wiped.
/// Used only under the server's mutex (`Shared`), hence unchecked.
final class AgentUnlock: @unchecked Sendable {
    static let defaultIdle = 15 * 60
    static let defaultMaximum = 12 * 3_600
    /// No unlock lasts longer than a day, whatever is asked.
    static let longestMaximum = 24 * 3_600

    let vault: Vault
    /// Keys the ssh-agent sockets opened (an encrypted key's KDF is slow), wiped with the vault.
    var openedKeys: [UUID: SSHSigningKey] = [:]
    private var idle = defaultIdle
    private var lockedAt: (idle: Int64, maximum: Int64)?

    init(vault: Vault) { self.vault = vault }

    var isUnlocked: Bool { lockedAt != nil && vault.isUnlocked }

    /// Seconds until it locks, or nil when locked.
    var secondsLeft: Int? {
        guard let lockedAt, vault.isUnlocked else { return nil }
        return Int(max(0, min(lockedAt.idle, lockedAt.maximum) - Self.now))
    }

    /// Unlocks with the material given — always checked again, even when already unlocked — for
    /// `idle` seconds since each use and `maximum` since now (never more than a day).
    func unlock(kind: String, material: SecretBytes, idle: Int?, maximum: Int?) throws {
        let maximum = min(maximum ?? Self.defaultMaximum, Self.longestMaximum)
        guard (idle ?? 0) <= maximum else { throw VaultError(.invalidInput, "The idle time cannot be longer than the maximum (\(maximum) s).") }
        lock()
        switch kind {
        case "passphrase": try vault.unlock(.passphrase(material))
        case "keyfile": try vault.unlock(.keyFileContents(material))
        default: try vault.unlockWithKeyring()
        }
        self.idle = idle ?? Self.defaultIdle
        lockedAt = (Self.now + Int64(self.idle), Self.now + Int64(maximum))
    }

    /// A use that needs the keys: pushes the idle deadline on (never past the maximum).
    func used() {
        guard let deadlines = lockedAt else { return }
        lockedAt = (Self.now + Int64(idle), deadlines.maximum)
    }

    func lock() {
        openedKeys.removeAll()
        vault.lock()
        lockedAt = nil
    }

    /// Locks when a deadline has passed; whether it did.
    @discardableResult
    func expire() -> Bool {
        guard let lockedAt, Self.now >= min(lockedAt.idle, lockedAt.maximum) else { return false }
        lock()
        return true
    }

    /// Seconds on the clock that keeps counting while the machine sleeps: a laptop asleep past
    /// its deadline wakes locked.
    private static var now: Int64 { Deadline.nowMilliseconds / 1_000 }
}
