import Foundation
import TestSupport
import XCTest

/// Two devices and a remote, driven through real `credctl` processes that are killed (SIGKILL) at
/// failpoints and at random instants across adding, editing, clearing and removing passwords,
/// adding and removing identities with their keys, syncing, compacting and migrating. After every
/// round both devices sync to quiescence and the harness checks: no deleted secret is back, no
/// acknowledged secret is lost, no reference opens to a wrong body, the journals drain, and both
/// devices agree.
///
/// Each host is edited only on the device that created it, so its final state is known exactly:
/// the last operation that finished, or — after a kill — whatever the device itself then shows,
/// which must be the state before or after that operation. `CREDVAULT_KILLS` sets how many kills
/// to reach on the directory remote (default 40; CI runs 500), a tenth as many on S3 and with the
/// keyring backend; `CREDVAULT_KILL_SEED` replays one seed.
final class KillHarnessTests: TwoDeviceTestCase {
    private var target: Int { ProcessInfo.processInfo.environment["CREDVAULT_KILLS"].flatMap(Int.init) ?? 40 }

    func testKillsAtAnyInstantNeverResurrectLoseOrMixUpASecret() throws {
        try join()
        try exercise([a, b], kills: target, name: "directory", joinArguments: [remote])
    }

    func testKillsDuringS3SyncNeverResurrectLoseOrMixUpASecret() throws {
        let server = try SeaweedServer()
        let address = "s3://\(server.bucket)/kills"
        func device(_ name: String) -> CredctlRunner {
            var runner = CredctlRunner(vault: directory + "/" + name, keyFile: directory + "/" + name + ".key")
            runner.environment["AWS_ACCESS_KEY_ID"] = SeaweedServer.accessKey
            runner.environment["AWS_SECRET_ACCESS_KEY"] = server.secretKey
            return runner
        }
        let c = device("c"), d = device("d")
        let options = ["--endpoint", server.endpoint, "--path-style", "--recovery-key-file", directory + "/s3-recovery-key"]
        assertStatus(try c.run("init"), 0)
        assertStatus(try c.run(["remote", "set", address] + options), 0)
        assertStatus(try d.run(["init", "--join", address] + options), 0)
        try exercise([c, d], kills: max(10, target / 10), name: "S3", joinArguments: [address, "--endpoint", server.endpoint, "--path-style"])
    }

    func testKillsWithTheKeyringBackendNeverResurrectLoseOrMixUpASecret() throws {
        let keyring = try HeadlessKeyring.shared()
        func device(_ name: String) -> CredctlRunner {
            var runner = CredctlRunner(vault: directory + "/" + name, keyFile: directory + "/" + name + ".key")
            runner.environment.merge(keyring.environment) { $1 }
            runner.environment["CREDCTL_KEYRING_TIMEOUT_MS"] = "5000"
            return runner
        }
        let c = device("c"), d = device("d")
        assertStatus(try c.run("init", "--secret-backend", "keyring"), 0)
        let keyringRemoteKey = directory + "/keyring-remote-recovery-key"
        assertStatus(try c.run("remote", "set", directory + "/keyring-remote", "--recovery-key-file", keyringRemoteKey), 0)
        assertStatus(try d.run("init", "--join", directory + "/keyring-remote", "--recovery-key-file", keyringRemoteKey), 0)
        try exercise([c, d], kills: max(10, target / 10), name: "keyring backend", joinArguments: [directory + "/keyring-remote"])
    }

    private func exercise(_ devices: [CredctlRunner], kills target: Int, name: String, joinArguments: [String]) throws {
        let seed = ProcessInfo.processInfo.environment["CREDVAULT_KILL_SEED"].flatMap(UInt64.init) ?? UInt64(Date().timeIntervalSince1970)
        // First, so a run that never finishes can still be replayed.
        print("kill harness (\(name)): seed \(seed) (replay with CREDVAULT_KILL_SEED=\(seed))")
        var keyFiles: [(path: String, bytes: [UInt8])] = []
        for index in 0..<3 {
            let path = directory + "/key-\(name.prefix(1))-\(index)"
            let keygen = Process()
            keygen.executableURL = URL(fileURLWithPath: "/usr/bin/ssh-keygen")
            keygen.arguments = ["-q", "-t", "ed25519", "-N", "", "-C", "kill-harness", "-f", path]
            try keygen.run()
            keygen.waitUntilExit()
            keyFiles.append((path, Array(try Data(contentsOf: URL(fileURLWithPath: path)))))
        }
        let root = directory
        // A joining device has the devices' environment (S3 credentials, the keyring's bus), and its own vault.
        let joiner = { (joinerName: String) -> CredctlRunner in
            var runner = CredctlRunner(vault: root + "/" + name.prefix(1) + "-" + joinerName, keyFile: root + "/" + name.prefix(1) + "-" + joinerName + ".key")
            runner.environment = devices[0].environment.merging(runner.environment) { $1 }
            return runner
        }
        var harness = KillHarness(devices: devices, keyFiles: keyFiles, seed: seed, joiner: joiner, joinArguments: joinArguments)
        while harness.kills < target {
            for _ in 0..<40 { try harness.step() }
            try harness.settle()
            harness.check()
        }
        print("kill harness (\(name)): seed \(seed), \(harness.operations) operations, \(harness.kills) kills (\(harness.failpointKills) at failpoints, \(harness.kills - harness.failpointKills) at random instants), \(harness.violations.count) violations")
        print("kill harness (\(name)): \(harness.summary); \(harness.rotations) rotations, \(harness.joiners) devices approved and revoked, \(harness.passphraseChanges) passphrase changes")
        // Most kills land inside vault work, not in process start-up.
        XCTAssertGreaterThanOrEqual(harness.killsByPhase[.vaultOpen, default: 0] + harness.failpointKills, harness.kills / 2, harness.summary)
        XCTAssertEqual(harness.violations, [], "\(name), seed \(seed) (replay with CREDVAULT_KILL_SEED=\(seed))")
    }
}
