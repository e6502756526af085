import Foundation
import Replication
import XCTest

/// `credctl sync --compact` on a directory remote: three devices, a fourth joining after the
/// collection (the same scenario runs against SeaweedFS in `S3SyncTests`).
final class CompactionCommandTests: TwoDeviceTestCase {
    func testThreeDevicesCompactAndAFourthJoiningLaterConverges() throws {
        let scenario = CompactionScenario(
            device: { CredctlRunner(vault: self.directory + "/" + $0, keyFile: self.directory + "/" + $0 + ".key") },
            joinArguments: [remote, "--recovery-key-file", recoveryKey],
            names: { try DirectoryRemote(root: self.remote).list(prefix: "") })
        try scenario.run(first: a, in: self)
    }

    /// `CREDCTL_RETIRE_AFTER_SECONDS=0` makes every other device count as retired: b, away
    /// with an edit it never sent, finds the batches it had not read collected. Its next sync
    /// starts from the snapshot, sends its edit, and both devices end up with everything.
    func testARetiredDeviceComesBackThroughTheSnapshotWithItsOfflineEdit() throws {
        try join()
        assertStatus(try b.run("host", "add", "made-offline", "--hostname", "offline.example"), 0)
        for round in 0..<4 {
            assertStatus(try a.run("host", "add", "a-\(round)", "--hostname", "a\(round).example"), 0)
            assertStatus(try a.run("sync"), 0)
        }
        let compacted = try a.run(["sync", "--compact"], extraEnvironment: ["CREDCTL_RETIRE_AFTER_SECONDS": "0"])
        assertStatus(compacted, 0)
        XCTAssertTrue(compacted.output.contains("collected"), compacted.output)
        let back = try b.run("sync")
        assertStatus(back, 0)
        XCTAssertTrue(back.output.contains("started from a snapshot"), back.output)
        assertStatus(try a.run("sync"), 0)
        for device in [a!, b!] {
            let hosts = try device.run("host", "list").output
            for label in ["made-offline", "a-0", "a-3"] { XCTAssertTrue(hosts.contains(label), "\(label) on \(device.vault)") }
        }
    }
}
