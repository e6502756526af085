import Foundation
import XCTest

/// `init --join` and `remote set` onto another vault's remote, killed (SIGKILL) at instants spread
/// over the time each takes: whatever the kill left, the steps a user would take next — the same
/// command again, or `sync` — end with every record and secret on every device, none wrong.
final class KillDuringBindingTests: TwoDeviceTestCase {
    private var rounds: Int { max(4, (ProcessInfo.processInfo.environment["CREDVAULT_KILLS"].flatMap(Int.init) ?? 40) / 20) }

    private func vaultState(_ runner: CredctlRunner) throws -> (exists: Bool, remote: String?) {
        let status = try runner.run("status", "--json")
        guard status.status == 0 else { return (false, nil) }
        let fields = try JSONSerialization.jsonObject(with: Data(status.stdout)) as? [String: Any]
        return (true, fields?["remote"] as? String)
    }

    /// The duration of an unkilled run, to spread kills over.
    private func timed(_ body: () throws -> Void) rethrows -> Double {
        let started = Date()
        try body()
        return Date().timeIntervalSince(started)
    }

    private func delay(_ round: Int, of span: Double) -> UInt32 { UInt32(span * 1_000_000 * Double(round) / Double(rounds)) }

    func testAKilledJoinIsFinishedByRunningItAgainOrSyncing() throws {
        assertStatus(try a.run(["host", "add", "web", "--hostname", "web.example", "--password-stdin"], input: Array("joined-secret".utf8)), 0)
        assertStatus(try a.run("sync"), 0)
        let span = try timed { try join() }
        var killedCount = 0
        for round in 0..<rounds {
            let device = CredctlRunner(vault: directory + "/join-\(round)", keyFile: directory + "/join-\(round).key")
            let killed = try KilledProcess.run(device, ["init", "--join", remote, "--recovery-key-file", recoveryKey], kill: .after(microseconds: delay(round, of: span)))
            if killed.killed { killedCount += 1 }
            switch try vaultState(device) {
            case (false, _): assertStatus(try device.run("init", "--join", remote, "--recovery-key-file", recoveryKey), 0)
            case (true, nil): assertStatus(try device.run("remote", "set", remote, "--recovery-key-file", recoveryKey), 0)
            case (true, _): break
            }
            assertStatus(try device.run("sync"), 0)
            XCTAssertEqual(try device.run("read", "cred://host/web/password").output, "joined-secret", "round \(round)")
        }
        XCTAssertGreaterThan(killedCount, 0)
    }

    func testAKilledBindToAnotherVaultsRemoteIsFinishedByRunningItAgain() throws {
        assertStatus(try a.run(["host", "add", "from-a", "--hostname", "a.example", "--password-stdin"], input: Array("secret of a".utf8)), 0)
        assertStatus(try a.run("sync"), 0)
        var killedCount = 0
        var span = 0.05
        for round in 0...rounds {
            let device = CredctlRunner(vault: directory + "/merge-\(round)", keyFile: directory + "/merge-\(round).key")
            assertStatus(try device.run("init"), 0)
            assertStatus(try device.run(["host", "add", "from-\(round)", "--hostname", "m\(round).example", "--password-stdin"], input: Array("secret of \(round)".utf8)), 0)
            let arguments = ["remote", "set", remote, "--recovery-key-file", recoveryKey]
            if round == 0 {
                span = try timed { assertStatus(try device.run(arguments), 0) }
            } else {
                let killed = try KilledProcess.run(device, arguments, kill: .after(microseconds: delay(round, of: span)))
                if killed.killed { killedCount += 1 }
                // Run again: a bind cut short finishes; one that finished binds as usual.
                let again = try device.run(arguments)
                XCTAssertEqual(again.status, 0, "round \(round): \(again.stderr)")
            }
            assertStatus(try device.run("sync"), 0)
            assertStatus(try a.run("sync"), 0)
            XCTAssertEqual(try a.run("read", "cred://host/from-\(round)/password").output, "secret of \(round)", "round \(round)")
            XCTAssertEqual(try device.run("read", "cred://host/from-a/password").output, "secret of a", "round \(round)")
            XCTAssertEqual(try device.run("read", "cred://host/from-\(round)/password").output, "secret of \(round)", "round \(round)")
        }
        XCTAssertGreaterThan(killedCount, 0)
    }
}
