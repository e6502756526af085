/// One listing of a zone's objects, sorted by what they are: each device's batches by
/// sequence, sync tools' conflict copies, snapshot manifests and parts, published cursors.
/// Names that are none of these (a newer build's objects, strays) are left out.
struct ZoneListing {
    var batches: [String: [UInt64: String]] = [:]
    var copies: [(BatchObjectName, String)] = []
    var manifests: [CompactionObjectName] = []
    /// Snapshot parts by device and snapshot number.
    var parts: [String: [UInt64: Set<Int>]] = [:]
    var cursors: [CompactionObjectName] = []
    /// Names shaped like this build's objects but numbered past `Batch.maximumSequence`: no
    /// device wrote them; they are refused (quarantined by name, never read).
    var outOfRange: [String] = []
    /// The listed manifests, opened, best first: read from the remote once per run, when first
    /// needed (`ZoneEngine.manifests`).
    var opened: [SnapshotManifest]?

    init(_ names: [String], zone: String) {
        for name in names {
            if let parsed = BatchObjectName(name, zone: zone) {
                if parsed.isConflictCopy { copies.append((parsed, name)) } else { batches[parsed.device, default: [:]][parsed.sequence] = name }
            } else if let parsed = CompactionObjectName(name, zone: zone) {
                switch parsed.kind {
                case .snapshotManifest: manifests.append(parsed)
                case .snapshotPart(let part): parts[parsed.device, default: [:]][parsed.number, default: []].insert(part)
                case .cursors: cursors.append(parsed)
                }
            } else if BatchObjectName.isOutOfRange(name, zone: zone) || CompactionObjectName.isOutOfRange(name, zone: zone) {
                outOfRange.append(name)
            }
        }
    }

    /// Whether every part `manifest` names is listed.
    func isComplete(_ manifest: SnapshotManifest) -> Bool {
        let listed = parts[manifest.device]?[manifest.number] ?? []
        return (0..<manifest.parts.count).allSatisfy(listed.contains)
    }

    /// The newest published cursors object of each device.
    var newestCursors: [String: CompactionObjectName] {
        var newest: [String: CompactionObjectName] = [:]
        for name in cursors where (newest[name.device]?.number ?? 0) <= name.number { newest[name.device] = name }
        return newest
    }

    /// The highest snapshot number `device` has used, manifests and stray parts alike.
    func lastSnapshotNumber(of device: String) -> UInt64 {
        max(manifests.filter { $0.device == device }.map(\.number).max() ?? 0, parts[device]?.keys.max() ?? 0)
    }

    /// How many batches are listed, all devices together.
    var batchTotal: Int { batches.values.reduce(0) { $0 + $1.count } }
}
