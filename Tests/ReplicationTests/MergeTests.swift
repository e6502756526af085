import XCTest
@testable import Replication

/// The merge rule is a total order, so folding any delivery order gives one answer.
final class MergeTests: XCTestCase {
    private func envelope(_ clock: UInt64, device: String = "a", deleted: Bool = false, incarnation: Int64 = 1, payload: [UInt8] = [1]) -> Envelope {
        Envelope(recordName: "secret/x", kind: "secret", formatVersion: 1, version: RecordVersion(clock: clock, device: device),
                 deleted: deleted, incarnation: incarnation, payload: payload)
    }

    func testNewerVersionWinsAndTiesBreakOnDeviceThenPayload() {
        XCTAssertTrue(Merge.wins(envelope(2), over: envelope(1)))
        XCTAssertFalse(Merge.wins(envelope(1), over: envelope(2)))
        XCTAssertTrue(Merge.wins(envelope(1, device: "b"), over: envelope(1, device: "a")))
        XCTAssertTrue(Merge.wins(envelope(1, payload: [2]), over: envelope(1, payload: [1])))
        XCTAssertFalse(Merge.wins(envelope(1), over: envelope(1)), "equal envelopes propose no work")
    }

    func testATombstoneIsTerminalForItsIncarnationWhateverTheClock() {
        let tombstone = envelope(10, deleted: true)
        let staleUpdateFromTheFuture = envelope(10 + (5 * 86_400_000 << 16), device: "skewed")
        XCTAssertTrue(Merge.wins(tombstone, over: staleUpdateFromTheFuture))
        XCTAssertFalse(Merge.wins(staleUpdateFromTheFuture, over: tombstone))
    }

    func testANewIncarnationWinsOverTheTombstoneOfTheOldOne() {
        let tombstone = envelope(10, deleted: true, incarnation: 1)
        let again = envelope(5, incarnation: 2)
        XCTAssertTrue(Merge.wins(again, over: tombstone), "setting again after delete wins even with an older clock")
        XCTAssertTrue(Merge.wins(envelope(6, deleted: true, incarnation: 2), over: again))
    }

    func testAnyDeliveryOrderConvergesAndReplaysChangeNothing() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let candidates = (0..<Int.random(in: 1...8, using: &generator)).map { _ in
                envelope(UInt64.random(in: 0...5, using: &generator), device: ["a", "b", "c"].randomElement(using: &generator)!,
                         deleted: Bool.random(using: &generator), incarnation: Int64.random(in: 1...3, using: &generator),
                         payload: [UInt8.random(in: 0...2, using: &generator)])
            }
            let reference = candidates.dropFirst().reduce(candidates[0], Merge.winner)
            for _ in 0..<10 {
                // Shuffled, with duplicates: the same survivor, and folding it in again is a no-op.
                let delivery = (candidates + candidates.prefix(2)).shuffled(using: &generator)
                let survivor = delivery.dropFirst().reduce(delivery[0], Merge.winner)
                XCTAssertEqual(survivor, reference)
                XCTAssertFalse(delivery.contains { Merge.wins($0, over: survivor) })
            }
        }
    }

    /// Two deletions of one version are the same deletion in any format: neither replaces the
    /// other, so a format-2 copy never applies again over the stored format-1 tombstone.
    func testTheSameDeletionInAnotherFormatDoesNotWin() {
        let stored = envelope(10, deleted: true, payload: [])
        let again = Envelope(recordName: stored.recordName, kind: stored.kind, formatVersion: 2, version: stored.version,
                             deleted: true, incarnation: stored.incarnation, payload: [])
        XCTAssertFalse(Merge.wins(again, over: stored))
        XCTAssertFalse(Merge.wins(stored, over: again))
        XCTAssertTrue(Merge.wins(Envelope(recordName: "secret/x", kind: "secret", formatVersion: 2, version: RecordVersion(clock: 10, device: "a"),
                                          deleted: false, incarnation: 1, payload: [1]), over: envelope(10)), "live versions still order by format")
    }
}
