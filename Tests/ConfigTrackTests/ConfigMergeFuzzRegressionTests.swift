import ConfigTrack
import Replication
import XCTest

/// Inputs the config-merge fuzzer (Fuzz/FuzzConfigMerge) found, kept as regressions.
final class ConfigMergeFuzzRegressionTests: ConfigTestCase {
    /// A host as another device sends it.
    private func envelope() throws -> Envelope {
        let writer = try ConfigStore.create(at: directory + "/writer.sqlite", deviceID: "d0f4a5e2-2222-4c6b-9f00-000000000002")
        try writer.save(Host(label: "web-1", hostname: "web-1.example"))
        return try XCTUnwrap(try ConfigZone(store: writer).pendingChanges(limit: 1).first)
    }

    /// An object under this device's own name with sequence UInt64.max trapped (`sequence + 1`
    /// reserving the next sequence): every later sync crashed again on it. Its records still
    /// merge; the sequence and cursor do not move to such a number.
    func testAnOwnObjectWithTheLargestSequenceDoesNotTrap() throws {
        let zone = ConfigZone(store: store)
        let report = try zone.apply([IncomingBatch(device: Self.deviceID, sequence: .max, envelopes: [try envelope()], rejected: [], advancesCursor: true)])
        XCTAssertEqual(report.applied, 1)
        let state = try zone.syncState()
        XCTAssertEqual(state.nextSequence, 1)
        XCTAssertNil(state.cursors[Self.deviceID])
    }

    /// A live record, its deletion in format 2 and a later live version in one batch: the
    /// deletion compared as newer than the stored (format-1) tombstone of the same version, so
    /// every sync applied it again. The same deletion in any format now changes nothing.
    func testTheSameDeletionInAnotherFormatAppliesOnce() throws {
        let live = try envelope()
        let deletion = Envelope(recordName: live.recordName, kind: live.kind, formatVersion: 2,
                                version: RecordVersion(clock: live.version.clock + 1, device: live.version.device), deleted: true, incarnation: 0, payload: [])
        let later = Envelope(recordName: live.recordName, kind: live.kind, formatVersion: live.formatVersion,
                             version: RecordVersion(clock: live.version.clock + 2, device: live.version.device), deleted: false, incarnation: 0, payload: live.payload)
        let batch = IncomingBatch(device: "d0f4a5e2-2222-4c6b-9f00-000000000002", sequence: 1, envelopes: [live, deletion, later], rejected: [], advancesCursor: false)
        let zone = ConfigZone(store: store)
        XCTAssertEqual(try zone.apply([batch]).applied, 2)
        XCTAssertEqual(try zone.apply([batch]).applied, 0, "a settled merge proposes no work")
        XCTAssertEqual(try store.hosts(), [])
    }

    /// A snapshot's cursor vector claiming sequences past Int64.max (stored signed by SQLite,
    /// and one short of overflowing the engine's `cursor + 1`) moves no cursor; sane ones do.
    func testCoveredSequencesBeyondRangeMoveNoCursor() throws {
        let zone = ConfigZone(store: store)
        let other = "d0f4a5e2-2222-4c6b-9f00-000000000002"
        _ = try zone.apply([IncomingBatch(device: other, sequence: 1, envelopes: [], rejected: [], advancesCursor: false,
                                          covers: [other: .max, "third": UInt64(Int64.max) + 1, "fourth": 9])])
        let state = try zone.syncState()
        XCTAssertNil(state.cursors[other])
        XCTAssertNil(state.cursors["third"])
        XCTAssertEqual(state.cursors["fourth"], 9)
    }

    /// A device record whose first_seen is NULL (and a remote forward whose bind port is NULL)
    /// passed validation, read as 0, and then broke the table's NOT NULL constraint: the whole
    /// fetch failed, on every sync. Now each is quarantined and the rest applies.
    func testANullInARequiredColumnIsQuarantinedAndTheRestApplies() throws {
        let zone = ConfigZone(store: store)
        let writer = "d0f4a5e2-2222-4c6b-9f00-000000000002"
        let version = RecordVersion(clock: 1 << 16, device: writer)
        let device = Envelope(recordName: "device/d0f4a5e2-2222-4c6b-9f00-000000000002", kind: "device", formatVersion: ConfigPayload.formatVersion,
                              version: version, deleted: false, incarnation: 0, payload: ConfigPayload.encode([.text("laptop"), .null]))
        let forward = Envelope(recordName: "forward/3f2504e0-4f89-41d3-9a0c-0305e82c3309", kind: "forward", formatVersion: ConfigPayload.formatVersion,
                               version: version, deleted: false, incarnation: 0,
                               payload: ConfigPayload.encode([.text("3f2504e0-4f89-41d3-9a0c-0305e82c3301"), .text("remote"), .null, .null, .text("localhost"), .integer(22)]))
        let report = try zone.apply([IncomingBatch(device: writer, sequence: 1, envelopes: [device, forward, try envelope()], rejected: [], advancesCursor: true)])
        XCTAssertEqual(report.applied, 1)
        XCTAssertEqual(report.quarantined, 2)
        XCTAssertEqual(Set(try store.quarantined().map(\.reason)), ["invalid device payload: a field holds a value of the wrong type",
                                                                    "invalid forward payload: a field holds a value of the wrong type"])
        XCTAssertEqual(try store.hosts().map(\.label), ["web-1"])
        XCTAssertEqual(try store.devices().count, 0)
        XCTAssertEqual(try zone.syncState().cursors[writer], 1)
    }
}
