import Foundation
import Membership
import TestSupport
import XCTest

/// Two vault directories and one remote directory, driven through the built credctl.
final class TwoDeviceSyncTests: TwoDeviceTestCase {
    func testTheTracksArriveSeparatelyAndEachStateIsReportedHonestly() throws {
        assertStatus(try a.run(["host", "add", "web", "--hostname", "web.example", "--password-stdin"], input: [0x00, 0xff, 0x70, 0x77]), 0)
        assertStatus(try a.run("sync", "--zone", "config"), 0)
        try join()
        let early = try b.run("read", "cred://host/web/password")
        assertStatus(early, 75)
        XCTAssertTrue(early.stderr.contains("Credentials for 'web' have not synced to this device yet"), early.stderr)

        assertStatus(try a.run("sync", "--zone", "secrets"), 0)
        assertStatus(try b.run("sync"), 0)
        XCTAssertEqual(try b.run("read", "cred://host/web/password").stdout, [0x00, 0xff, 0x70, 0x77])

        assertStatus(try a.run("host", "edit", "web", "--no-password"), 0)
        assertStatus(try a.run("sync"), 0)
        assertStatus(try b.run("sync", "--zone", "secrets"), 0)
        let deleted = try b.run("read", "cred://host/web/password")
        assertStatus(deleted, 66)
        XCTAssertTrue(deleted.stderr.contains("was deleted"), deleted.stderr)
        assertStatus(try b.run("sync", "--zone", "config"), 0)
        XCTAssertTrue(try b.run("host", "show", "web").output.contains("Password:  none"))
    }

    func testEditsFlowBothWaysAndNothingReadableReachesTheRemote() throws {
        try join()
        assertStatus(try b.run(["host", "add", "db-unmistakable", "--hostname", "unmistakable.internal", "--user", "unmistakable", "--password-stdin"],
                               input: Array("Unmistakable-Secret".utf8)), 0)
        assertStatus(try b.run("sync"), 0)
        assertStatus(try a.run("sync"), 0)
        XCTAssertEqual(try a.run("read", "cred://host/db-unmistakable/password").output, "Unmistakable-Secret")
        // Snapshots, their manifests and published cursors are on the remote too, and scanned.
        assertStatus(try a.run("sync", "--compact"), 0)
        XCTAssertTrue(SecretScan.files(under: [remote]).contains { $0.path.hasSuffix(".snapshot") }, "compaction wrote a snapshot")
        let clear = ["Unmistakable-Secret", "db-unmistakable", "unmistakable.internal"].map { Array($0.utf8) }
        let plant = remote + "/zones/planted"
        XCTAssertTrue(FileManager.default.createFile(atPath: plant, contents: Data(SecretScan.forms(of: clear[0])[5].bytes)))
        XCTAssertEqual(SecretScan.findInFiles(clear, under: [remote]).count, 1, "the scan finds a planted copy")
        try FileManager.default.removeItem(atPath: plant)
        XCTAssertEqual(SecretScan.findInFiles(clear, under: [remote]), [], "a label, hostname or secret in the clear on the remote")
        let objects = SecretScan.files(under: [remote]).count, bytes = SecretScan.files(under: [remote]).reduce(0) { $0 + $1.bytes.count }
        // a synced last: what it measured is what the directory holds.
        let status = try JSONSerialization.jsonObject(with: Data(try a.run("status", "--json").stdout)) as? [String: Any]
        XCTAssertEqual(status?["remote_kind"] as? String, "directory")
        XCTAssertEqual(status?["remote_objects"] as? Int, objects)
        XCTAssertEqual(status?["remote_bytes"] as? Int, bytes)
    }

    func testJoiningWithAnotherVaultsRecoveryKeyIsRefusedAndCanBeTriedAgain() throws {
        let wrong = directory + "/wrong"
        try RecoveryKey.generate().printable().withUnsafeBytes { XCTAssertTrue(FileManager.default.createFile(atPath: wrong, contents: Data($0), attributes: [.posixPermissions: 0o600])) }
        let result = try b.run("init", "--join", remote, "--recovery-key-file", wrong)
        assertStatus(result, 77)
        XCTAssertTrue(result.stderr.contains("This recovery key is not the one of the vault on this remote"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/b/remote.json"), "not bound")
        // The same command with the right key finishes the join of the vault it made.
        assertStatus(try b.run("init", "--join", remote, "--recovery-key-file", recoveryKey), 0)
        XCTAssertTrue(try b.run("status").output.contains("Remote:"))
    }

    func testAnUnreachableRemoteExits69AndLocalWorkGoesOn() throws {
        try FileManager.default.moveItem(atPath: remote, toPath: remote + "-unmounted")
        assertStatus(try a.run("host", "add", "offline", "--hostname", "h.example"), 0)
        let sync = try a.run("sync")
        assertStatus(sync, 69)
        XCTAssertTrue(try a.run("status").output.contains("Zone config: localFallback"))
        try FileManager.default.moveItem(atPath: remote + "-unmounted", toPath: remote)
        assertStatus(try a.run("sync"), 0)
        XCTAssertTrue(try a.run("status").output.contains("Zone config: available (0 pending"))
    }

    func testARemoteThatNowHoldsAnotherVaultStopsUploads() throws {
        try join()
        // The remote is reset and another vault is created in its place.
        try FileManager.default.removeItem(atPath: remote)
        let other = CredctlRunner(vault: directory + "/other", keyFile: directory + "/other.key")
        assertStatus(try other.run("init"), 0)
        let otherKey = directory + "/other-recovery-key"
        assertStatus(try other.run("remote", "set", remote, "--recovery-key-file", otherKey), 0)
        assertStatus(try b.run("host", "add", "after-reset", "--hostname", "h.example"), 0)
        assertStatus(try b.run("sync"), 1)
        XCTAssertTrue(try b.run("status").output.contains("needsAttention: the remote now holds another vault"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: remote + "/zones"), "nothing uploaded")
        // Binding to the new vault takes an explicit --merge; then B's records go to it.
        let refused = try b.run("remote", "set", remote, "--recovery-key-file", otherKey)
        assertStatus(refused, 1)
        XCTAssertTrue(refused.stderr.contains("--merge"), refused.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: remote + "/zones"), "still nothing uploaded")
        let merged = try b.run("remote", "set", remote, "--recovery-key-file", otherKey, "--merge")
        XCTAssertTrue(merged.output.contains("Joined the vault"), merged.output)
        assertStatus(try b.run("sync"), 0)
        assertStatus(try other.run("sync"), 0)
        XCTAssertTrue(try other.run("host", "list").output.contains("after-reset"))
    }

    func testDevicesAnnounceThemselvesAndQuarantineIsListed() throws {
        try join()
        assertStatus(try a.run("sync"), 0)
        let devices = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try a.run("device", "list", "--json").stdout)) as? [String: Any])
        let list = try XCTUnwrap(devices["devices"] as? [[String: Any]])
        XCTAssertEqual(list.count, 2)
        XCTAssertEqual(list.filter { $0["this_device"] as? Bool == true }.count, 1)
        // An object no key opens, stable across runs: retried, then quarantined and listed.
        let foreign = remote + "/zones/config/0f977cea-92a3-4c52-89de-061a5e80ab95"
        try FileManager.default.createDirectory(atPath: foreign, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: foreign + "/00000000000000000001.batch", contents: Data(repeating: 0x43, count: 80))
        for _ in 0..<3 { _ = try a.run("sync", "--zone", "config") }
        let quarantine = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try a.run("quarantine", "list", "--json").stdout)) as? [String: Any])
        let entries = try XCTUnwrap(quarantine["quarantined"] as? [[String: Any]])
        XCTAssertEqual(entries.count, 1)
        XCTAssertEqual(entries.first?["zone"] as? String, "config")
        XCTAssertEqual(entries.first?["bytes"] as? Int, 80)
        XCTAssertTrue(try a.run("status").output.contains("1 quarantined"))
        XCTAssertTrue(try a.run("status").output.contains(
            "Zone config: needsAttention: batch 1 of device 0f977cea-92a3-4c52-89de-061a5e80ab95 in zone config cannot be read; every sync reads it again"))
        // Discarding takes the listed ID; a wrong one discards nothing.
        let id = try XCTUnwrap(entries.first?["id"] as? String)
        XCTAssertTrue(id.hasPrefix("config/"), id)
        assertStatus(try a.run("quarantine", "discard", "nonsense"), 64)
        assertStatus(try a.run("quarantine", "discard", id, "config/999"), 66)
        XCTAssertTrue(try a.run("status").output.contains("1 quarantined"))
        assertStatus(try a.run("quarantine", "discard", id), 0)
        XCTAssertEqual(try a.run("quarantine", "list").output, "Nothing is quarantined.\n")
        XCTAssertTrue(try a.run("status").output.contains("Zone config: available"))
    }

    func testProgressShowsOnATerminalOnlyAndNeverWhenPiped() throws {
        for index in 0..<5 { assertStatus(try a.run("host", "add", "h\(index)", "--hostname", "h.example"), 0) }
        let piped = try a.run(["sync"], extraEnvironment: ["CREDCTL_PROGRESS_AFTER_MS": "0"])
        assertStatus(piped, 0)
        XCTAssertEqual(piped.stderr, "")
        assertStatus(try b.run("init", "--join", remote, "--recovery-key-file", recoveryKey), 0)
        assertStatus(try a.run("host", "add", "late", "--hostname", "h.example"), 0)
        assertStatus(try a.run("sync"), 0)
        let environment = b.environment.merging(["CREDCTL_PROGRESS_AFTER_MS": "0"]) { $1 }.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", "env \(environment) \(CredctlRunner.binary) sync --zone config", "/dev/null"]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertTrue(text.contains("credctl: syncing: config 1 received, 0 sent"), text)
    }

    func testAfterAResetBothDevicesRebindWithMergeAndConverge() throws {
        try join()
        assertStatus(try a.run("host", "add", "from-a", "--hostname", "a.example"), 0)
        assertStatus(try b.run("host", "add", "from-b", "--hostname", "b.example"), 0)
        assertStatus(try a.run("sync"), 0)
        // The shared folder is wiped (but still there: a missing folder reads as unmounted).
        for name in try FileManager.default.contentsOfDirectory(atPath: remote) { try FileManager.default.removeItem(atPath: remote + "/" + name) }
        assertStatus(try a.run("sync"), 1)
        let newKey = directory + "/recovery-key-after-reset"
        let refused = try a.run("remote", "set", remote, "--recovery-key-file", newKey)
        assertStatus(refused, 1)
        XCTAssertTrue(refused.stderr.contains("--merge"), refused.stderr)
        assertStatus(try a.run("remote", "set", remote, "--recovery-key-file", newKey, "--merge"), 0)
        assertStatus(try a.run("sync"), 0)
        // B pinned the old genesis: it notices and uploads nothing until it rebinds too (joining
        // the new roster with the new recovery key).
        assertStatus(try b.run("sync"), 1)
        XCTAssertTrue(try b.run("status").output.contains("another genesis than the one this device joined"))
        assertStatus(try b.run("remote", "set", remote, "--recovery-key-file", newKey, "--merge"), 0)
        assertStatus(try b.run("sync"), 0)
        assertStatus(try a.run("sync"), 0)
        for device in [a!, b!] {
            let hosts = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try device.run("host", "list", "--json").stdout)) as? [String: Any])
            XCTAssertEqual(Set((hosts["hosts"] as? [[String: Any]])?.compactMap { $0["label"] as? String } ?? []), ["from-a", "from-b"])
        }
    }

    func testACopiedVaultDirectoryWritingAsTheSameDeviceIsCaughtNotOverwritten() throws {
        assertStatus(try a.run("sync"), 0)
        try FileManager.default.copyItem(atPath: directory + "/a", toPath: directory + "/a-copy")
        let copy = CredctlRunner(vault: directory + "/a-copy", keyFile: directory + "/a.key")
        assertStatus(try a.run("host", "add", "original", "--hostname", "o.example"), 0)
        assertStatus(try copy.run("host", "add", "clone", "--hostname", "c.example"), 0)
        assertStatus(try a.run("sync"), 0)
        let clash = try copy.run("sync")
        assertStatus(clash, 1)
        XCTAssertTrue(try copy.run("status").output.contains("another copy of this vault writes under this device's name"))
        XCTAssertTrue(try copy.run("host", "list").output.contains("original"), "the other writer's changes are merged, not lost")
        try join()
        XCTAssertTrue(try b.run("host", "list").output.contains("original"), "the first writer's object is intact")
        XCTAssertFalse(try b.run("host", "list").output.contains("clone"), "the copy sent nothing while it was in doubt")
    }

    func testSecretsStoredBeforeTheRemoteWasSetSyncToo() throws {
        let early = CredctlRunner(vault: directory + "/early", keyFile: directory + "/early.key")
        assertStatus(try early.run("init"), 0)
        assertStatus(try early.run(["host", "add", "old", "--hostname", "old.example", "--password-stdin"], input: Array("from-before".utf8)), 0)
        let otherRemote = directory + "/remote-early"
        let otherKey = directory + "/early-recovery-key"
        assertStatus(try early.run("remote", "set", otherRemote, "--recovery-key-file", otherKey), 0)
        XCTAssertTrue(try early.run("status").output.contains("0 device-only, 1 syncable"))
        assertStatus(try early.run("sync"), 0)
        let joined = CredctlRunner(vault: directory + "/joined", keyFile: directory + "/joined.key")
        assertStatus(try joined.run("init", "--join", otherRemote, "--recovery-key-file", otherKey), 0)
        XCTAssertEqual(try joined.run("read", "cred://host/old/password").output, "from-before")
    }

    func testTwoSyncsAtOnceDoNotRaceForNames() throws {
        for index in 0..<20 { assertStatus(try a.run("host", "add", "h\(index)", "--hostname", "h.example"), 0) }
        let pending = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(try a.run("status", "--json").stdout)) as? [String: Any])?["zones"] as? [[String: Any]])
            .first { $0["name"] as? String == "config" }?["pending_changes"] as? Int
        // Both started together; each exits 0, and one waits for the other: the changes go out
        // once, all in one of the two runs, under names nobody took twice.
        let runs = try (0..<2).map { _ -> (Process, Pipe) in
            let process = Process(), output = Pipe()
            process.executableURL = URL(fileURLWithPath: CredctlRunner.binary)
            process.arguments = ["sync", "--json"]
            process.environment = a.environment
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            return (process, output)
        }
        var sent: [Int] = []
        for (process, output) in runs {
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            XCTAssertEqual(process.terminationReason, .exit)
            XCTAssertEqual(process.terminationStatus, 0)
            let zones = try XCTUnwrap((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["zones"] as? [[String: Any]])
            sent.append(zones.first { $0["zone"] as? String == "config" }?["sent"] as? Int ?? -1)
        }
        // (The first run also sends this device's announcement of itself.)
        XCTAssertEqual(sent.min(), 0, "the second run found nothing left to send")
        XCTAssertGreaterThanOrEqual(sent.max() ?? 0, try XCTUnwrap(pending))
        XCTAssertFalse(try a.run("status").output.contains("needsAttention"))
        assertStatus(try a.run("sync"), 0)
    }
}
