import ConfigTrack
import Glibc
import Membership
import Sodium
import Replication
import SecretTrack
import Synchronization
import Threads

extension Vault {
    /// One sync round per zone: fetch, merge, send. Zones fail independently: an unreachable
    /// remote leaves a zone in `localFallback`, a remote that now holds another vault (reset or
    /// replaced) or a device-name conflict in `needsAttention` — and nothing is uploaded then.
    /// Needs no unlocking. Throws only when the vault has no remote.
    /// `progress` is told, during long runs, how far each zone has come — from the zones' own
    /// threads, concurrently. `compaction` says when snapshots are written and old objects
    /// collected (see `CompactionPolicy`).
    public func sync(zones: [SyncZone] = SyncZone.allCases, compaction: CompactionPolicy = .fromEnvironment(),
                     progress: (@Sendable (SyncZone, Int, Int) -> Void)? = nil) throws(VaultError) -> [ZoneOutcome] {
        try sync(zones: zones, compaction: compaction, progress: progress, remote: { $0 }, stores: { $0 })
    }

    /// `sync` with the bound remote replaced by `remote(bound)` and each zone's store by
    /// `stores(store)`: the seam through which tests run this very sync over a remote that
    /// delays, drops and duplicates objects, and record what each zone had acknowledged.
    func sync(zones: [SyncZone], compaction: CompactionPolicy, progress: (@Sendable (SyncZone, Int, Int) -> Void)?,
              remote: (any Remote) -> any Remote, stores: @escaping @Sendable (any ZoneStore) -> any ZoneStore) throws(VaultError) -> [ZoneOutcome] {
        let distinct = SyncZone.allCases.filter(zones.contains)
        // One sync at a time per vault: two would race each other for the same object names.
        return try VaultError.wrapping {
            try directory.withExclusiveLock { try syncLocked(zones: distinct, compaction: compaction, progress: progress, remote: remote, stores: stores) }
        }
    }

    private func syncLocked(zones: [SyncZone], compaction: CompactionPolicy, progress: (@Sendable (SyncZone, Int, Int) -> Void)?,
                            remote replace: (any Remote) -> any Remote, stores: @escaping @Sendable (any ZoneStore) -> any ZoneStore) throws -> [ZoneOutcome] {
        try VaultError.wrapping {
            guard let binding = try RemoteBinding.load(from: directory) else {
                throw VaultError(.noRemote, "This vault has no remote to sync with.", hint: "Set one with: credctl remote set DIR")
            }
            let remote = replace(try binding.remote())
            let genesis = try binding.pinnedGenesis()
            // A rebind cut short before its requeue finishes here, before anything is sent.
            if binding.requeuePending == true { try finishRebind(binding, remote: remote) }
            var records = ZoneStatusRecord.load(from: directory)
            // Each device announces itself in the config zone the first time it syncs.
            try config.announceDevice()
            let access = try zoneAccess(binding, remote, genesis: genesis)
            // For the reasons a zone gives: devices by name where the roster opens one — read only
            // when a zone has something to say (it verifies the roster again), at most once.
            let named = Mutex<[String: String]?>(nil)
            let names: @Sendable () -> [String: String] = { [self] in
                named.withLock { cached in
                    if let cached { return cached }
                    let found = Dictionary(((try? rosterDevices()) ?? []).map { device in (device.id, device.name.map { "'\($0)' (\(device.id))" } ?? device.id) },
                                           uniquingKeysWith: { first, _ in first })
                    cached = found
                    return found
                }
            }
            // The zones share nothing but the remote (each has its own database, journal and
            // cursors), so they run side by side: a join takes as long as the larger zone.
            let config = config, secrets = secrets
            let results = Mutex<[SyncZone: ZoneOutcome]>([:])
            ParallelWork.run(zones.count) { index in
                let zone = zones[index]
                let store = stores(zone == .config ? ConfigZone(store: config) : SecretZone(store: secrets))
                var report: (@Sendable (ZoneSyncReport) -> Void)?
                if let progress { report = { progress(zone, $0.receivedChanges, $0.sentChanges) } }
                let outcome = Self.run(zone, store: store, remote: remote, access: access, compaction: compaction, progress: report, names: names)
                results.withLock { $0[zone] = outcome }
            }
            let outcomes = results.withLock { finished in zones.compactMap { finished[$0] } }
            // Migrated secrets keep their device-only copy until the remote holds the new body.
            if outcomes.contains(where: { $0.zone == .secrets && $0.state == .available }), case .success(let seal) = access {
                do {
                    try SecretZone(store: secrets).verifyMigrations(remote: remote, seal: seal)
                } catch {
                    SyncLog.failure(zone: SyncZone.secrets.rawValue, stage: "verify-migrations", code: "unreadable")
                }
            }
            for outcome in outcomes {
                let zone = outcome.zone
                var record = records[zone.rawValue] ?? ZoneStatusRecord(state: outcome.state.rawValue)
                record.state = outcome.state.rawValue
                record.reason = outcome.reason
                if outcome.state == .available {
                    let now = Int64(HybridLogicalClock.wallMilliseconds() / 1_000)
                    record.lastFetch = now
                    if outcome.sentChanges > 0 || record.lastSend == nil { record.lastSend = now }
                    record.waiting = outcome.waiting > 0 ? outcome.waiting : nil
                    record.waitingSince = outcome.waiting > 0 ? record.waitingSince ?? now : nil
                }
                records[zone.rawValue] = record
            }
            try ZoneStatusRecord.save(records, in: directory)
            if outcomes.contains(where: { $0.state == .available }) {
                // Compaction changes what the remote holds a lot: measured again at once.
                let compacted = outcomes.contains { $0.collectedObjects > 0 || $0.snapshotsWritten > 0 }
                RemoteUsageRecord.refresh(remote, in: directory, now: Int64(HybridLogicalClock.wallMilliseconds() / 1_000), force: compacted)
            }
            // Losing versions and unreferenced bodies are kept for a fixed period, then collected.
            try secrets.collectExpiredConflicts()
            try config.collectExpiredConflicts()
            let now = Int64(HybridLogicalClock.wallMilliseconds() / 1_000)
            if try secrets.orphanCheckDue(now: now) {
                if outcomes.contains(where: { $0.snapshotsRead > 0 }) { try secrets.postponeOrphanCheck(now: now) } else { try collectOrphans(now: now) }
            }
            return outcomes
        }
    }

    /// Why nothing may be read or sent, or the seal the zones read and write through: the
    /// remote's `vault.json` must still name the bound vault and its genesis, the roster must
    /// verify from that genesis, and this device must be one of its members.
    private func zoneAccess(_ binding: RemoteBinding, _ remote: any Remote, genesis: [UInt8]) throws -> Result<SignedSeal, ZoneProblem> {
        guard binding.vaultID == vaultID else {
            return .failure(ZoneProblem(.needsAttention, nil, "this vault now belongs to vault \(vaultID), but its remote binding names \(binding.vaultID) (an interrupted remote set); run credctl remote set again with --merge"))
        }
        do {
            guard let bytes = try remote.get(VaultDocument.objectName) else {
                return .failure(ZoneProblem(.needsAttention, nil, "the remote no longer holds this vault (vault.json is missing); it may have been reset"))
            }
            let document: VaultDocument
            do {
                document = try VaultDocument.decode(bytes)
            } catch let error as ReplicationError {
                return .failure(ZoneProblem(.needsAttention, nil, "the remote's vault description cannot be read: \(error.message)"))
            }
            guard document.vaultID == binding.vaultID else { return .failure(ZoneProblem(.needsAttention, nil, "the remote now holds another vault (\(document.vaultID)); it was reset or replaced")) }
            guard document.genesis == genesis else {
                return .failure(ZoneProblem(.needsAttention, nil, "the remote's roster starts from another genesis than the one this device joined (it was reset or replaced); rebind with credctl remote set --merge"))
            }
            let (roster, objects) = try verifiedRoster(remote: remote, genesis: genesis)
            if roster.revoked[deviceID] != nil {
                throw VaultError(.revoked, "This device was revoked from the vault; it keeps its local data, and syncs no more.",
                                 hint: "Join the vault again as a new device (credctl init --join with another --vault), if a member approves it.")
            }
            guard roster.members[deviceID] != nil else {
                return .failure(ZoneProblem(.needsAttention, nil, "the remote's roster does not name this device as a member"))
            }
            // Epochs started since the last sync: their keys are opened and kept, and (unlocked)
            // this device's bodies move to the newest before any snapshot carries them.
            let current = try catchUpEpochs(objects: objects, binding: binding)
            if try current.keys().count != binding.keys().count { try current.save(in: directory) }
            if secrets.isUnlocked { try secrets.resealIfEpochChanged() }
            return .success(try objectSeal(binding: current, roster: roster))
        } catch let error as ReplicationError where error.code == .unreachable {
            return .failure(ZoneProblem(.localFallback, .unavailable, "remote unreachable: \(error.message)"))
        } catch let error as ReplicationError where error.code == .accessDenied {
            return .failure(ZoneProblem(.localFallback, .accessDenied, error.message))
        } catch let error as MembershipError {
            return .failure(ZoneProblem(.needsAttention, nil, error.message))
        } catch let error as VaultError where error.code == .revoked {
            throw error
        } catch let error as VaultError {
            return .failure(ZoneProblem(.needsAttention, nil, error.message))
        } catch let error as SodiumError {
            // A key that does not open what the roster boxed to this device: the roster is not
            // one this device can follow, and every sync would meet it again.
            return .failure(ZoneProblem(.needsAttention, nil, "this device's keys do not open what the roster gives it: \(error.message)"))
        } catch let error as ReplicationError {
            // What the zones would meet too (a listing that never ends, an object too large):
            // the remote cannot be used now; local work goes on.
            return .failure(ZoneProblem(.localFallback, nil, error.message))
        }
    }

    /// What a run that otherwise went through must tell the user: the remote shows less than
    /// this device has read (docs/devices.md, "Freshness").
    static func attention(_ report: ZoneSyncReport, names: () -> [String: String]) -> String? {
        func devices(_ ids: some Sequence<String>) -> String { ids.sorted().map { names()[$0] ?? $0 }.joined(separator: ", ") }
        if !report.shortfalls.isEmpty {
            return "the remote shows less than this device has read: objects of \(devices(report.shortfalls.keys)) are gone and no snapshot covers them "
                + "(the remote was rolled back or restored from a backup, or withholds objects); if it was restored on purpose, rebind with credctl remote set --merge"
        }
        return nil
    }

    /// Why a zone cannot run: its state, the failure to report, and the reason in words.
    struct ZoneProblem: Error {
        let state: ZoneOutcome.State
        let failure: VaultError.Code?
        let reason: String

        init(_ state: ZoneOutcome.State, _ failure: VaultError.Code?, _ reason: String) {
            self.state = state
            self.failure = failure
            self.reason = reason
        }
    }

    private static func run(_ zone: SyncZone, store: any ZoneStore, remote: any Remote, access: Result<SignedSeal, ZoneProblem>, compaction: CompactionPolicy,
                            progress: (@Sendable (ZoneSyncReport) -> Void)?, names: @Sendable () -> [String: String]) -> ZoneOutcome {
        let seal: SignedSeal
        switch access {
        case .success(let granted): seal = granted
        case .failure(let problem): return ZoneOutcome(failed: zone, problem.state, problem.reason, failure: problem.failure)
        }
        do {
            let report = try ZoneEngine(store: store, remote: remote, seal: seal, policy: compaction, progress: progress).run()
            if report.compactionProblem != nil { SyncLog.failure(zone: zone.rawValue, stage: "compact", code: "incomplete") }
            if report.foreignObjectsUnderOwnName > 0 {
                return ZoneOutcome(zone: zone, state: .needsAttention,
                                   reason: "another copy of this vault writes under this device's name (a copied vault directory, or a restored backup); its changes were merged, nothing was sent",
                                   fetchedObjects: report.fetchedObjects, applied: report.applied, quarantined: report.quarantined, waiting: report.waiting, sentChanges: 0)
            }
            if let reason = attention(report, names: names) {
                return ZoneOutcome(zone: zone, state: .needsAttention, reason: reason, fetchedObjects: report.fetchedObjects, applied: report.applied,
                                   quarantined: report.quarantined, waiting: report.waiting, sentChanges: report.sentChanges)
            }
            var outcome = ZoneOutcome(zone: zone, state: .available, reason: nil, fetchedObjects: report.fetchedObjects, applied: report.applied,
                                      quarantined: report.quarantined, waiting: report.waiting, sentChanges: report.sentChanges,
                                      snapshotsRead: report.snapshotsRead, snapshotsWritten: report.snapshotsWritten,
                                      collectedObjects: report.collectedObjects, compactionProblem: report.compactionProblem)
            if !report.undidRevoked.isEmpty { outcome.undidRevoked = report.undidRevoked.map { names()[$0] ?? $0 } }
            return outcome
        } catch let error as ReplicationError {
            SyncLog.failure(zone: zone.rawValue, stage: "run", code: error.code.rawValue)
            switch error.code {
            case .nameConflict: return ZoneOutcome(failed: zone, .needsAttention, "another device writes under this device's name (a copied vault directory?)")
            case .unreachable: return ZoneOutcome(failed: zone, .localFallback, error.message, failure: .unavailable)
            case .accessDenied: return ZoneOutcome(failed: zone, .localFallback, error.message, failure: .accessDenied)
            default: return ZoneOutcome(failed: zone, .localFallback, error.message)
            }
        } catch {
            SyncLog.failure(zone: zone.rawValue, stage: "apply", code: "storage")
            return ZoneOutcome(failed: zone, .localFallback, "\(error)")
        }
    }
}

extension ZoneOutcome {
    init(failed zone: SyncZone, _ state: State, _ reason: String, failure: VaultError.Code? = nil) {
        self.init(zone: zone, state: state, reason: reason, fetchedObjects: 0, applied: 0, quarantined: 0, waiting: 0, sentChanges: 0)
        self.failure = failure
    }
}
