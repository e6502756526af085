import Foundation
import Replication
import XCTest

/// Freshness (docs/devices.md): a remote that shows less of a writer than a device has read — a
/// rolled-back folder, a bucket restored from a backup, objects withheld — is said once it has
/// lasted three runs, never accepted silently; what compaction removed under a snapshot is not.
final class FreshnessTests: CompactionTestCase {
    private func shortfalls(_ device: SimulatedDevice) throws -> [String: [String: UInt64]] {
        Dictionary(try sync(device).map { ($0.zone, $0.shortfalls) }, uniquingKeysWith: { first, _ in first })
    }

    func testAWritersBatchesRolledBackBelowWhatWasReadAreSaidAfterThreeRuns() throws {
        let a = try device("a"), b = try device("b")
        for round in 0..<3 {
            try a.addHost(label: "a-\(round)", password: "pw-\(round)")
            try sync(a)
        }
        try sync(b)
        XCTAssertEqual(try batches("config")["a"], [1, 2, 3])
        // The folder goes back to how it was after a's first batch.
        for zone in ["config", "secrets"] {
            for sequence in [2, 3] { try remote.delete(Batch.objectName(zone: zone, device: "a", sequence: UInt64(sequence))) }
        }
        XCTAssertEqual(try batches("config")["a"], [1], "the batch names are as the test assumes")
        XCTAssertEqual(try shortfalls(b), ["config": [:], "secrets": [:]], "once may be a sync tool's passing order")
        XCTAssertEqual(try shortfalls(b), ["config": [:], "secrets": [:]])
        XCTAssertEqual(try shortfalls(b), ["config": ["a": 3], "secrets": ["a": 3]], "three runs in a row: said, with what was read")
        // Its own objects gone too: a itself sees it.
        for _ in 0..<2 { try sync(a) }
        XCTAssertEqual(try shortfalls(a)["config"], ["a": 3])
        // Once the remote shows the objects again, nothing is said any more.
        try a.addHost(label: "a-later", password: nil)
        try sync(a)
        XCTAssertEqual(try shortfalls(a)["config"], [:], "a's newest batch, sent since, is listed")
        XCTAssertEqual(try shortfalls(b)["config"], [:])
    }

    func testBatchesCollectedUnderASnapshotAreNoShortfall() throws {
        let a = try device("a"), b = try device("b")
        for round in 0..<4 {
            try a.addHost(label: "a-\(round)", password: "pw-\(round)")
            try b.addHost(label: "b-\(round)", password: nil)
            try sync(a)
            try sync(b)
        }
        for device in [a, b, a, b] { try sync(device, policy: now) }
        XCTAssertEqual(try batches("config")["a"]?.count, 1, "compaction kept only a's newest batch")
        for _ in 0..<3 {
            for device in [a, b] { XCTAssertEqual(try shortfalls(device), ["config": [:], "secrets": [:]]) }
        }
        // Even a writer's newest batch gone is no shortfall while a snapshot covers it.
        let newest = try XCTUnwrap(try batches("config")["a"]?.last)
        try remote.delete(Batch.objectName(zone: "config", device: "a", sequence: newest))
        for _ in 0..<3 { XCTAssertEqual(try shortfalls(b)["config"], [:]) }
    }
}
