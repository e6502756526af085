import Foundation
import Replication
import SQLite
import XCTest
@testable import ConfigTrack

/// Removals count only with their own tombstone.
extension FieldMergeTests {
    /// A removal sent alone — here forged, far ahead, with no tombstone after it — stores
    /// nothing and changes nothing, so the real removal of a later deletion still counts.
    func testARemovalWithoutItsTombstoneChangesNothing() throws {
        let host = try a.host("cx")
        var context = ByteWriter()
        let forged = RecordVersion(clock: (HybridLogicalClock.wallMilliseconds() + 86_400_000) << 16, device: "device-o")
        VersionContext(only: forged).encode(into: &context)
        let removal = Envelope(recordName: "removal/" + host.recordName, kind: "removal", formatVersion: 2, version: forged, deleted: false,
                               incarnation: 0, payload: context.bytes)
        let batch = Batch(zone: "config", device: "device-o", sequence: 1, envelopes: [removal])
        _ = try remote.createOnly(batch.objectName, bytes: try BatchCodec.seal(batch, transportKey: key))
        for store in [a!, b!] { try sync(store) }
        XCTAssertEqual(try a.host(id: host.id)?.hostname, "cx.example")
        let removals = try Connection(path: a.queue.path).queryFirst("SELECT count(*) FROM replication_removals") { $0.int(0) }
        XCTAssertEqual(removals, 0)
        XCTAssertEqual(try a.quarantined(), [])

        try edit(a) { $0.port = 2200 }
        try sync(a)
        try b.removeHost(id: host.id)
        for store in [b!, a!] { try sync(store) }
        XCTAssertEqual(try a.conflicts().map(\.group), ["endpoint"], "the real removal counted")
    }
}
