import Foundation
import XCTest

/// Two devices and a remote directory, driven through real `credctl` processes that are killed
/// (SIGKILL) at failpoints and at random instants across adding, editing, clearing and removing
/// passwords, adding and removing identities with their keys, syncing and migrating. After every round both devices sync to quiescence and the
/// harness checks: no deleted secret is back, no acknowledged secret is lost, no reference opens
/// to a wrong body, the journals drain, and both devices agree.
///
/// Each host is edited only on the device that created it, so its final state is known exactly:
/// the last operation that finished, or — after a kill — whatever the device itself then shows,
/// which must be the state before or after that operation. `CREDVAULT_KILLS` sets how many kills
/// to reach (default 40; CI runs 500); `CREDVAULT_KILL_SEED` replays one seed.
final class KillHarnessTests: TwoDeviceTestCase {
    func testKillsAtAnyInstantNeverResurrectLoseOrMixUpASecret() throws {
        let environment = ProcessInfo.processInfo.environment
        let target = environment["CREDVAULT_KILLS"].flatMap(Int.init) ?? 40
        let seed = environment["CREDVAULT_KILL_SEED"].flatMap(UInt64.init) ?? UInt64(Date().timeIntervalSince1970)
        // First, so a run that never finishes can still be replayed.
        print("kill harness: seed \(seed) (replay with CREDVAULT_KILL_SEED=\(seed))")
        try join()
        var keyFiles: [(path: String, bytes: [UInt8])] = []
        for index in 0..<3 {
            let path = directory + "/key-\(index)"
            let keygen = Process()
            keygen.executableURL = URL(fileURLWithPath: "/usr/bin/ssh-keygen")
            keygen.arguments = ["-q", "-t", "ed25519", "-N", "", "-C", "kill-harness", "-f", path]
            try keygen.run()
            keygen.waitUntilExit()
            keyFiles.append((path, Array(try Data(contentsOf: URL(fileURLWithPath: path)))))
        }
        var harness = KillHarness(devices: [a, b], keyFiles: keyFiles, seed: seed)
        while harness.kills < target {
            for _ in 0..<40 { try harness.step() }
            try harness.settle()
            harness.check()
        }
        print("kill harness: seed \(seed), \(harness.operations) operations, \(harness.kills) kills (\(harness.failpointKills) at failpoints, \(harness.kills - harness.failpointKills) at random instants), \(harness.violations.count) violations")
        print("kill harness: \(harness.summary)")
        // Most kills land inside vault work, not in process start-up.
        XCTAssertGreaterThanOrEqual(harness.killsByPhase[.vaultOpen, default: 0] + harness.failpointKills, harness.kills / 2, harness.summary)
        XCTAssertEqual(harness.violations, [], "seed \(seed) (replay with CREDVAULT_KILL_SEED=\(seed))")
    }
}
