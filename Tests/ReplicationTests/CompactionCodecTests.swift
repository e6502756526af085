import Sodium
import XCTest
@testable import Replication

/// Snapshot parts, manifests and published cursors: round trips, each bound to its own name,
/// and the object names compaction adds.
final class CompactionCodecTests: XCTestCase {
    private var key: SecretBytes!

    override func setUpWithError() throws { key = try SecretBytes.random(count: 32) }

    private func assertError(_ code: ReplicationError.Code, file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void) {
        XCTAssertThrowsError(try body(), file: file, line: line) { XCTAssertEqual(($0 as? ReplicationError)?.code, code, "\($0)", file: file, line: line) }
    }

    private let envelopes = [
        Envelope(recordName: "host/1", kind: "host", formatVersion: 1, version: RecordVersion(clock: 7 << 16, device: "a"), deleted: false, incarnation: 0, payload: [1, 2]),
        Envelope(recordName: "host/2", kind: "host", formatVersion: 1, version: RecordVersion(clock: 8 << 16, device: "b"), deleted: true, incarnation: 0, payload: []),
    ]

    func testPartsRoundTripAndOpenOnlyUnderTheirOwnName() throws {
        let sealed = try CompactionCodec.sealPart(envelopes[...], zone: "config", device: "a", number: 3, part: 1, transportKey: key)
        let opened = try CompactionCodec.openPart(sealed, zone: "config", device: "a", number: 3, part: 1, transportKey: key)
        XCTAssertEqual(opened.envelopes, envelopes)
        XCTAssertEqual(opened.rejected, [])
        assertError(.authenticationFailed) { _ = try CompactionCodec.openPart(sealed, zone: "config", device: "a", number: 3, part: 2, transportKey: self.key) }
        assertError(.authenticationFailed) { _ = try CompactionCodec.openPart(sealed, zone: "config", device: "a", number: 4, part: 1, transportKey: self.key) }
        assertError(.authenticationFailed) { _ = try CompactionCodec.openPart(sealed, zone: "secrets", device: "a", number: 3, part: 1, transportKey: self.key) }
        assertError(.authenticationFailed) { _ = try CompactionCodec.openPart(Array(sealed.dropLast()), zone: "config", device: "a", number: 3, part: 1, transportKey: self.key) }
        let other = try SecretBytes.random(count: 32)
        assertError(.authenticationFailed) { _ = try CompactionCodec.openPart(sealed, zone: "config", device: "a", number: 3, part: 1, transportKey: other) }
    }

    func testManifestsAndPublishedCursorsRoundTripAndAreNotInterchangeable() throws {
        let manifest = SnapshotManifest(zone: "config", device: "a", number: 3, createdAt: 1_700_000_000_000, cursors: ["a": 9, "b": 4],
                                        parts: [SnapshotManifest.Part(count: 2, digest: GenericHash.hash([1]))])
        let sealedManifest = try CompactionCodec.seal(manifest, transportKey: key)
        XCTAssertEqual(try CompactionCodec.openManifest(sealedManifest, zone: "config", device: "a", number: 3, transportKey: key), manifest)
        let cursors = PublishedCursors(zone: "config", device: "a", number: 3, writtenAt: 1_700_000_000_000, cursors: ["a": 9, "b": 4])
        let sealedCursors = try CompactionCodec.seal(cursors, transportKey: key)
        XCTAssertEqual(try CompactionCodec.openCursors(sealedCursors, zone: "config", device: "a", number: 3, transportKey: key), cursors)
        // Same zone, device and number: still only ever read as what it was written as.
        assertError(.authenticationFailed) { _ = try CompactionCodec.openCursors(sealedManifest, zone: "config", device: "a", number: 3, transportKey: self.key) }
        assertError(.authenticationFailed) { _ = try CompactionCodec.openManifest(sealedCursors, zone: "config", device: "a", number: 3, transportKey: self.key) }
        assertError(.authenticationFailed) { _ = try CompactionCodec.openManifest(sealedManifest, zone: "config", device: "b", number: 3, transportKey: self.key) }
    }

    func testSnapshotCoverageAndDominance() {
        let older = SnapshotManifest(zone: "z", device: "a", number: 1, createdAt: 1, cursors: ["a": 3, "b": 5], parts: [])
        let newer = SnapshotManifest(zone: "z", device: "b", number: 1, createdAt: 2, cursors: ["a": 4, "b": 5, "c": 1], parts: [])
        let sideways = SnapshotManifest(zone: "z", device: "c", number: 1, createdAt: 3, cursors: ["a": 9], parts: [])
        XCTAssertTrue(newer.dominates(older))
        XCTAssertFalse(older.dominates(newer))
        XCTAssertFalse(sideways.dominates(older), "incomparable vectors: neither replaces the other")
        XCTAssertEqual(newer.coverage, 10)
    }

    func testObjectNamesRoundTripAndStrangersAreNotCompactionObjects() {
        let names = [
            CompactionObjectName(device: "dev", number: 12, kind: .cursors),
            CompactionObjectName(device: "dev", number: 12, kind: .snapshotManifest),
            CompactionObjectName(device: "dev", number: 12, kind: .snapshotPart(3)),
        ]
        XCTAssertEqual(names.map { $0.objectName(zone: "config") }, [
            "zones/config/dev/cursors-00000000000000000012.cursors",
            "zones/config/dev/snap-00000000000000000012.snapshot",
            "zones/config/dev/snap-00000000000000000012-000003.chunk",
        ])
        for name in names { XCTAssertEqual(CompactionObjectName(name.objectName(zone: "config"), zone: "config"), name) }
        for stranger in ["zones/config/dev/00000000000000000012.batch", "zones/config/dev/snap-12.snapshot", "zones/secrets/dev/snap-00000000000000000012.snapshot",
                         "zones/config/dev/snap-00000000000000000012-3.chunk", "zones/config/a/b/cursors-00000000000000000012.cursors",
                         "zones/config/dev/snap-0000000000000000001x.snapshot", "zones/config//cursors-00000000000000000012.cursors"] {
            XCTAssertNil(CompactionObjectName(stranger, zone: "config"), stranger)
        }
    }
}
