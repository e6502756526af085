import ConfigTrack
import Foundation
import struct Identifiers.UUID
import FuzzSupport
import Replication
import Sodium

/// Seeds for the replication harnesses: config records saved through a real store, as the
/// envelopes, batches, snapshot parts, manifests and cursors a device would publish.
enum ReplicationSeeds {
    /// The harness's record ids (FuzzConfigMerge) for a host, an identity and a group.
    static let hostID = UUID(uuidString: "3f2504e0-4f89-41d3-9a0c-0305e82c3301")!
    static let identityID = UUID(uuidString: "3f2504e0-4f89-41d3-9a0c-0305e82c3302")!
    static let groupID = UUID(uuidString: "3f2504e0-4f89-41d3-9a0c-0305e82c3303")!
    static let zone = FuzzFixtures.zone
    static let device = FuzzFixtures.devices[1]
    static let sequence: UInt64 = 7

    static func write(_ seeds: SeedWriter) throws {
        let envelopes = try recordEnvelopes()
        writeBatches(seeds, envelopes)
        try writeCompaction(seeds, envelopes)
        try writeVaultJSON(seeds)
        writeConfigMerge(seeds, envelopes)
    }

    /// One record of every kind, saved through a real store and read back as pending changes.
    static func recordEnvelopes() throws -> [Envelope] {
        let directory = NSTemporaryDirectory() + "credvault-seeds-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try ConfigStore.create(at: directory + "/config.sqlite", deviceID: FuzzFixtures.devices[0])
        _ = try store.save(HostGroup(id: groupID, label: "production"))
        _ = try store.save(Identity(id: identityID, label: "laptop", username: "deploy", keyType: .ed25519,
                                    publicKey: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGJqG0Rq6WZ0l5b5Sx1vGWlQ0iLrV3n0pPz0b5d1n1bU me@laptop",
                                    passphraseRef: .identityPassphrase(identityID), confirm: true))
        _ = try store.save(Host(id: hostID, label: "web-1", hostname: "web-1.example.com", port: 2222, username: "deploy",
                                authMethod: .password, identityID: identityID, groupID: groupID, passwordRef: .hostPassword(hostID)))
        _ = try store.save(PortForwardRule(hostID: hostID, kind: .local, bindAddress: "127.0.0.1", bindPort: 8080, destinationHost: "localhost", destinationPort: 80))
        _ = try store.save(PortForwardRule(hostID: hostID, kind: .dynamic, bindPort: 1080))
        try store.announceDevice()
        return try ConfigZone(store: store).pendingChanges(limit: 100)
    }

    private static func writeBatches(_ seeds: SeedWriter, _ envelopes: [Envelope]) {
        let batch = Batch(zone: zone, device: device, sequence: sequence, envelopes: envelopes)
        let tombstone = Envelope(recordName: envelopes[0].recordName, kind: envelopes[0].kind, formatVersion: 1,
                                 version: RecordVersion(clock: envelopes[0].version.clock + 1, device: device), deleted: true, incarnation: 0, payload: [])
        seeds.write("FuzzBatch") { $0.byte(0); $0.byte(1); $0.u64(sequence); $0.append(try! BatchCodec.seal(batch, transportKey: FuzzFixtures.transportKey)) }
        for envelope in envelopes + [tombstone] {
            seeds.write("FuzzBatch") { $0.byte(1); $0.byte(1); $0.u64(sequence); $0.append(BatchCodec.encode(envelope)) }
        }
        for name in ["zones/config/\(device)/00000000000000000007.batch", "zones/config/\(device)/00000000000000000007.sync-conflict-20240101-120000-ABCDEFG.batch",
                     "zones/config/\(device)/00000000000000000007 (conflicted copy 2024-01-01).batch", "zones/config/\(device)/snap-00000000000000000003-000001.chunk",
                     "zones/config/\(device)/snap-00000000000000000003.snapshot", "zones/config/\(device)/cursors-00000000000000000004.cursors"] {
            seeds.write("FuzzBatch") { $0.byte(2); $0.byte(1); $0.u64(sequence); $0.append(Array(name.utf8)) }
        }
        seeds.write("FuzzBatch") { $0.byte(3); $0.byte(1); $0.u64(sequence); $0.append(batchPlaintext(envelopes)) }
        seeds.write("FuzzBatch") { $0.byte(3); $0.byte(1); $0.u64(sequence); $0.append(batchPlaintext([tombstone])) }
    }

    /// A batch before sealing, in `BatchCodec`'s layout.
    static func batchPlaintext(_ envelopes: [Envelope]) -> [UInt8] {
        var writer = ByteWriter()
        writer.u8(BatchCodec.formatVersion)
        writer.string(zone)
        writer.string(device)
        writer.u64(sequence)
        writer.u32(UInt32(envelopes.count))
        for envelope in envelopes { writer.data(BatchCodec.encode(envelope)) }
        return writer.bytes
    }

    private static func writeCompaction(_ seeds: SeedWriter, _ envelopes: [Envelope]) throws {
        let key = FuzzFixtures.transportKey, number: UInt64 = 3, part = 1
        let sealedPart = try CompactionCodec.sealPart(envelopes[...], zone: zone, device: device, number: number, part: part, transportKey: key)
        let cursors: [String: UInt64] = [device: sequence, FuzzFixtures.devices[0]: 12]
        var manifest = header(number: number, time: 1_733_000_000_000, cursors: cursors)
        manifest.u32(2)
        for digest in [GenericHash.hash(sealedPart), GenericHash.hash([1, 2, 3])] {
            manifest.u32(UInt32(envelopes.count))
            manifest.data(digest)
        }
        let published = header(number: number + 1, time: 1_733_000_100_000, cursors: cursors)
        var partPlain = ByteWriter()
        partPlain.u8(CompactionCodec.formatVersion)
        partPlain.u32(UInt32(envelopes.count))
        for envelope in envelopes { partPlain.data(BatchCodec.encode(envelope)) }

        let sealedManifest = try SealedBox.seal(manifest.bytes, key: key, purpose: CompactionCodec.manifestPurpose, context: CompactionCodec.context(zone, device, number))
        let sealedCursors = try SealedBox.seal(published.bytes, key: key, purpose: CompactionCodec.cursorsPurpose, context: CompactionCodec.context(zone, device, number + 1))
        for (selector, objectNumber, bytes) in [(0, number, sealedPart), (1, number, sealedManifest), (2, number + 1, sealedCursors),
                                                (3, number, partPlain.bytes), (4, number, manifest.bytes), (5, number + 1, published.bytes)] {
            seeds.write("FuzzCompaction") { $0.byte(UInt8(selector)); $0.byte(1); $0.u64(objectNumber); $0.byte(UInt8(part)); $0.append(bytes) }
        }
    }

    /// The header manifests and published cursors share, in `CompactionCodec`'s layout.
    private static func header(number: UInt64, time: UInt64, cursors: [String: UInt64]) -> ByteWriter {
        CompactionCodec.header(zone: zone, device: device, number: number, time: time, cursors: cursors)
    }

    private static func writeVaultJSON(_ seeds: SeedWriter) throws {
        let keys = RemoteVaultKeys(vaultID: "6d1f7c1e-4b8a-4f0e-9a51-1b2c3d4e5f60", vaultKey: try SecretBytes.random(count: SealedBox.keyCount),
                                   transportKey: try SecretBytes.random(count: SealedBox.keyCount))
        seeds.write("FuzzVaultJSON", try keys.encoded(passphrase: FuzzFixtures.syncPassphrase, kdf: .insecureForTesting()))
        // The parameters a real vault uses: read for its id only (too costly to open per input).
        seeds.write("FuzzVaultJSON", try keys.encoded(passphrase: FuzzFixtures.syncPassphrase,
                                                       kdf: KDFParameters(opsLimit: 3, memLimit: 64 << 20, salt: [UInt8](repeating: 7, count: KDFParameters.saltCount))))
    }

    /// FuzzConfigMerge's layout: format-2 payloads alone, then whole batches of records, edits
    /// and deletions (after a first byte and a second one that pick neither payload selector).
    private static func writeConfigMerge(_ seeds: SeedWriter, _ envelopes: [Envelope]) {
        let kinds = ["host", "group", "identity", "forward", "device"]
        let ids = [hostID, identityID, groupID].map { $0.uuidString.lowercased() }
        func entry(_ writer: inout FuzzInputWriter, _ envelope: Envelope, clock: UInt64, deleted: Bool = false) {
            writer.byte(UInt8(kinds.firstIndex(of: envelope.kind) ?? 0))
            let id = envelope.recordName.split(separator: "/").last.map(String.init) ?? ""
            writer.byte(UInt8(ids.firstIndex(of: id) ?? 0))
            let format = deleted ? 1 : envelope.formatVersion
            writer.byte((deleted ? 1 : 0) | (format == 2 ? 0x40 : format > 2 ? 0x80 : 0))
            if format > 2 { writer.u16(format) }
            writer.u64(clock)
            writer.field(deleted ? [] : envelope.payload)
        }
        for envelope in envelopes {
            // Format 2 (or 3, the identity that asks for confirmation) alone: selector 1, the kind
        // (high bit: format 3), the record version, the payload.
            seeds.write("FuzzConfigMerge") { writer in
                writer.byte(1); writer.byte(0); writer.byte(UInt8(kinds.firstIndex(of: envelope.kind) ?? 0) | (envelope.formatVersion > 2 ? 0x80 : 0))
                writer.u64(envelope.version.clock); writer.byte(0); writer.append(envelope.payload)
            }
        }
        let clock = envelopes.map(\.version.clock).max() ?? 0
        seeds.write("FuzzConfigMerge") { writer in
            writer.byte(1); writer.byte(1); writer.byte(1); writer.u64(sequence); writer.byte(1)
            for envelope in envelopes.prefix(8) { entry(&writer, envelope, clock: envelope.version.clock) }
        }
        for envelope in envelopes {
            seeds.write("FuzzConfigMerge") { writer in
                writer.byte(1); writer.byte(1); writer.byte(2); writer.u64(sequence + 1); writer.byte(0)
                entry(&writer, envelope, clock: clock)
                entry(&writer, envelope, clock: clock + 1, deleted: true)
                entry(&writer, envelope, clock: clock + 2)
            }
        }
        // A host's removal (kind 6: what its deleting device had seen) just before its
        // tombstone, as a format-2 deletion travels, and a late edit after both.
        if let host = envelopes.first(where: { $0.kind == "host" }) {
            seeds.write("FuzzConfigMerge") { writer in
                writer.byte(1); writer.byte(1); writer.byte(3); writer.u64(sequence + 2); writer.byte(1)
                entry(&writer, host, clock: clock)
                var context = ByteWriter()
                VersionContext(only: RecordVersion(clock: clock + 1, device: FuzzFixtures.devices[0])).encode(into: &context)
                writer.byte(6); writer.byte(0); writer.byte(0x40); writer.u64(clock + 1); writer.field(context.bytes)
                entry(&writer, host, clock: clock + 1, deleted: true)
                entry(&writer, host, clock: clock + 2)
            }
        }
    }
}
