@testable import Replication
import XCTest

/// Batch object names, and the copies Syncthing and Dropbox-style tools make of them when two
/// devices wrote the same name: twenty digits, then nothing or the copy's mark.
final class BatchObjectNameTests: XCTestCase {
    private let digits = "00000000000000000042"

    func testNamesAndConflictCopiesAreTakenApart() {
        let plain = BatchObjectName("zones/config/dev-1/\(digits).batch", zone: "config")
        XCTAssertEqual(plain?.device, "dev-1")
        XCTAssertEqual(plain?.sequence, 42)
        XCTAssertEqual(plain?.isConflictCopy, false)
        for copy in ["\(digits).sync-conflict-20261202-101010-ABCDEFG.batch", "\(digits) (conflicted copy 2026-12-02).batch"] {
            let parsed = BatchObjectName("zones/config/dev-1/\(copy)", zone: "config")
            XCTAssertEqual(parsed?.sequence, 42, copy)
            XCTAssertEqual(parsed?.isConflictCopy, true, copy)
        }
    }

    func testAnythingElseIsNotABatch() {
        for file in ["\(digits)x.batch", "\(digits).sync-conflic.batch", "\(digits)(conflicted copy).batch", "0000000000000000042.batch",
                     "000000000000000000042.batch", "0000000000000004.sync-conflict-1.batch", "00000000000000000000.batch",
                     "0000000000000000004a.batch", "\(digits).batch.sync-conflict-1", ".sync-conflict-\(digits).batch", "\(digits)"] {
            XCTAssertNil(BatchObjectName("zones/config/dev-1/\(file)", zone: "config"), file)
        }
        XCTAssertNil(BatchObjectName("zones/secrets/dev-1/\(digits).batch", zone: "config"), "another zone")
        XCTAssertNil(BatchObjectName("zones/config//\(digits).batch", zone: "config"), "no device")
    }
}
