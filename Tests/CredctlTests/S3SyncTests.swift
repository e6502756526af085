import Foundation
import S3
import Sodium
import TestSupport
import XCTest
import struct Identifiers.UUID

/// Devices syncing through a real S3 server (SeaweedFS on 127.0.0.1) with `credctl`, as users
/// run it: credentials only in the environment, the remote holding only sealed objects.
final class S3SyncTests: CredctlTestCase {
    nonisolated(unsafe) private static var shared: SeaweedServer?
    private var server: SeaweedServer!
    private var address = ""
    /// The first device writes the recovery key here when it creates the remote; the others join with it.
    private var recoveryKeyFile: String { directory + "/recovery-key" }

    override func setUpWithError() throws {
        try super.setUpWithError()
        if Self.shared == nil { Self.shared = try SeaweedServer() }
        server = Self.shared
        address = "s3://\(server.bucket)/vault-\(UUID().uuidString.lowercased())"
    }

    /// A device whose environment holds S3 credentials (SeaweedFS's, unless others are given).
    private func device(_ name: String, accessKey: String = SeaweedServer.accessKey, secret: String? = nil) -> CredctlRunner {
        var runner = CredctlRunner(vault: directory + "/" + name, keyFile: directory + "/" + name + ".key")
        runner.environment["AWS_ACCESS_KEY_ID"] = accessKey
        runner.environment["AWS_SECRET_ACCESS_KEY"] = secret ?? server.secretKey
        return runner
    }

    private var s3Options: [String] { ["--endpoint", server.endpoint, "--path-style", "--recovery-key-file", recoveryKeyFile] }

    func testThreeDevicesSyncThroughS3AndTheStoreHoldsOnlySealedObjects() throws {
        let a = device("a"), b = device("b"), c = device("c")
        assertStatus(try a.run("init"), 0)
        assertStatus(try a.run(["host", "add", "web", "--hostname", "web.example", "--password-stdin"], input: Array("s3-synced-password".utf8)), 0)
        let bound = try a.run(["remote", "set", address] + s3Options)
        assertStatus(bound, 0)
        XCTAssertTrue(bound.output.contains("Created the remote in \(address) at \(server.endpoint)"), bound.output)
        assertStatus(try a.run("sync"), 0)
        for joiner in [b, c] { assertStatus(try joiner.run(["init", "--join", address] + s3Options), 0) }
        XCTAssertEqual(try b.run("read", "cred://host/web/password").output, "s3-synced-password")

        assertStatus(try b.run("host", "add", "db", "--hostname", "db.example"), 0)
        assertStatus(try b.run("sync"), 0)
        assertStatus(try c.run("sync"), 0)
        assertStatus(try a.run("sync"), 0)
        for device in [a, c] { XCTAssertTrue(try device.run("host", "list").output.contains("db.example")) }
        let status = try JSONSerialization.jsonObject(with: Data(try c.run("status", "--json").stdout)) as? [String: Any]
        XCTAssertEqual(status?["remote_kind"] as? String, "s3")
        XCTAssertEqual(status?["remote_endpoint"] as? String, server.endpoint)
        XCTAssertEqual(status?["remote_conditional_writes"] as? Bool, true)
        XCTAssertFalse(try c.run("status").output.contains(server.secretKey), "never a credential")
        XCTAssertFalse(FileManager.default.contents(atPath: directory + "/c/remote.json").map { String(decoding: $0, as: UTF8.self) }?.contains(server.secretKey) ?? true)

        // A device joining last measures what the bucket holds, its own first objects included.
        let d = device("d")
        assertStatus(try d.run(["init", "--join", address] + s3Options), 0)
        let remote = S3Remote(location: try S3Location(url: address, endpoint: server.endpoint, region: nil, pathStyle: true), credentials: try server.credentials())
        let measured = try JSONSerialization.jsonObject(with: Data(try d.run("status", "--json").stdout)) as? [String: Any]
        let listed = try remote.list(prefix: "")
        var total = 0
        for name in listed { total += try remote.get(name)?.count ?? 0 }
        XCTAssertEqual(measured?["remote_objects"] as? Int, listed.count)
        XCTAssertEqual(measured?["remote_bytes"] as? Int, total)
        XCTAssertTrue(try d.run("status").output.contains("\(listed.count) objects"))

        // Every object in the bucket is sealed: no secret, label or host name in the clear.
        let names = try remote.list(prefix: "")
        XCTAssertTrue(names.contains("vault.json") && names.count > 3, "\(names)")
        for name in names {
            let bytes = String(decoding: try XCTUnwrap(try remote.get(name)), as: UTF8.self)
            for clear in ["s3-synced-password", "web.example", "db.example"] { XCTAssertFalse(bytes.contains(clear), "\(clear) in \(name)") }
        }
    }

    func testCompactionCollectsHistoryAndAFourthDeviceJoiningLaterConverges() throws {
        let a = device("a")
        assertStatus(try a.run("init"), 0)
        assertStatus(try a.run(["remote", "set", address] + s3Options), 0)
        let remote = S3Remote(location: try S3Location(url: address, endpoint: server.endpoint, region: nil, pathStyle: true), credentials: try server.credentials())
        let scenario = CompactionScenario(device: { self.device($0) }, joinArguments: [address] + s3Options, names: { try remote.list(prefix: "") })
        try scenario.run(first: a, in: self)
    }

    func testBadCredentialsAndAMissingBucketAreSaidAndBindNothing() throws {
        let wrong = device("w", secret: "not-the-secret")
        assertStatus(try wrong.run("init"), 0)
        let refused = try wrong.run(["remote", "set", address] + s3Options)
        assertStatus(refused, 77)
        XCTAssertTrue(refused.stderr.contains("refused the credentials"), refused.stderr)
        XCTAssertFalse(refused.stderr.contains("not-the-secret"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/w/remote.json"))
        let joining = device("wj", secret: "not-the-secret")
        let refusedJoin = try joining.run(["init", "--join", address] + s3Options)
        assertStatus(refusedJoin, 77)
        XCTAssertTrue(refusedJoin.stderr.contains("refused the credentials"), refusedJoin.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/wj"), "no vault made")

        let right = device("r")
        assertStatus(try right.run("init"), 0)
        let missing = try right.run(["remote", "set", "s3://no-such-bucket/x"] + s3Options)
        assertStatus(missing, 65)
        XCTAssertTrue(missing.stderr.contains("does not exist"), missing.stderr)
        var noCredentials = device("n")
        noCredentials.environment["AWS_ACCESS_KEY_ID"] = nil
        noCredentials.environment["AWS_SECRET_ACCESS_KEY"] = nil
        assertStatus(try noCredentials.run("init"), 0)
        let none = try noCredentials.run(["remote", "set", address] + s3Options)
        assertStatus(none, 77)
        XCTAssertTrue(none.stderr.contains("AWS_ACCESS_KEY_ID"), none.stderr)
        assertStatus(try right.run(["remote", "set", "/tmp/dir", "--endpoint", server.endpoint]), 64)
    }

    /// Credentials that stop working exit 77 and an endpoint nothing answers 69, each with the
    /// store's reason, whether binding, joining or syncing; nothing queued is lost.
    func testRefusedCredentialsExit77AndAnUnreachableStore69WithTheReason() throws {
        let a = device("a")
        assertStatus(try a.run("init"), 0)
        assertStatus(try a.run(["remote", "set", address] + s3Options), 0)
        assertStatus(try a.run("host", "add", "web", "--hostname", "web.example"), 0)
        let pending = try pendingChanges(a)
        XCTAssertGreaterThan(pending, 0)
        var rotated = a
        rotated.environment["AWS_SECRET_ACCESS_KEY"] = "rotated-elsewhere"
        let refused = try rotated.run("sync")
        assertStatus(refused, 77)
        XCTAssertTrue(refused.stderr.hasPrefix("credctl: error: The remote refused this device's access; local changes stay queued (The S3 store refused the credentials ("),
                      refused.stderr)
        XCTAssertTrue(refused.stderr.contains("credctl: hint: Check the credentials"), refused.stderr)
        XCTAssertFalse(refused.stderr.contains("rotated-elsewhere") || refused.output.contains("rotated-elsewhere"))
        let waiting = try JSONSerialization.jsonObject(with: Data(try a.run("status", "--json").stdout)) as? [String: Any]
        XCTAssertEqual((waiting?["zones"] as? [[String: Any]])?.first?["state"] as? String, "localFallback")
        // (The run also queued this device's announcement before it reached the store.)
        XCTAssertGreaterThanOrEqual(try pendingChanges(a), pending, "nothing sent, nothing lost")
        let migrate = try rotated.run("migrate")
        assertStatus(migrate, 77)
        XCTAssertTrue(migrate.stderr.contains("The remote refused this device's access; what was not verified stays pending and is retried (The S3 store refused"),
                      migrate.stderr)
        assertStatus(try a.run("sync"), 0)
        XCTAssertEqual(try pendingChanges(a), 0)

        let nowhere = "http://127.0.0.1:\(try Loopback.freePort())"
        let options = ["--endpoint", nowhere, "--path-style", "--recovery-key-file", recoveryKeyFile]
        let b = device("b")
        assertStatus(try b.run("init"), 0)
        for (runner, arguments) in [(b, ["remote", "set", address] + options), (device("c"), ["init", "--join", address] + options)] {
            let unreachable = try runner.run(arguments)
            assertStatus(unreachable, 69)
            XCTAssertTrue(unreachable.stderr.contains("credctl: error: The S3 store at \(nowhere) keeps failing (Cannot reach the S3 store at \(nowhere)"),
                          unreachable.stderr)
        }
    }

    /// `http://0.0.0.0:PORT` reaches the server on 127.0.0.1 (Linux routes 0.0.0.0 to this
    /// machine), yet it is not a loopback address: it stands for an endpoint on another machine.
    func testPlainHTTPToAnotherMachineNeedsAllowInsecureHTTP() throws {
        let plain = server.endpoint.replacingOccurrences(of: "127.0.0.1", with: "0.0.0.0")
        let options = ["--endpoint", plain, "--path-style", "--recovery-key-file", recoveryKeyFile]
        let a = device("a")
        assertStatus(try a.run("init"), 0)
        let message = "credctl: error: The endpoint \(plain) is plain HTTP to another machine: anyone on the way could read and withhold what the vault sends and receives. "
            + "Use https://, or give --allow-insecure-http if the network between is trusted.\n"
        let refused = try a.run(["remote", "set", address] + options)
        assertStatus(refused, 64)
        XCTAssertTrue(refused.stderr.hasPrefix(message), refused.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/a/remote.json"))
        let refusedJoin = try device("b").run(["init", "--join", address] + options)
        assertStatus(refusedJoin, 64)
        XCTAssertTrue(refusedJoin.stderr.hasPrefix(message), refusedJoin.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/b"), "no vault made")

        // Allowed explicitly, both work, and so does every later sync (the check is made when binding).
        assertStatus(try a.run(["remote", "set", address, "--allow-insecure-http"] + options), 0)
        assertStatus(try a.run("host", "add", "web", "--hostname", "web.example"), 0)
        assertStatus(try a.run("sync"), 0)
        let b = device("b")
        assertStatus(try b.run(["init", "--join", address, "--allow-insecure-http"] + options), 0)
        XCTAssertTrue(try b.run("host", "list").output.contains("web.example"))
        assertStatus(try b.run("remote", "set", directory + "/folder", "--allow-insecure-http"), 64)
    }

    private func pendingChanges(_ device: CredctlRunner) throws -> Int {
        let status = try JSONSerialization.jsonObject(with: Data(try device.run("status", "--json").stdout)) as? [String: Any]
        return try XCTUnwrap((status?["zones"] as? [[String: Any]])?.first?["pending_changes"] as? Int)
    }

    func testAServerThatDiesLosesNothingAndSyncResumes() throws {
        // A server of its own: this test kills it.
        let own = try SeaweedServer()
        let a = device("ka", secret: own.secretKey)
        let options = ["--endpoint", own.endpoint, "--path-style", "--recovery-key-file", recoveryKeyFile]
        assertStatus(try a.run("init"), 0)
        assertStatus(try a.run(["remote", "set", address] + options), 0)
        for index in 0..<20 { assertStatus(try a.run("host", "add", "h\(index)", "--hostname", "h\(index).example"), 0) }
        assertStatus(try a.run("sync"), 0)
        for index in 20..<40 { assertStatus(try a.run("host", "add", "h\(index)", "--hostname", "h\(index).example"), 0) }

        // Killed (SIGKILL) with changes waiting: the sync retries, then says the remote is
        // unreachable, and the changes stay pending.
        own.kill()
        let failed = try a.run("sync")
        assertStatus(failed, 69)
        XCTAssertTrue(failed.stderr.contains("The remote could not be used; local changes stay queued (remote unreachable: The S3 store at \(own.endpoint) keeps failing"),
                      failed.stderr)
        let waiting = try JSONSerialization.jsonObject(with: Data(try a.run("status", "--json").stdout)) as? [String: Any]
        XCTAssertEqual((waiting?["zones"] as? [[String: Any]])?.first?["pending_changes"] as? Int, 20)

        // Restarted on the same data: everything arrives, nothing twice.
        try own.start()
        assertStatus(try a.run("sync"), 0)
        let b = device("kb", secret: own.secretKey)
        assertStatus(try b.run(["init", "--join", address] + options), 0)
        let hosts = try b.run("host", "list").output
        XCTAssertEqual((0..<40).filter { hosts.contains("h\($0).example") }.count, 40, "nothing lost")
        let status = try JSONSerialization.jsonObject(with: Data(try a.run("status", "--json").stdout)) as? [String: Any]
        XCTAssertEqual((status?["zones"] as? [[String: Any]])?.map { $0["pending_changes"] as? Int }, [0, 0])
    }

    func testAStoreThatIgnoresConditionalWritesIsFoundAndStillSyncsSafely() throws {
        let rclone = try RcloneS3Server()
        let location = try S3Location(url: "s3://\(rclone.bucket)/probe", endpoint: rclone.endpoint, region: nil, pathStyle: true)
        let credentials = S3Credentials(accessKeyID: RcloneS3Server.accessKey, secretAccessKey: try SecretBytes(utf8: rclone.secretKey))
        XCTAssertFalse(try S3Remote.probeConditionalWrites(location: location, credentials: credentials), "rclone serve s3 ignores If-None-Match")
        // Create-only still holds for one writer per name: read, then write.
        let remote = S3Remote(location: location, credentials: credentials, conditionalWrites: false)
        XCTAssertEqual(try remote.createOnly("zones/config/d/1.batch", bytes: [1]), .created)
        XCTAssertEqual(try remote.createOnly("zones/config/d/1.batch", bytes: [1]), .alreadyPresent)
        XCTAssertThrowsError(try remote.createOnly("zones/config/d/1.batch", bytes: [2]))
        XCTAssertEqual(try remote.get("zones/config/d/1.batch"), [1])

        let address = "s3://\(rclone.bucket)/team"
        let options = ["--endpoint", rclone.endpoint, "--path-style", "--recovery-key-file", recoveryKeyFile]
        let a = device("ra", accessKey: RcloneS3Server.accessKey, secret: rclone.secretKey)
        let b = device("rb", accessKey: RcloneS3Server.accessKey, secret: rclone.secretKey)
        assertStatus(try a.run("init"), 0)
        assertStatus(try a.run(["host", "add", "web", "--hostname", "web.example", "--password-stdin"], input: Array("degraded".utf8)), 0)
        assertStatus(try a.run(["remote", "set", address] + options), 0)
        XCTAssertTrue(try a.run("status").output.contains("ignores create-only writes"))
        assertStatus(try a.run("sync"), 0)
        assertStatus(try b.run(["init", "--join", address] + options), 0)
        XCTAssertEqual(try b.run("read", "cred://host/web/password").output, "degraded")
        let status = try JSONSerialization.jsonObject(with: Data(try b.run("status", "--json").stdout)) as? [String: Any]
        XCTAssertEqual(status?["remote_conditional_writes"] as? Bool, false)
    }
}
