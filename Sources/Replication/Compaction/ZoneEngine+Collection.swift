extension ZoneEngine {
    /// Removes what no device needs any more: batches the best complete snapshot covers and every
    /// live device has passed (never a device's newest), snapshots the best one supersedes (the
    /// two most recent are kept, so a device reading one meanwhile can finish), stray parts of
    /// abandoned snapshots, and superseded cursor objects.
    /// `written` is the snapshot this run wrote: complete, though the listing predates it.
    func collect(_ listing: ZoneListing, mine: [String: UInt64], now: UInt64, manifests: [SnapshotManifest], written: SnapshotManifest?,
                 into report: inout ZoneSyncReport) throws {
        let zone = store.zone
        let complete = manifests.filter { listing.isComplete($0) || $0 == written }
        // A snapshot past a revoked writer's cutoff is no base for anyone: never the best, and
        // collected like a superseded one.
        guard let best = complete.first(where: withinCutoffs) else { return }
        let live = try liveCursors(listing, now: now) + [mine]
        for (device, batches) in listing.batches {
            guard let newest = batches.keys.max() else { continue }
            let passed = live.map { $0[device] ?? 0 }.min() ?? 0
            let limit = min(best.cursors[device] ?? 0, passed)
            for (sequence, name) in batches where sequence <= limit && sequence < newest {
                try remote.delete(name)
                report.collectedObjects += 1
            }
        }
        // Snapshots: the best and the most recently written other one stay; the rest go when
        // the best covers everything they do. Manifest first, so no one starts reading it.
        let recent = complete.filter { $0 != best && withinCutoffs($0) }.max { $0.createdAt < $1.createdAt }
        for manifest in complete where manifest != best && manifest != recent && (best.dominates(manifest) || !withinCutoffs(manifest)) {
            try remote.delete(manifest.name.objectName(zone: zone))
            for part in 0..<manifest.parts.count {
                try remote.delete(CompactionObjectName(device: manifest.device, number: manifest.number, kind: .snapshotPart(part)).objectName(zone: zone))
            }
            report.collectedObjects += 1 + manifest.parts.count
        }
        // A revoked device's snapshots are never read again: gone once another is the base.
        let cutoffs = seal.cutoffs(zone: zone)
        for name in listing.manifests where cutoffs[name.device] != nil {
            try remote.delete(name.objectName(zone: zone))
            report.collectedObjects += 1
            for part in listing.parts[name.device]?[name.number] ?? [] {
                try remote.delete(CompactionObjectName(device: name.device, number: name.number, kind: .snapshotPart(part)).objectName(zone: zone))
                report.collectedObjects += 1
            }
        }
        // Parts with no manifest below their writer's newest manifest were abandoned mid-write.
        var manifestNumbers = Dictionary(grouping: listing.manifests, by: \.device).mapValues { Set($0.map(\.number)) }
        if let written { manifestNumbers[written.device, default: []].insert(written.number) }
        for (device, snapshots) in listing.parts {
            guard let newest = manifestNumbers[device]?.max() else { continue }
            for (number, parts) in snapshots where number < newest && !(manifestNumbers[device]?.contains(number) ?? false) {
                for part in parts {
                    try remote.delete(CompactionObjectName(device: device, number: number, kind: .snapshotPart(part)).objectName(zone: zone))
                    report.collectedObjects += 1
                }
            }
        }
        let newestCursors = listing.newestCursors
        for name in listing.cursors where name.number < newestCursors[name.device]?.number ?? 0 {
            try remote.delete(name.objectName(zone: zone))
            report.collectedObjects += 1
        }
    }

    /// The published cursors of every other device heard from within `retireAfter` and not
    /// revoked. Cursors
    /// that do not open, or are gone by the time they are read (their device has just
    /// published newer ones), count as nothing read: they hold collection back, never speed it up.
    private func liveCursors(_ listing: ZoneListing, now: UInt64) throws -> [[String: UInt64]] {
        try listing.newestCursors.values.filter { $0.device != store.deviceID }.compactMap { name in
            guard let bytes = try readObject(name.objectName(zone: store.zone)) else { return [:] }
            let published: PublishedCursors
            do {
                published = try CompactionCodec.openCursors(bytes, zone: store.zone, device: name.device, number: name.number, with: seal)
            } catch let error as ReplicationError where error.code == .revokedWriter {
                // A revoked device reads nothing any more: it holds nothing back.
                return nil
            } catch {
                return [:]
            }
            let silent = now > published.writtenAt ? now - published.writtenAt : 0
            return silent > policy.retireAfter * 1_000 ? nil : published.cursors
        }
    }
}
