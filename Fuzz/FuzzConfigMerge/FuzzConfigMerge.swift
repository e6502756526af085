import ConfigTrack
import FoundationEssentials
import FuzzSupport
import Glibc
import Replication
import SQLite

/// Config records as sync delivers them, merged into real stores (SQLite on tmpfs).
///
/// Selector 0: the rest as a config payload (`ConfigPayload.decode` with the column count of the
/// next byte), which must re-encode to itself. Selector 1: a format-2 payload of the kind the
/// next byte picks (its high bit: format 3), at a record version from the input
/// (`FieldPayload`), which must re-encode to itself. Otherwise: a batch header (writer device,
/// sequence, whether it advances the cursor), then up to 8 envelopes — kind, record id (from a
/// few, so records meet), deleted flag, format version (1, 2 or any), clock, payload — each encoded with its
/// hash and read back through `BatchCodec.decode` as a fetch would, then applied:
///
/// - to store A in order and to store B in reverse order: both must hold the same records
///   afterwards (merging never makes devices diverge);
/// - to store A a second time: nothing may apply again (a settled merge proposes no work);
/// - without any error: a hostile record is quarantined, never a reason for sync to fail.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfigMerge(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    if input.byte() % 4 == 0 {
        let count = Int(input.byte() % 12)
        let bytes = input.rest()
        if let values = ConfigPayload.decode(bytes, count: count) {
            FuzzFixtures.require(ConfigPayload.encode(values) == bytes, "a decoded config payload re-encodes to other bytes")
        }
        return 0
    }
    if input.byte() % 4 == 0 {
        let selector = input.byte()
        let kind = kinds[Int(selector & 0x7f) % kinds.count]
        let format = FieldPayload.formatVersion + UInt16(selector >> 7)
        let version = RecordVersion(clock: input.u64(), device: FuzzFixtures.devices[Int(input.byte()) % FuzzFixtures.devices.count])
        let bytes = input.rest()
        if let same = FieldPayload.reencodes(bytes, kind: kind, format: format, recordVersion: version) {
            FuzzFixtures.require(same, "a decoded format-\(format) config payload re-encodes to other bytes")
        }
        return 0
    }
    let device = FuzzFixtures.devices[Int(input.byte()) % FuzzFixtures.devices.count]
    let sequence = input.u64()
    let advances = input.byte() & 1 == 1
    var envelopes: [Envelope] = []
    while !input.isEmpty && envelopes.count < 8 {
        if let envelope = envelope(&input) { envelopes.append(envelope) }
    }
    let pair = Stores.current()
    let batch = IncomingBatch(device: device, sequence: sequence, envelopes: envelopes, rejected: [], advancesCursor: advances)
    let reversed = IncomingBatch(device: device, sequence: sequence, envelopes: envelopes.reversed(), rejected: [], advancesCursor: advances)
    do {
        _ = try pair.a.zone.apply([batch])
        _ = try pair.b.zone.apply([reversed])
        let again = try pair.a.zone.apply([batch])
        FuzzFixtures.require(again.applied == 0, "applying the same batch twice applied \(again.applied) records again")
        let a = try Contents(pair.a.store), b = try Contents(pair.b.store)
        FuzzFixtures.require(a == b, "two stores that received the same envelopes in other orders differ")
    } catch {
        FuzzFixtures.require(false, "merging fetched records failed: \(error)")
    }
    return 0
}

/// The record kinds in envelopes, one this build does not know, and removals (of hosts).
private let kinds = ["host", "group", "identity", "forward", "device", "secret", Envelope.removalKind]
/// A few record ids, so envelopes of one input meet the same records.
private let ids = ["3f2504e0-4f89-41d3-9a0c-0305e82c3301", "3f2504e0-4f89-41d3-9a0c-0305e82c3302", "3f2504e0-4f89-41d3-9a0c-0305e82c3303",
                   "3F2504E0-4F89-41D3-9A0C-0305E82C3301"]

/// One envelope from the input: kind, id, flags, clock, payload; nil when the reader refuses
/// it (as a fetch would keep it aside).
private func envelope(_ input: inout FuzzInput) -> Envelope? {
    let kind = kinds[Int(input.byte()) % kinds.count]
    let idSelector = Int(input.byte())
    // A name of another kind, or none at all, now and then.
    let record = kind == Envelope.removalKind ? "removal/host" : kind
    let name = idSelector < 240 ? "\(record)/\(ids[idSelector % ids.count])" : idSelector < 248 ? "host/\(ids[0])" : input.text()
    let flags = input.byte()
    let formatVersion: UInt16 = flags & 0x80 != 0 ? input.u16() : flags & 0x40 != 0 ? FieldPayload.formatVersion : ConfigPayload.formatVersion
    let clock = input.u64()
    let writer = FuzzFixtures.devices[Int(flags >> 1 & 3)]
    let payload = input.field()
    let built = Envelope(recordName: name, kind: kind, formatVersion: formatVersion, version: RecordVersion(clock: clock, device: writer),
                         deleted: flags & 1 == 1, incarnation: 0, payload: payload)
    return try? BatchCodec.decode(BatchCodec.encode(built))
}

/// Everything a user can list from a config store.
private struct Contents: Equatable {
    let hosts: [Host]
    let groups: [HostGroup]
    let identities: [Identity]
    let forwards: [PortForwardRule]
    let devices: [Device]

    init(_ store: ConfigStore) throws {
        hosts = try store.hosts().sorted { $0.id.uuidString < $1.id.uuidString }
        groups = try store.groups().sorted { $0.id.uuidString < $1.id.uuidString }
        identities = try store.identities().sorted { $0.id.uuidString < $1.id.uuidString }
        forwards = try store.forwards().sorted { $0.id.uuidString < $1.id.uuidString }
        devices = try store.devices().sorted { $0.id.uuidString < $1.id.uuidString }
    }
}

/// Two stores on tmpfs, replaced by fresh ones every few thousand inputs so their quarantine
/// and tombstone tables stay small and the fuzzer stays fast.
private enum Stores {
    struct Store {
        let store: ConfigStore
        let zone: ConfigZone
    }

    nonisolated(unsafe) private static var pair: (a: Store, b: Store)?
    nonisolated(unsafe) private static var uses = 0
    nonisolated(unsafe) private static var generation = 0
    private static let directory: String = {
        let path = "/dev/shm/credvault-fuzz-config-\(getpid())"
        mkdir(path, 0o700)
        atexit { Stores.removeFiles(andDirectory: true) }
        return path
    }()

    static func current() -> (a: Store, b: Store) {
        uses += 1
        if let pair, uses < 5_000 { return pair }
        pair = nil
        removeFiles(andDirectory: false)
        generation += 1
        uses = 0
        let fresh = (a: open("a\(generation)"), b: open("b\(generation)"))
        pair = fresh
        return fresh
    }

    private static func open(_ name: String) -> Store {
        let store = try! ConfigStore.create(at: "\(directory)/\(name).sqlite", deviceID: FuzzFixtures.devices[0])
        return Store(store: store, zone: ConfigZone(store: store))
    }

    static func removeFiles(andDirectory: Bool) {
        guard let entries = opendir(directory) else { return }
        while let entry = readdir(entries) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { unlink("\(directory)/\(name)") }
        }
        closedir(entries)
        if andDirectory { rmdir(directory) }
    }
}
