import Foundation
import SQLite
import Sodium
@testable import ConfigTrack
@testable import SecretTrack
@testable import Replication

/// What the hostile participant seals: batches signed as a member (or as devices the roster
/// does not know), holding envelopes with
/// numbers out of every range, malformed framing, and records that break validation.
extension HostileDevice {
    /// One envelope as its wire fields, written whatever they hold (`BatchCodec.encode` would
    /// not write a deleted flag of 2 or a wrong hash).
    struct RawEnvelope {
        var name: String
        var kind: String
        var format: UInt16 = 1
        var clock: UInt64
        var writer: String
        var deleted: UInt8 = 0
        var incarnation: Int64 = 0
        var payload: [UInt8] = []
        var hash: [UInt8]?
        var trailing: [UInt8] = []

        var bytes: [UInt8] {
            var writer = ByteWriter()
            writer.string(name)
            writer.string(kind)
            writer.u16(format)
            writer.u64(clock)
            writer.string(self.writer)
            writer.u8(deleted)
            writer.i64(incarnation)
            writer.data(payload)
            writer.data(hash ?? GenericHash.hash(payload))
            return writer.bytes + trailing
        }
    }

    /// A batch that opens under `zone`/`device`/`sequence`; `count` and `inner` lie about what
    /// it holds when set.
    func sealBatch(zone: String, device: String, sequence: UInt64, _ envelopes: [[UInt8]], count: UInt32? = nil, inner: UInt64? = nil) throws -> [UInt8] {
        var writer = ByteWriter()
        writer.u8(BatchCodec.formatVersion)
        writer.string(zone)
        writer.string(device)
        writer.u64(inner ?? sequence)
        writer.u32(count ?? UInt32(envelopes.count))
        for envelope in envelopes { writer.data(envelope) }
        return try seal(for: device).seal(writer.bytes, name: Batch.objectName(zone: zone, device: device, sequence: sequence), purpose: BatchCodec.purpose,
                                          context: BatchCodec.context(zone: zone, device: device, sequence: sequence))
    }

    /// A clock a version may carry without being refused: now, or just inside the year ahead
    /// the decoder accepts.
    func plausibleClock() -> UInt64 {
        let now = HybridLogicalClock.wallMilliseconds()
        let ahead = generator.next(3) == 0 ? 300 * 86_400_000 : generator.next(7 * 86_400_000)
        return (now + ahead) << HybridLogicalClock.counterBits
    }

    func forgedWriter() -> String { Self.writerMark + pick(["", "-" + Self.uuidText(generator), " $(touch /tmp/PWNED)", "\u{202E}"]) }

    /// A record name of this zone: one an honest device uses, or one made up.
    func recordName(_ zone: String, kind: String = Host.kind) -> String {
        if generator.next(2) == 0, let honestName = pickAny(honestRecordNames(zone)) { return honestName }
        let id = Self.uuidText(generator)
        forgedIDs.insert(id)
        return zone == "config" ? "\(kind)/\(id)" : "host.\(id).password"
    }

    /// A batch under a made-up device (at its next sequence, so it is read) of envelopes that
    /// no decoder may take: numbers out of range, bad flags, hashes and framing, kinds and
    /// formats this build does not know.
    func extremeEnvelopes(zone: String) throws {
        var envelopes: [[UInt8]] = []
        for _ in 0..<(1 + generator.next(4)) {
            var envelope = RawEnvelope(name: recordName(zone), kind: zone == "config" ? Host.kind : SecretStore.itemKind,
                                       clock: plausibleClock(), writer: forgedWriter(), incarnation: zone == "config" ? 0 : 1,
                                       payload: zone == "config" ? hostPayload(port: .integer(Int64.max)) : Array("hunter2".utf8))
            switch generator.next(12) {
            case 0: envelope.clock = pick([UInt64.max, UInt64(Int64.max), 1 << 63, UInt64(bitPattern: -1)])
            case 1: envelope.incarnation = pick([Int64.max, Int64.min, -1, Envelope.maximumIncarnation + 1])
            case 2: envelope.deleted = pick([2, 255])
            case 3: envelope.hash = Array(repeating: 0, count: 32)
            case 4: envelope.trailing = [0]
            case 5: envelope.format = pick([0, 2, UInt16.max])
            case 6: envelope.kind = pick(["", "zzz", "host\u{0}", String(repeating: "k", count: 4_096)])
            case 7: envelope.deleted = 1  // a tombstone that still carries a payload
            case 8: envelope.name = pick(["", "host/not-a-uuid", "../../etc/passwd", "host/" + Self.uuidText(generator).uppercased()])
            case 9 where zone == "secrets": envelope.incarnation = 0  // a body of no life at all
            default:
                envelope.payload = zone == "config" ? hostPayload(port: .integer(pick([Int64.max, Int64.min, -1, 0, 65_536])))
                    : Array(repeating: 0x41, count: Int(generator.next(100)))  // a secret in the clear
            }
            envelopes.append(envelope.bytes)
        }
        let ghost = pick(ghosts)
        let sequence = takeSequence(zone, ghost)
        let bytes: [UInt8]
        switch generator.next(8) {
        case 0: bytes = try sealBatch(zone: zone, device: ghost, sequence: sequence, envelopes, count: UInt32.max)
        case 1: bytes = try sealBatch(zone: zone, device: ghost, sequence: sequence, envelopes, inner: UInt64.max)
        case 2: bytes = try sealBatch(zone: zone, device: ghost, sequence: sequence, envelopes + [Array(repeating: 0xff, count: 3)])
        default: bytes = try sealBatch(zone: zone, device: ghost, sequence: sequence, envelopes)
        }
        try write(Batch.objectName(zone: zone, device: ghost, sequence: sequence), bytes)
    }

    /// Well-formed config records, properly sealed by a made-up device, that break a rule a
    /// local save enforces: another host's password, a user name a shell would run, a value
    /// of the wrong type where the rule looks for text.
    func invalidRecords() throws {
        var envelopes: [[UInt8]] = []
        for _ in 0..<(1 + generator.next(3)) { envelopes.append(try invalidHost("config")) }
        let ghost = pick(ghosts)
        let sequence = takeSequence("config", ghost)
        let name = Batch.objectName(zone: "config", device: ghost, sequence: sequence)
        // Now and then garbage first, readable later: an object that changes between reads.
        if generator.next(4) == 0 {
            try write(name, try garbage())
            garbled.append(("config", ghost, sequence))
        } else {
            try write(name, try sealBatch(zone: "config", device: ghost, sequence: sequence, envelopes))
        }
    }

    /// Replaces one of its own garbage objects with a readable batch of invalid records.
    func repairOwnObject() throws {
        guard !garbled.isEmpty else { return }
        let (zone, ghost, sequence) = garbled.remove(at: Int(generator.next(UInt64(garbled.count))))
        let envelopes = zone == "config" ? [try invalidHost(zone)] : []
        try write(Batch.objectName(zone: zone, device: ghost, sequence: sequence), try sealBatch(zone: zone, device: ghost, sequence: sequence, envelopes))
    }

    /// One host record that validation refuses, as envelope bytes; in the secrets zone, a body
    /// that is no sealed body.
    func invalidHost(_ zone: String) throws -> [UInt8] {
        guard zone == "config" else {
            return RawEnvelope(name: recordName(zone), kind: SecretStore.itemKind, clock: plausibleClock(), writer: forgedWriter(),
                               incarnation: 1, payload: Array("hunter2".utf8)).bytes
        }
        let name = recordName(zone)
        let id = String(name.dropFirst("host/".count))
        // Another host's: its own would be no violation at all.
        let other = pickAny(honestRecordNames("config").map { String($0.dropFirst("host/".count)) }.filter { $0 != id }) ?? Self.uuidText(generator)
        let shell = "x$IFS-oProxyCommand=touch$IFS/tmp/PWNED"
        var fields: [SQLValue] = [.text("hostile"), .text("hostile.example"), .integer(22), .null, .text("password"), .null, .null, .null,
                                  .text("host.\(id).password")]
        switch generator.next(10) {
        case 0: fields[8] = .text("host.\(other).password")  // another host's password
        case 1: fields[3] = .text(shell)
        case 2: fields[3] = .blob(Array(shell.utf8))  // no text for the rule to read, text once stored
        case 3: fields[8] = .blob(Array("host.\(other).password".utf8))
        case 4: fields[1] = .text(pick(["a b", "-oProxyCommand=x", "host\nProxyCommand x", "%h%p", ""]))
        case 5: fields[0] = .text(pick(["", " padded", "\u{202E}evil", String(repeating: "l", count: 600), Self.uuidText(generator)]))
        case 6: fields[2] = pick([.integer(0), .integer(70_000), .real(.infinity), .real(.nan), .text("22")])
        case 7: fields[4] = .text("magic")
        case 8: fields[7] = .text(id)  // jumps through itself
        default: fields[2] = .blob([0, 22])
        }
        return RawEnvelope(name: name, kind: Host.kind, clock: plausibleClock(), writer: forgedWriter(), payload: ConfigPayload.encode(fields)).bytes
    }

    func hostPayload(port: SQLValue) -> [UInt8] {
        ConfigPayload.encode([.text("hostile"), .text("hostile.example"), port, .null, .text("agent"), .null, .null, .null, .null])
    }

    /// Record names honest devices have written, from their batches on the remote.
    func honestRecordNames(_ zone: String) -> [String] {
        if let known = recordNames[zone] { return known }
        var records: [String] = []
        for name in ((try? listed()) ?? []).filter({ $0.hasPrefix("zones/\(zone)/") }).prefix(6) {
            guard let parsed = BatchObjectName(name, zone: zone), honest.contains(parsed.device), let bytes = try? read(name),
                  let opened = try? BatchCodec.open(bytes, zone: zone, device: parsed.device, sequence: parsed.sequence, with: member)
            else { continue }
            records += opened.envelopes.map(\.recordName).filter { zone != "config" || $0.hasPrefix("host/") }
        }
        recordNames[zone] = records
        return records
    }
}
