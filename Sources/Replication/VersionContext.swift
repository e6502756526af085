/// What a writer had seen of one field group (or secret item) when it wrote: for each device that
/// ever wrote it, the newest clock of that device's writes the writer knew. A version vector,
/// restricted to the writers of one value, so it is almost always a single entry.
///
/// It answers the one question merge needs to keep concurrent edits: was a write made after
/// seeing another (`covers`), or without knowing it? Joins are entry-wise maxima, so merging
/// contexts is commutative, associative and idempotent. See docs/concurrent-edits.md.
///
/// Every record carries one per field group, so the common case costs nothing to build: the
/// entries are kept sorted by device bytes, the first one inline and any others in an array that
/// stays empty (and unallocated) for a context of one writer.
public struct VersionContext: Sendable, Hashable, CustomStringConvertible {
    /// Entries beyond this make a context (and the envelope carrying it) malformed: one per
    /// device that wrote the value along its history, so a vault would need more devices.
    public static let maximumEntries = 64

    /// Whether `device` can be named in a context (and so write a version): 1 to 128 printable
    /// ASCII bytes. Honest devices are canonical UUIDs; ASCII only, because Swift compares
    /// strings by canonical equivalence: two encodings of one accented name would be two entries
    /// in the wire form and one everywhere else.
    public static func isDeviceName(_ device: String) -> Bool {
        !device.isEmpty && device.utf8.count <= 128 && device.utf8.allSatisfy { (0x21...0x7e).contains($0) }
    }

    /// One device's newest clock seen; never 0.
    struct Entry: Sendable, Hashable {
        let device: String
        let clock: UInt64
    }

    /// The entry with the smallest device bytes, nil for the empty context.
    private var head: Entry?
    /// The other entries, in ascending device bytes.
    private var tail: [Entry]

    /// From device id → newest clock seen; zero clocks are dropped.
    public init(_ entries: [String: UInt64] = [:]) {
        self.init(sorted: entries.filter { $0.value > 0 }.map { Entry(device: $0.key, clock: $0.value) }.sorted(by: Self.precedes))
    }

    /// The context of a write that saw only itself: `{version.device: version.clock}`.
    public init(only version: RecordVersion) {
        head = version.clock > 0 ? Entry(device: version.device, clock: version.clock) : nil
        tail = []
    }

    private init(sorted entries: [Entry]) {
        head = entries.first
        tail = entries.count > 1 ? Array(entries.dropFirst()) : []
    }

    private static func precedes(_ a: Entry, _ b: Entry) -> Bool { a.device.utf8.lexicographicallyPrecedes(b.device.utf8) }

    /// Every entry in order (allocates: for the rare contexts of several writers).
    private var all: [Entry] { head.map { [$0] + tail } ?? [] }

    public var isEmpty: Bool { head == nil }

    /// The newest clock of `device` this context saw, 0 for none.
    public func clock(of device: String) -> UInt64 {
        guard let head else { return 0 }
        if head.device == device { return head.clock }
        return tail.first { $0.device == device }?.clock ?? 0
    }

    private func allEntries(_ predicate: (Entry) -> Bool) -> Bool {
        guard let head else { return true }
        return predicate(head) && tail.allSatisfy(predicate)
    }

    /// Whether a write with this context had seen `version`.
    public func covers(_ version: RecordVersion) -> Bool {
        clock(of: version.device) >= version.clock
    }

    /// Whether a write with this context had seen everything `other` had seen.
    public func covers(_ other: VersionContext) -> Bool {
        other.allEntries { clock(of: $0.device) >= $0.clock }
    }

    /// Everything either had seen.
    public func joined(with other: VersionContext) -> VersionContext {
        if other.isEmpty || self == other { return self }
        if isEmpty { return other }
        var merged: [String: UInt64] = [:]
        for entry in all + other.all { merged[entry.device] = max(merged[entry.device] ?? 0, entry.clock) }
        return VersionContext(merged)
    }

    /// This context after its own device writes `version` (which it has then seen).
    public func advanced(to version: RecordVersion) -> VersionContext {
        if let head, tail.isEmpty, head.device == version.device {
            return VersionContext(only: RecordVersion(clock: max(head.clock, version.clock), device: version.device))
        }
        return joined(with: VersionContext(only: version))
    }

    /// Whether this can be the write context of `version`: its writer's entry is the version's
    /// clock (a write has seen itself) and every other entry is older (the hybrid clock of a
    /// writer that saw them is past them).
    public func isWriteContext(of version: RecordVersion) -> Bool {
        clock(of: version.device) == version.clock && allEntries { $0.device == version.device || $0.clock < version.clock }
    }

    /// Whether this is the context of a write that saw only itself.
    public func isOnly(_ version: RecordVersion) -> Bool {
        tail.isEmpty && head?.device == version.device && head?.clock == version.clock
    }

    /// Canonical form: a u16 count, then (device, clock) sorted by device's bytes.
    public func encode(into writer: inout ByteWriter) {
        writer.u16(UInt16(head == nil ? 0 : 1 + tail.count))
        if let head {
            writer.string(head.device)
            writer.u64(head.clock)
        }
        for entry in tail {
            writer.string(entry.device)
            writer.u64(entry.clock)
        }
    }

    /// The canonical form alone.
    public var encoded: [UInt8] {
        var writer = ByteWriter()
        encode(into: &writer)
        return writer.bytes
    }

    /// Reads a context written by `encode`; refuses anything that is not canonical: entries out
    /// of order or repeated, a zero clock, an empty or over-long device id, too many entries.
    public static func decode(from reader: inout ByteReader) throws -> VersionContext {
        let count = Int(try reader.u16())
        guard count <= maximumEntries else { throw ReplicationError(.malformed, "A version context has \(count) entries.") }
        if count == 1 {
            let entry = Entry(device: try reader.string(maximum: 128), clock: try reader.u64())
            guard isDeviceName(entry.device), entry.clock > 0 else { throw ReplicationError(.malformed, "A version context is not in canonical form.") }
            return VersionContext(only: RecordVersion(clock: entry.clock, device: entry.device))
        }
        var entries: [Entry] = []
        entries.reserveCapacity(count)
        for _ in 0..<count {
            let entry = Entry(device: try reader.string(maximum: 128), clock: try reader.u64())
            guard isDeviceName(entry.device), entry.clock > 0, entries.last.map({ precedes($0, entry) }) ?? true else {
                throw ReplicationError(.malformed, "A version context is not in canonical form.")
            }
            entries.append(entry)
        }
        return VersionContext(sorted: entries)
    }

    public var description: String {
        "{" + all.map { "\($0.device):\($0.clock)" }.joined(separator: ",") + "}"
    }
}
