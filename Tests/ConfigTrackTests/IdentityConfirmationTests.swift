import Foundation
import Replication
import SQLite
import XCTest
@testable import ConfigTrack
import struct Identifiers.UUID

/// Whether an identity asks for confirmation on each use: a field group added after format 2
/// (docs/concurrent-edits.md, "Groups added later"). A vault made before it reads every identity
/// as not asking and sends them as it did; an identity that never asked travels as format 2,
/// which older builds apply, one that did as format 3; an older build's edit leaves it as it is.
final class IdentityConfirmationTests: ConfigTestCase {
    private let writer = RecordVersion(clock: 5 << 16, device: "device-a")
    private let renamer = RecordVersion(clock: 9 << 16, device: "device-b")
    private var received: UInt64 = 0

    private var zone: ConfigZone { ConfigZone(store: store) }

    /// The identity's envelope as this store would send it now.
    private func sent(_ id: UUID) throws -> Envelope {
        try XCTUnwrap(try zone.pendingChanges(limit: 100).first { $0.recordName == recordName("identity", id) })
    }

    /// Applies `envelopes` as device-b's next batch.
    @discardableResult
    private func receive(_ envelopes: [Envelope]) throws -> ApplyReport {
        received += 1
        return try zone.apply([IncomingBatch(device: "device-b", sequence: received, envelopes: envelopes, rejected: [], advancesCursor: true)])
    }

    /// The columns of an identity as a build before confirmation has them.
    private func olderColumns(_ label: String, _ id: UUID) -> [SQLValue] {
        [.text(label), .null, .text("ssh-ed25519"), .text(Self.publicKey(.ed25519)), .text(SecretReference.identityPrivateKey(id).key), .null]
    }

    func testAVaultMadeBeforeConfirmationReadsEveryIdentityAsNotAskingAndSendsItAsBefore() throws {
        let path = directory + "/older.sqlite"
        let db = try Connection(path: path)
        try Migrator(Array(ConfigSchema.migrator.migrations.prefix { $0.name != "config: identity confirmation" })).migrate(db)
        try db.run("INSERT INTO config_meta (key, value) VALUES ('device_id', ?)", [Self.deviceID])
        let once = UUID(), renamed = UUID(), removed = UUID()
        // Renamed by B since A wrote it: its label's stamp is the row's version, the others A's.
        let stamps = [FieldStamp.only(renamer), .only(writer), .only(writer)]
        for (id, label, version, fields) in [(once, "once", writer, nil), (renamed, "renamed", renamer, FieldStamp.stored(stamps, recordVersion: renamer))] {
            try db.run("""
                INSERT INTO identities (id, label, username, key_type, public_key, private_key_ref, passphrase_ref,
                                        version_clock, version_device, fields, incarnation, label_key)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?)
                """, [CanonicalUUID.text(id)] + olderColumns(label, id) + [version.clock, version.device, fields, LabelText.key(label)])
        }
        // A removed identity's last state and a value kept from it, as the older build kept them.
        let lastState = ConfigPayload.encode(olderColumns("gone", removed))
        try db.run("INSERT INTO config_tombstones (record_name, kind, version_clock, version_device, incarnation, last_state) VALUES (?, 'identity', ?, ?, 0, ?)",
                   [recordName("identity", removed), renamer.clock, renamer.device, lastState])
        try db.run("""
            INSERT INTO config_conflicts (record_name, kind, field_group, kept_values, kept_clock, kept_device, winner_values,
                                          winner_clock, winner_device, winner_deleted, record_state, recorded_at)
            VALUES (?, 'identity', 'username', ?, ?, ?, NULL, ?, ?, 1, ?, ?)
            """, [recordName("identity", removed), ConfigPayload.encode([.text("deploy")]), writer.clock, Self.deviceID,
                  renamer.clock, renamer.device, lastState, Int64(Date().timeIntervalSince1970)])

        store = try ConfigStore.open(at: path)
        XCTAssertEqual(try store.identities().map(\.label), ["once", "renamed"])
        XCTAssertEqual(try store.identities().map(\.confirm), [false, false])
        XCTAssertEqual(try store.removedIdentity(id: removed)?.confirm, false)
        XCTAssertEqual(try store.conflicts().map(\.recordState), [olderColumns("gone", removed) + [.integer(0)]])

        // Sent as the older build sent them: format 2, byte for byte, stamps and all.
        var snapshot: [String: Envelope] = [:]
        XCTAssertNotNil(try zone.snapshotState { snapshot[$0.recordName] = $0 })
        let older = Array(Identity.fieldGroups.prefix(3))
        for (id, label, version, stamps) in [(once, "once", writer, [FieldStamp](repeating: .only(writer), count: 3)), (renamed, "renamed", renamer, stamps)] {
            let envelope = try XCTUnwrap(snapshot[recordName("identity", id)])
            XCTAssertEqual(envelope.formatVersion, 2, label)
            XCTAssertEqual(envelope.payload, FieldPayload.encode(olderColumns(label, id), stamps: stamps, groups: older, recordVersion: version), label)
        }

        // Asking changes the confirmation alone: B's rename keeps its stamp.
        var asks = try store.identity("renamed")
        asks.confirm = true
        asks = try store.save(asks)
        let envelope = try sent(renamed)
        XCTAssertEqual(envelope.formatVersion, 3)
        let decoded = try XCTUnwrap(FieldPayload.decode(envelope.payload, format: 3, groups: Identity.fieldGroups, columnCount: 7, recordVersion: envelope.version))
        XCTAssertEqual(decoded.stamps.map(\.version), [renamer, writer, writer, asks.version])
        XCTAssertEqual(decoded.values[6], .integer(1))
    }

    func testANewIdentityTravelsAsFormatTwoUntilItAsks() throws {
        var identity = try saveIdentity("laptop")
        XCTAssertFalse(identity.confirm)
        XCTAssertEqual(try sent(identity.id).formatVersion, 2)
        identity.confirm = true
        identity = try store.save(identity)
        XCTAssertEqual(try sent(identity.id).formatVersion, 3)
        identity.confirm = false
        identity = try store.save(identity)
        XCTAssertEqual(try sent(identity.id).formatVersion, 3, "a 'no' written must still beat a concurrent 'yes'")
        let asking = try store.save(Identity(label: "asks", keyType: .ed25519, publicKey: Self.publicKey(.ed25519), confirm: true))
        let quiet = try saveIdentity("quiet")
        try reopen()
        XCTAssertEqual(try store.identities().map { "\($0.label) \($0.confirm)" }, ["asks true", "laptop false", "quiet false"])
        XCTAssertEqual(try [asking.id, identity.id, quiet.id].map { try sent($0).formatVersion }, [3, 3, 2])
    }

    func testAnOlderBuildsEditLeavesTheConfirmationAsItIs() throws {
        var identity = try saveIdentity("laptop")
        identity.confirm = true
        identity = try store.save(identity)
        let stored = try XCTUnwrap(try store.read("read the identity") { try StoredRecord.read($0, Identity.self, key: CanonicalUUID.text(identity.id)) })
        // device-b, an older build, renames it later (format 2: its three groups).
        let later = RecordVersion(clock: stored.version.clock + (1 << 16), device: "device-b")
        let rename = FieldPayload.encode(olderColumns("renamed", identity.id), stamps: [FieldStamp(writing: later, after: stored.stamps[0])] + stored.stamps[1...2],
                                         groups: Array(Identity.fieldGroups.prefix(3)), recordVersion: later)
        let report = try receive([Envelope(recordName: recordName("identity", identity.id), kind: "identity", formatVersion: 2, version: later,
                                           deleted: false, incarnation: 0, payload: rename)])
        XCTAssertEqual(report.applied, 1)
        XCTAssertEqual(try store.identity(id: identity.id).map { "\($0.label) \($0.confirm)" }, "renamed true")
        XCTAssertEqual(try store.conflicts(), [])

        // And a build that wrote format 1, later still.
        let oldest = RecordVersion(clock: later.clock + (1 << 16), device: "device-b")
        try receive([Envelope(recordName: recordName("identity", identity.id), kind: "identity", formatVersion: 1, version: oldest,
                              deleted: false, incarnation: 0, payload: ConfigPayload.encode(olderColumns("oldest", identity.id)))])
        XCTAssertEqual(try store.identity(id: identity.id).map { "\($0.label) \($0.confirm)" }, "oldest true")

        // A record an older build made reads as not asking.
        let made = UUID()
        try receive([Envelope(recordName: recordName("identity", made), kind: "identity", formatVersion: 2, version: later, deleted: false, incarnation: 0,
                              payload: FieldPayload.encode(olderColumns("made", made), stamps: Array(repeating: .only(later), count: 3),
                                                           groups: Array(Identity.fieldGroups.prefix(3)), recordVersion: later))])
        XCTAssertEqual(try store.identity(id: made)?.confirm, false)
    }

    /// Format 3 is identities' alone here; anything newer is kept for a build that reads it.
    func testFormatsThisBuildDoesNotReadWaitForAnUpgrade() throws {
        let host = Host(label: "web", hostname: "web.example"), identity = Identity(label: "k", keyType: .ed25519, publicKey: Self.publicKey(.ed25519))
        let report = try receive([
            Envelope(recordName: host.recordName, kind: "host", formatVersion: 3, version: renamer, deleted: false, incarnation: 0, payload: [0, 0]),
            Envelope(recordName: identity.recordName, kind: "identity", formatVersion: 4, version: renamer, deleted: false, incarnation: 0, payload: [0, 0]),
        ])
        XCTAssertEqual(report.quarantined, 2)
        let held = try store.quarantined()
        XCTAssertEqual(held.map(\.reason), ["unsupported host format version 3", "unsupported identity format version 4"])
        XCTAssertEqual(held.map(\.awaitsUpgrade), [true, true])
    }
}
