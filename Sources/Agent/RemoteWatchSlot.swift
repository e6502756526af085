import CredentialVault
import Glibc

/// The agent's watch on its vault's remote directory, as far as it can have one: none for an
/// S3 remote or without a remote; kept while it watches the directory bound; set up again after
/// a sync when the remote was bound anew or its directory came back (unmounted, then mounted);
/// given up for good once the kernel's inotify limits are reached — said once on standard error,
/// and the agent then syncs on its schedule and after local changes only. Used by the sync
/// thread only.
struct RemoteWatchSlot {
    private let vaultPath: String
    private var watch: RemoteWatch?
    /// What `status` says: `AgentSyncStatus.watching`, else why not; nil without a directory.
    private(set) var description: String?
    private var limitReached = false

    init(vaultPath: String) {
        self.vaultPath = vaultPath
        refresh()
    }

    /// Waits up to `milliseconds` for the remote directory to change; whether it did.
    mutating func wait(milliseconds: Int32) -> Bool {
        guard let current = watch else {
            usleep(UInt32(milliseconds) * 1_000)
            return false
        }
        let changed = current.wait(milliseconds: milliseconds)
        if let ended = current.ended {
            watch = nil
            note(ended)
        }
        return changed
    }

    /// Watches the directory the vault is bound to now, keeping a watch that still does.
    mutating func refresh() {
        guard let vault = try? Vault.open(at: vaultPath), case .directory(let root)? = vault.remoteAddress else {
            watch = nil
            description = nil
            return
        }
        if let watch, watch.root == root { return }
        watch = nil
        guard !limitReached else { return }
        do {
            watch = try RemoteWatch(root: root, device: vault.deviceID)
            description = AgentSyncStatus.watching
        } catch {
            note(error)
        }
    }

    private mutating func note(_ failure: RemoteWatch.Failure) {
        description = failure.message
        guard failure.limitReached, !limitReached else { return }
        limitReached = true
        // Its standard error is the journal under systemd (and /dev/null when credctl unlock started it).
        let line = Array("credctl agent: not watching the remote directory (\(failure.message)); it syncs on its schedule and after local changes only.\n".utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }
}
