import Replication
import Sodium

extension SecretZone {
    /// Drops the device-only copy of each migrated item once the remote is verified to hold its
    /// syncable body: the object this device published it in is read back, opened with the
    /// transport key, and holds exactly the body stored here — which was checked, when it was
    /// sealed, to open to the same secret. Needs no vault key. Returns how many copies are still
    /// kept (not sent yet, or not found as sent). Throws when the remote cannot be read; then
    /// every copy stays.
    @discardableResult
    public func verifyMigrations(remote: any Remote, seal: any ObjectSeal) throws -> Int {
        let waiting = try store.awaitingVerification()
        var kept = waiting.count
        var objects: [UInt64: [String: Envelope]] = [:]
        var missing: Set<UInt64> = []
        var newestOwn: UInt64?
        for (reference, sequence) in waiting {
            guard let sequence else { continue }
            if objects[sequence] == nil {
                let name = Batch.objectName(zone: zone, device: deviceID, sequence: sequence)
                guard !missing.contains(sequence), let bytes = try remote.get(name) else {
                    missing.insert(sequence)
                    // Missing below this device's newest batch: collected (a device's newest is
                    // never), so it can never be read back and the body goes out again. The
                    // newest itself may still be on its way: waited for.
                    if newestOwn == nil { newestOwn = try SyncTables.nextSequence(on: remote, zone: zone, device: deviceID) - 1 }
                    if sequence < newestOwn ?? 0 { try store.resendMigrated(reference) }
                    continue
                }
                guard let opened = try? BatchCodec.open(bytes, zone: zone, device: deviceID, sequence: sequence, with: seal) else { continue }
                objects[sequence] = Dictionary(opened.envelopes.map { ($0.recordName, $0) }, uniquingKeysWith: { _, last in last })
            }
            guard let envelope = objects[sequence]?[reference], !envelope.deleted else { continue }
            // The sealed body, as format 2 sends it before its context (format 1: the payload).
            let body = envelope.formatVersion == Self.formatVersion ? SecretPayload.decode(envelope.payload, version: envelope.version)?.sealed : envelope.payload
            if let body, try store.dropMigrationCopy(reference, verifiedBody: body, version: envelope.version) { kept -= 1 }
        }
        return kept
    }

    /// The batch holding the oldest migrated body still to be verified: compaction keeps it.
    public func firstSequenceStillNeeded() throws -> UInt64? {
        try store.read("read the migrations awaiting verification") { db in
            try db.queryFirst("SELECT min(sequence) FROM migration_copies") { $0.isNull(0) ? nil : $0.uint64(0) } ?? nil
        }
    }
}
