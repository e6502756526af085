import Sodium

/// What the remote serves that cannot be read is never skipped for good: an object
/// quarantined whole is read again by every sync and applied once it opens, and a name numbered
/// past anything a device writes is quarantined by name.
extension ZoneEngine {
    /// Reads each object quarantined whole again — downloaded only when the remote says it
    /// changed since the last try (its fingerprint), so quarantine cannot make every sync read
    /// thousands of objects. Same bytes as before: left alone (nothing is opened twice). Other
    /// bytes that open: applied — the cursor is already past it — and its quarantine entry
    /// removed in the same transaction. Other bytes that still do not open: the new bytes and
    /// reason are remembered. A name gone from the remote stays in quarantine.
    func rereadQuarantinedObjects(into report: inout ZoneSyncReport) throws {
        for held in try store.quarantinedObjects() {
            let fingerprint = try unopenedFingerprint(held.name)
            if let fingerprint, try store.wasIngested(held.name, digest: fingerprint) { continue }
            guard let parsed = BatchObjectName(held.name, zone: store.zone), let bytes = try readObject(held.name) else { continue }
            let digest = SyncTables.objectDigest(bytes)
            guard digest != held.digest else {
                if let fingerprint { try store.markIngested(held.name, digest: fingerprint) }
                continue
            }
            do {
                let opened = try BatchCodec.open(bytes, zone: store.zone, device: parsed.device, sequence: parsed.sequence, with: seal)
                report.add(try store.apply([IncomingBatch(device: parsed.device, sequence: parsed.sequence, envelopes: opened.envelopes,
                                                          rejected: opened.rejected, advancesCursor: false, releasesQuarantine: held.id)]))
                report.fetchedObjects += 1
            } catch let error as ReplicationError {
                try store.noteQuarantinedObject(id: held.id, digest: digest, reason: error.message)
                if let fingerprint { try store.markIngested(held.name, digest: fingerprint) }
            }
        }
    }

    /// What to remember an object that did not open by: a digest of the remote's fingerprint of
    /// it (which changes whenever its bytes do), or nil when the backend has none — then the
    /// object is read every time.
    func unopenedFingerprint(_ name: String) throws -> [UInt8]? {
        try remote.fingerprint(name).map { GenericHash.hash(Array("unopened object \($0)".utf8)) }
    }

    /// The object's bytes, or nil when it is not there. One larger than any this build writes
    /// reads as no bytes — unreadable like any damaged object, and handled as one — instead of
    /// failing the run: the next run would meet it again, and the zone would never sync again.
    func readObject(_ name: String) throws -> [UInt8]? {
        do {
            return try remote.get(name)
        } catch let error as ReplicationError where error.code == .tooLarge {
            return []
        }
    }

    /// Names numbered past anything a device writes are quarantined by name, once each (their
    /// bytes are never read), so status says what the remote holds that no device wrote.
    func refuseOutOfRange(_ names: [String], into report: inout ZoneSyncReport) throws {
        let refusal = GenericHash.hash(Array("out of range".utf8))
        for name in names where try !store.wasIngested(name, digest: refusal) {
            let reason = "object name \(name) is numbered past \(Batch.maximumSequence), beyond anything a device writes; it is never read"
            report.add(try store.apply([IncomingBatch(device: "", sequence: 0, envelopes: [],
                                                      rejected: [RejectedEnvelope(recordName: name, reason: reason, bytes: [])], advancesCursor: false)]))
            try store.markIngested(name, digest: refusal)
        }
    }
}
