/// The names compaction adds beside a device's batches, taken apart and built:
///
///     zones/<zone>/<device>/snap-<number>-<part>.chunk   one part of a snapshot
///     zones/<zone>/<device>/snap-<number>.snapshot       its manifest, written last
///     zones/<zone>/<device>/cursors-<number>.cursors     the device's published cursors
///
/// Numbers are zero-padded (20 digits, parts 6) so names sort in order. Builds that predate
/// compaction skip these names: they do not end in `.batch`.
public struct CompactionObjectName: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        case snapshotPart(Int)
        case snapshotManifest
        case cursors
    }

    public let device: String
    public let number: UInt64
    public let kind: Kind

    public init(device: String, number: UInt64, kind: Kind) {
        self.device = device
        self.number = number
        self.kind = kind
    }

    /// Nil for a name that is none of these, and for one numbered out of range (`isOutOfRange`).
    public init?(_ name: String, zone: String) {
        guard let parsed = Self(parsing: name, zone: zone), parsed.number <= Batch.maximumSequence else { return nil }
        self = parsed
    }

    /// Whether `name` is shaped like a compaction object's but numbered past `Batch.maximumSequence`.
    static func isOutOfRange(_ name: String, zone: String) -> Bool {
        (Self(parsing: name, zone: zone)?.number ?? 0) > Batch.maximumSequence
    }

    private init?(parsing name: String, zone: String) {
        let prefix = "zones/\(zone)/"
        guard name.hasPrefix(prefix) else { return nil }
        let parts = name.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty else { return nil }
        let file = parts[1]
        device = String(parts[0])
        if file.hasPrefix("cursors-"), file.hasSuffix(".cursors"),
           let number = Self.number(file.dropFirst("cursors-".count).dropLast(".cursors".count), digits: 20) {
            self.number = number
            kind = .cursors
        } else if file.hasPrefix("snap-"), file.hasSuffix(".snapshot"),
                  let number = Self.number(file.dropFirst("snap-".count).dropLast(".snapshot".count), digits: 20) {
            self.number = number
            kind = .snapshotManifest
        } else if file.hasPrefix("snap-"), file.hasSuffix(".chunk") {
            let body = file.dropFirst("snap-".count).dropLast(".chunk".count)
            let pieces = body.split(separator: "-", omittingEmptySubsequences: false)
            guard pieces.count == 2, let number = Self.number(pieces[0], digits: 20), let part = Self.number(pieces[1], digits: 6) else { return nil }
            self.number = number
            kind = .snapshotPart(Int(part))
        } else {
            return nil
        }
    }

    public func objectName(zone: String) -> String {
        let directory = "zones/\(zone)/\(device)/"
        switch kind {
        case .cursors: return directory + "cursors-" + Self.padded(number, 20) + ".cursors"
        case .snapshotManifest: return directory + "snap-" + Self.padded(number, 20) + ".snapshot"
        case .snapshotPart(let part): return directory + "snap-" + Self.padded(number, 20) + "-" + Self.padded(UInt64(part), 6) + ".chunk"
        }
    }

    private static func padded(_ value: UInt64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    private static func number(_ text: Substring, digits: Int) -> UInt64? {
        guard text.count == digits, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return UInt64(text)
    }
}
