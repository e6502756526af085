import Foundation
@testable import Replication
import ConfigTrack
@testable import SecretTrack
import Sodium
import XCTest

/// A revocation racing a revoked writer's last batches, at the zone engine: the device that took
/// in a batch past the cutoff undoes what it brought, keeping its own edits, the others send
/// those records again as they hold them, and no device uses as a base a snapshot whose cursor
/// for the revoked writer passes its cutoff.
final class RevocationRaceTests: CompactionTestCase {
    /// Format 1's seal with a roster's cutoffs: a revoked writer's batches past its cutoff are
    /// refused, as `SignedSeal` refuses them (without the signatures; `DeviceRevocationTests`).
    private struct CutoffSeal: ObjectSeal {
        let inner: TransportKeySeal
        let revoked: [String: UInt64]
        var inspecting = false

        func seal(_ plain: [UInt8], name: String, purpose: SealPurpose, context: [UInt8]) throws -> [UInt8] {
            try inner.seal(plain, name: name, purpose: purpose, context: context)
        }

        func open(_ bytes: [UInt8], name: String, writer: String, purpose: SealPurpose, context: [UInt8]) throws -> [UInt8] {
            if !inspecting, let cutoff = revoked[writer], let batch = BatchObjectName(name, zone: "config") ?? BatchObjectName(name, zone: "secrets"),
               batch.sequence > cutoff {
                throw ReplicationError(.revokedWriter, "\(name) was written by revoked device \(writer) after its revocation")
            }
            return try inner.open(bytes, name: name, writer: writer, purpose: purpose, context: context)
        }

        func cutoffs(zone: String) -> [String: UInt64] { revoked }

        func inspectingRevoked() -> any ObjectSeal {
            var seal = self
            seal.inspecting = true
            return seal
        }
    }

    private func run(_ device: SimulatedDevice, revoked: [String: UInt64], policy: CompactionPolicy = CompactionPolicy(), secrets: Bool = false) throws -> ZoneSyncReport {
        try ZoneEngine(store: secrets ? device.secretZone : device.configZone, remote: remote, seal: CutoffSeal(inner: TransportKeySeal(key: transport), revoked: revoked),
                       policy: policy).run()
    }

    /// R's last batch adds a host and edits one X wrote; B took it in, X did not. After the
    /// revocation B drops both of R's versions and reads the others' history again (X's host as
    /// X wrote it), X sends its host again too, and B ends as X.
    func testADeviceThatTookInABatchPastTheCutoffUndoesItAndTheOthersSendTheirsAgain() throws {
        let r = try device("r"), b = try device("b"), x = try device("x")
        try x.addHost(label: "shared", password: nil)
        _ = try run(x, revoked: [:])
        for round in 0..<2 {
            try r.addHost(label: "r-\(round)", password: nil)
            _ = try run(r, revoked: [:])
        }
        for device in [b, x] { _ = try run(device, revoked: [:]) }
        let shared = try XCTUnwrap(try r.config.hosts().first { $0.label == "shared" })
        try r.addHost(label: "r-late", password: nil)
        try r.editPort(shared, port: 2222)
        _ = try run(r, revoked: [:])
        try b.addHost(label: "b-sent", password: nil)
        _ = try run(b, revoked: [:])
        XCTAssertEqual(try b.config.hosts().first { $0.label == "shared" }?.port, 2222, "B took in R's last batch")
        try b.addHost(label: "b-unsent", password: nil)
        let cutoff = try XCTUnwrap(try x.configZone.syncState().cursors["r"])

        let undone = try run(b, revoked: ["r": cutoff])
        XCTAssertEqual(undone.undidRevoked, ["r"])
        XCTAssertEqual(Set(try b.config.hosts().map(\.label)), ["r-0", "r-1", "shared", "b-sent", "b-unsent"], "R's host gone")
        XCTAssertEqual(try b.config.hosts().first { $0.label == "shared" }?.port, 22, "read again from the history on the remote")
        let republished = try run(x, revoked: ["r": cutoff])
        XCTAssertEqual(republished.undidRevoked, [])
        XCTAssertGreaterThan(republished.sentChanges, 0, "X sends the host R's late batch touched")
        _ = try run(b, revoked: ["r": cutoff])
        _ = try run(x, revoked: ["r": cutoff])
        XCTAssertEqual(try b.config.hosts().first { $0.label == "shared" }?.port, 22)
        XCTAssertEqual(Set(try b.config.hosts().map(\.label)), Set(try x.config.hosts().map(\.label)))
        XCTAssertEqual(try run(b, revoked: ["r": cutoff]).undidRevoked, [], "settled once")
        // A joiner holds the same.
        let j = try device("j")
        _ = try run(j, revoked: ["r": cutoff])
        XCTAssertEqual(Set(try j.config.hosts().map(\.label)), Set(try x.config.hosts().map(\.label)))
    }

    /// B's password edit, not sent yet, lost to R's concurrent edit or deletion (taken in past
    /// R's cutoff) and was kept as B's conflict. The undo puts B's body back as it was and sends
    /// it — no other device ever had it — so the password is neither gone, nor silently the
    /// older one, nor left only in `conflicts`.
    func testAnUndoPutsBackTheOwnBodyThatLostToTheUndoneVersion() throws {
        for deleting in [false, true] {
            try setUpWithError()
            let r = try device("r"), b = try device("b"), x = try device("x")
            try x.addHost(label: "shared", password: "first")
            for device in [x, r, b] { try sync(device) }
            let host = try XCTUnwrap(try b.config.hosts().first)
            let reference = SecretReference.hostPassword(host.id).key
            try b.secrets.put(try SecretBytes(utf8: "b's edit"), for: reference, availability: .syncable)
            if deleting { try r.secrets.delete(reference) } else { try r.secrets.put(try SecretBytes(utf8: "r's late edit"), for: reference, availability: .syncable) }
            let cutoff = try x.secretZone.syncState().cursors["r"] ?? 0
            _ = try run(r, revoked: [:], secrets: true)
            _ = try run(b, revoked: [:], secrets: true)
            XCTAssertEqual(try b.secrets.conflicts().count, 1, "B's edit kept (deleting: \(deleting))")

            let undone = try run(b, revoked: ["r": cutoff], secrets: true)
            XCTAssertEqual(undone.undidRevoked, ["r"])
            XCTAssertEqual(try b.secrets.read(reference), try SecretBytes(utf8: "b's edit"), "B's body stands again (deleting: \(deleting))")
            XCTAssertEqual(try b.secrets.conflicts(), [], "it is no conflict any more")
            XCTAssertEqual(undone.sentChanges, 1, "and went out")
            _ = try run(x, revoked: ["r": cutoff], secrets: true)
            _ = try run(b, revoked: ["r": cutoff], secrets: true)
            XCTAssertEqual(try x.secrets.read(reference), try SecretBytes(utf8: "b's edit"))
            try assertSame(x, as: try b.dump())
            XCTAssertEqual(try run(b, revoked: ["r": cutoff], secrets: true).undidRevoked, [], "settled once")
            try tearDownWithError()
        }
    }

    /// B deleted a password and had not sent the deletion when R's later deletion of it, past
    /// R's cutoff, replaced B's marker. The undo removes R's marker; B's own deletion must stand
    /// again and go out, or the password would come back from history everywhere.
    func testAnUndoPutsBackTheOwnDeletionTheUndoneVersionReplaced() throws {
        let r = try device("r"), b = try device("b"), x = try device("x")
        try x.addHost(label: "shared", password: "first")
        for device in [x, r, b] { try sync(device) }
        let reference = SecretReference.hostPassword(try XCTUnwrap(try b.config.hosts().first).id).key
        try b.secrets.delete(reference)
        try r.secrets.delete(reference)
        let cutoff = try x.secretZone.syncState().cursors["r"] ?? 0
        _ = try run(r, revoked: [:], secrets: true)
        _ = try run(b, revoked: [:], secrets: true)

        XCTAssertEqual(try run(b, revoked: ["r": cutoff], secrets: true).undidRevoked, ["r"])
        guard case .deleted(let marker) = try b.secrets.state(of: reference) else { return XCTFail("B's deletion is gone") }
        XCTAssertEqual(marker.version.device, "b", "B's own marker")
        _ = try run(x, revoked: ["r": cutoff], secrets: true)
        guard case .deleted = try x.secrets.state(of: reference) else { return XCTFail("the password came back on X") }
        _ = try run(b, revoked: ["r": cutoff], secrets: true)
        try assertSame(x, as: try b.dump())
    }

    /// The same for a config record: B removed a host and had not sent the removal when R's
    /// later removal, past R's cutoff, replaced B's tombstone. The host must stay removed.
    func testAnUndoPutsBackTheOwnRemovalTheUndoneVersionReplaced() throws {
        let r = try device("r"), b = try device("b"), x = try device("x")
        try x.addHost(label: "shared", password: nil)
        for device in [x, r, b] { _ = try run(device, revoked: [:]) }
        let id = try XCTUnwrap(try b.config.hosts().first).id
        try b.config.removeHost(id: id)
        try r.config.removeHost(id: id)
        let cutoff = try x.configZone.syncState().cursors["r"] ?? 0
        _ = try run(r, revoked: [:])
        _ = try run(b, revoked: [:])

        XCTAssertEqual(try run(b, revoked: ["r": cutoff]).undidRevoked, ["r"])
        XCTAssertEqual(try b.config.hosts(), [], "the host stays removed on B")
        _ = try run(x, revoked: ["r": cutoff])
        XCTAssertEqual(try x.config.hosts(), [], "and goes from X")
        _ = try run(b, revoked: ["r": cutoff])
        try assertSame(x, as: try b.dump())
    }

    /// An undo reads history again without moving a cursor back: X's first batch is gone from the
    /// remote (collected, with no snapshot), and B, having undone R, still reads what X writes
    /// afterwards — including the host R's batch touched, which X sends again.
    func testAnUndoKeepsReadingWritersWhoseEarlyBatchesAreGone() throws {
        let r = try device("r"), b = try device("b"), x = try device("x")
        for round in 0..<2 {
            try x.addHost(label: "x-\(round)", password: nil)
            _ = try run(x, revoked: [:])
        }
        _ = try run(r, revoked: [:])
        _ = try run(b, revoked: [:])
        try r.editPort(try XCTUnwrap(try r.config.hosts().first { $0.label == "x-0" }), port: 2222)
        _ = try run(r, revoked: [:])
        _ = try run(b, revoked: [:])
        let cutoff = try XCTUnwrap(try b.configZone.syncState().cursors["r"]) - 1
        try remote.delete(Batch.objectName(zone: "config", device: "x", sequence: 1))
        let before = try b.configZone.syncState().cursors["x"]

        XCTAssertEqual(try run(b, revoked: ["r": cutoff]).undidRevoked, ["r"])
        XCTAssertEqual(try b.configZone.syncState().cursors["x"], before, "no cursor moved back")
        try x.addHost(label: "x-later", password: nil)
        _ = try run(x, revoked: ["r": cutoff])
        _ = try run(b, revoked: ["r": cutoff])
        XCTAssertEqual(Set(try b.config.hosts().map(\.label)), ["x-0", "x-1", "x-later"], "X's later batch read, and X-0 sent again by X")
        XCTAssertEqual(try b.config.hosts().first { $0.label == "x-0" }?.port, 22)
    }

    /// X's host, sent, edited by R in a batch past R's cutoff that only X took in. B never read
    /// the host before it learned of the revocation, so it has nothing to send again. X's undo
    /// removes R's version; X's own history must bring its host back.
    func testAnUndoKeepsWhatThisDeviceItselfSentBefore() throws {
        let r = try device("r"), b = try device("b"), x = try device("x")
        _ = try run(b, revoked: [:])
        try x.addHost(label: "x-host", password: nil)
        _ = try run(x, revoked: [:])
        _ = try run(r, revoked: [:])
        let host = try XCTUnwrap(try r.config.hosts().first)
        try r.editPort(host, port: 2222)
        _ = try run(r, revoked: [:])
        _ = try run(x, revoked: [:])
        XCTAssertEqual(try x.config.hosts().first?.port, 2222, "X took in R's last batch")
        let cutoff = try XCTUnwrap(try x.configZone.syncState().cursors["r"]) - 1

        XCTAssertEqual(try run(x, revoked: ["r": cutoff]).undidRevoked, ["r"])
        for device in [b, x, b, x] { _ = try run(device, revoked: ["r": cutoff]) }
        XCTAssertEqual(try x.config.hosts().map(\.port), [22], "X's host as X wrote it")
        try assertSame(b, as: try x.dump())
    }

    /// An object the undo needs, withheld by the remote: the zone waits (reading and sending
    /// nothing, so no version sent again by others is lost to the one to undo), then after ten
    /// runs undoes what it could read and goes on: a remote cannot stop it for good.
    func testAnUndoWaitsForAWithheldObjectThenGoesOn() throws {
        let r = try device("r"), b = try device("b")
        for round in 0..<3 {
            try r.addHost(label: "r-\(round)", password: nil)
            _ = try run(r, revoked: [:])
        }
        _ = try run(b, revoked: [:])
        try remote.delete(Batch.objectName(zone: "config", device: "r", sequence: 3))
        try b.addHost(label: "b-waiting", password: nil)
        for run in 1..<ZoneEngine.patienceRuns {
            let report = try self.run(b, revoked: ["r": 2])
            XCTAssertTrue(report.undoWaits, "run \(run)")
            XCTAssertEqual(report.sentChanges, 0, "run \(run): nothing sent while the undo waits")
        }
        let last = try run(b, revoked: ["r": 2])
        XCTAssertFalse(last.undoWaits)
        XCTAssertEqual(last.undidRevoked, ["r"])
        XCTAssertEqual(last.sentChanges, 1, "b's own edit goes out")
    }

    func testObjectsQuarantinedWholeAreNothingToUndo() throws {
        let r = try device("r"), c = try device("c")
        for round in 0..<3 {
            try r.addHost(label: "r-\(round)", password: nil)
            _ = try run(r, revoked: [:])
        }
        try remote.delete(Batch.objectName(zone: "config", device: "r", sequence: 3))
        _ = try remote.createOnly(Batch.objectName(zone: "config", device: "r", sequence: 3), bytes: Array(repeating: 7, count: 200))
        for _ in 0..<SyncTables.attemptsBeforeQuarantine { _ = try run(c, revoked: [:]) }
        XCTAssertEqual(try c.configZone.syncState().cursors["r"], 3, "past the object quarantined whole")
        XCTAssertEqual(try run(c, revoked: ["r": 2]).undidRevoked, [], "the cursor passed it, yet nothing of it was taken in")
    }

    func testASnapshotPastACutoffIsNoBase() throws {
        let r = try device("r"), b = try device("b")
        for round in 0..<20 {
            try r.addHost(label: "r-\(round)", password: nil)
            _ = try run(r, revoked: [:])
        }
        // b read all of r and wrote a snapshot before the revocation with cutoff 10.
        XCTAssertEqual(try run(b, revoked: [:], policy: now).snapshotsWritten, 1)
        let joiner = try device("j")
        let joined = try run(joiner, revoked: ["r": 10])
        XCTAssertEqual(joined.snapshotsRead, 0, "the snapshot covers r past its cutoff")
        let other = try device("k")
        XCTAssertEqual(try run(other, revoked: [:]).snapshotsRead, 1, "without the revocation it is the base")
    }
}
