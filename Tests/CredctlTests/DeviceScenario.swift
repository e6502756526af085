import Foundation
import Membership
import Replication
import Sodium
import XCTest

/// One vault's devices and its remote, seen from outside credctl: what a thief of a device's
/// files holds, what the remote stores, and what each device's own keys open.
struct DeviceScenario {
    let directory: String
    let remote: any Remote

    /// A device's own keys and the transport keys of its `remote.json`, as a copy of its files gives them.
    struct StolenKeys {
        let keys: DeviceKeys
        let transport: [UInt32: SecretBytes]
    }

    func stolenKeys(_ vault: String) throws -> StolenKeys {
        let binding = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: vault + "/remote.json"))) as? [String: Any])
        let text = try XCTUnwrap(binding["transport_keys"] as? [String: String])
        let transport = try Dictionary(uniqueKeysWithValues: text.map { (try XCTUnwrap(UInt32($0.key)), try SecretBytes(copying: try XCTUnwrap(Base64.decode($0.value)))) })
        return StolenKeys(keys: try DeviceKeys(decoding: try SecretBytes.read(contentsOfFile: vault + "/device-keys", limit: 4_096)), transport: transport)
    }

    /// The roster the remote holds, verified from its genesis.
    func roster() throws -> RosterState {
        let document = try VaultDocument.decode(try XCTUnwrap(try remote.get(VaultDocument.objectName)))
        return try RosterReader.read(from: remote, pinned: document.genesis, known: []).state
    }

    /// The seal `stolen` writes and reads with under `roster`.
    func seal(_ stolen: StolenKeys, roster: RosterState) -> SignedSeal {
        SignedSeal(vaultID: roster.vaultID, roster: roster, writerID: stolen.keys.id, signing: stolen.keys.signing, transportKeys: stolen.transport)
    }

    /// Every zone object on the remote: its name, zone and writer.
    func zoneObjects() throws -> [(name: String, zone: String, writer: String)] {
        try remote.list(prefix: "zones/").compactMap { name in
            let parts = name.split(separator: "/")
            guard parts.count == 4 else { return nil }
            return (name, String(parts[1]), String(parts[2]))
        }
    }

    /// The envelopes of zone object `name`, opened with `seal` (whatever kind of object it is).
    func envelopes(of name: String, zone: String, writer: String, with seal: SignedSeal) throws -> [Envelope] {
        let bytes = try XCTUnwrap(try remote.get(name))
        if let batch = BatchObjectName(name, zone: zone) {
            return try BatchCodec.open(bytes, zone: zone, device: writer, sequence: batch.sequence, with: seal).envelopes
        }
        guard let compaction = CompactionObjectName(name, zone: zone) else { throw ReplicationError(.malformed, "\(name) is no zone object") }
        switch compaction.kind {
        case .snapshotPart(let part):
            return try CompactionCodec.openPart(bytes, zone: zone, device: writer, number: compaction.number, part: part, with: seal).envelopes
        case .snapshotManifest:
            _ = try CompactionCodec.openManifest(bytes, zone: zone, device: writer, number: compaction.number, with: seal)
        case .cursors:
            _ = try CompactionCodec.openCursors(bytes, zone: zone, device: writer, number: compaction.number, with: seal)
        }
        return []
    }

    /// The epoch a live secret envelope's body is sealed in (its payload starts with the body:
    /// `"CE" | u32 epoch | …`), or nil for a body sealed before epochs.
    static func bodyEpoch(_ envelope: Envelope) -> UInt32? {
        let payload = envelope.payload
        guard payload.count > 6, payload[0] == 0x43, payload[1] == 0x45 else { return nil }
        return payload[2...5].reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// Every object the remote holds, with its bytes.
    func everything() throws -> [(name: String, bytes: [UInt8])] {
        try remote.list(prefix: "").map { ($0, try XCTUnwrap(try remote.get($0))) }
    }
}
