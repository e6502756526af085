/// A batch object's name taken apart: `zones/<zone>/<device>/<sequence>.batch`, or a sync tool's
/// conflict copy of one (`….sync-conflict-…batch`, `… (conflicted copy …).batch`).
package struct BatchObjectName: Equatable {
    package let device: String
    package let sequence: UInt64
    /// A sync tool's copy of another object with the same logical name.
    package let isConflictCopy: Bool

    /// Nil for a name that is not a batch's, and for one whose sequence is out of range
    /// (`isOutOfRange`).
    package init?(_ name: String, zone: String) {
        guard let parsed = Self(parsing: name, zone: zone), parsed.sequence <= Batch.maximumSequence else { return nil }
        self = parsed
    }

    /// Whether `name` is shaped like a batch's but numbered past `Batch.maximumSequence`.
    static func isOutOfRange(_ name: String, zone: String) -> Bool {
        (Self(parsing: name, zone: zone)?.sequence ?? 0) > Batch.maximumSequence
    }

    private init?(parsing name: String, zone: String) {
        let prefix = "zones/\(zone)/"
        guard name.hasPrefix(prefix) else { return nil }
        let parts = name.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].hasSuffix(".batch") else { return nil }
        // Twenty digits, then nothing or the mark of a sync tool's conflict copy.
        let stem = parts[1].dropLast(".batch".count)
        let file = stem.prefix(20), rest = stem.dropFirst(20)
        let copy = rest.hasPrefix(".sync-conflict-") || rest.hasPrefix(" (conflicted copy")
        guard copy || rest.isEmpty else { return nil }
        guard file.count == 20, file.allSatisfy(\.isASCIIDigit), let sequence = UInt64(file), sequence > 0 else { return nil }
        device = String(parts[0])
        self.sequence = sequence
        isConflictCopy = copy
    }
}

private extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
