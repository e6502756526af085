import ConfigTrack
import Replication
import SecretTrack

/// How far this device's unsent edits reach: the clock of the newest pending upload of each
/// track. A local edit ticks its track's clock past every version the track has seen, so a mark
/// taken after some work that is past one taken before says the work left something new to send
/// (a sync in between only ever lowers it: sent edits leave the journal).
public struct LocalEditMark: Sendable, Equatable {
    let config: UInt64?
    let secrets: UInt64?

    /// Where `vault`'s journals stand now; a track that cannot be read counts as holding nothing.
    public init(of vault: Vault) {
        config = try? ConfigZone(store: vault.config).newestPendingEdit()
        secrets = try? SecretZone(store: vault.secrets).newestPendingEdit()
    }

    /// Whether an edit was made since `earlier` that still waits to be sent.
    public func isPast(_ earlier: LocalEditMark) -> Bool {
        func past(_ now: UInt64?, _ then: UInt64?) -> Bool { now.map { $0 > then ?? 0 } ?? false }
        return past(config, earlier.config) || past(secrets, earlier.secrets)
    }
}
