import Foundation
import XCTest

/// While a sync of the vault runs (another process holds the vault's lock), status says so.
final class SyncingStatusTests: TwoDeviceTestCase {
    func testStatusShowsSyncingWhileAnotherProcessSyncs() throws {
        assertStatus(try a.run("sync"), 0)
        let fd = open(directory + "/a", O_RDONLY | O_DIRECTORY)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        XCTAssertEqual(flock(fd, LOCK_EX), 0, "held as a running sync holds it")
        let status = try a.run("status")
        assertStatus(status, 0)
        XCTAssertTrue(status.output.contains("Zone config: syncing"), status.output)
        XCTAssertTrue(status.output.contains("Zone secrets: syncing"), status.output)
        flock(fd, LOCK_UN)
        XCTAssertTrue(try a.run("status").output.contains("Zone config: available"))
    }
}
