/// What a writer had seen of one field group (or secret item) when it wrote: for each device that
/// ever wrote it, the newest clock of that device's writes the writer knew. A version vector,
/// restricted to the writers of one value, so it is almost always a single entry.
///
/// It answers the one question merge needs to keep concurrent edits: was a write made after
/// seeing another (`covers`), or without knowing it? Joins are entry-wise maxima, so merging
/// contexts is commutative, associative and idempotent. See docs/concurrent-edits.md.
public struct VersionContext: Sendable, Hashable, CustomStringConvertible {
    /// Entries beyond this make a context (and the envelope carrying it) malformed: one per
    /// device that wrote the value along its history, so a vault would need more devices.
    public static let maximumEntries = 64

    /// Whether `device` can be named in a context (and so write a version): non-empty, at most
    /// 128 bytes. Honest devices are canonical UUIDs.
    public static func isDeviceName(_ device: String) -> Bool { !device.isEmpty && device.utf8.count <= 128 }

    /// Device id → newest clock of that device's writes seen. Never holds a 0 clock.
    public private(set) var entries: [String: UInt64]

    public init(_ entries: [String: UInt64] = [:]) {
        self.entries = entries.filter { $0.value > 0 }
    }

    /// The context of a write that saw only itself: `{version.device: version.clock}`.
    public init(only version: RecordVersion) {
        self.init([version.device: version.clock])
    }

    /// Whether a write with this context had seen `version`.
    public func covers(_ version: RecordVersion) -> Bool {
        (entries[version.device] ?? 0) >= version.clock
    }

    /// Whether a write with this context had seen everything `other` had seen.
    public func covers(_ other: VersionContext) -> Bool {
        other.entries.allSatisfy { (entries[$0.key] ?? 0) >= $0.value }
    }

    /// Everything either had seen.
    public func joined(with other: VersionContext) -> VersionContext {
        VersionContext(entries.merging(other.entries, uniquingKeysWith: max))
    }

    /// This context after its own device writes `version` (which it has then seen).
    public func advanced(to version: RecordVersion) -> VersionContext {
        var next = self
        next.entries[version.device] = max(next.entries[version.device] ?? 0, version.clock)
        return next
    }

    /// Whether this can be the write context of `version`: its writer's entry is the version's
    /// clock (a write has seen itself) and every other entry is older (the hybrid clock of a
    /// writer that saw them is past them).
    public func isWriteContext(of version: RecordVersion) -> Bool {
        entries[version.device] == version.clock && entries.allSatisfy { $0.key == version.device || $0.value < version.clock }
    }

    /// Whether this is the context of a write that saw only itself.
    public func isOnly(_ version: RecordVersion) -> Bool {
        entries.count == 1 && entries[version.device] == version.clock
    }

    /// Canonical form: a u16 count, then (device, clock) sorted by device's bytes.
    public func encode(into writer: inout ByteWriter) {
        let sorted = entries.sorted { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }
        writer.u16(UInt16(sorted.count))
        for (device, clock) in sorted {
            writer.string(device)
            writer.u64(clock)
        }
    }

    /// Reads a context written by `encode`; refuses anything that is not canonical: entries out
    /// of order or repeated, a zero clock, an empty or over-long device id, too many entries.
    public static func decode(from reader: inout ByteReader) throws -> VersionContext {
        let count = Int(try reader.u16())
        guard count <= maximumEntries else { throw ReplicationError(.malformed, "A version context has \(count) entries.") }
        var entries: [String: UInt64] = [:]
        var previous: [UInt8]?
        for _ in 0..<count {
            let device = try reader.string(maximum: 128)
            let clock = try reader.u64()
            let bytes = Array(device.utf8)
            guard isDeviceName(device), clock > 0, previous.map({ $0.lexicographicallyPrecedes(bytes) }) ?? true else {
                throw ReplicationError(.malformed, "A version context is not in canonical form.")
            }
            previous = bytes
            entries[device] = clock
        }
        return VersionContext(entries)
    }

    public var description: String {
        "{" + entries.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: ",") + "}"
    }
}
