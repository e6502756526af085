import Foundation
import Membership
import Replication
import S3
import Sodium
import TestSupport
import XCTest
import struct Identifiers.UUID

/// Three devices through credctl on a directory remote and on a real S3 server (SeaweedFS):
/// one joins by approval (the codes match on both sides), one with the recovery key; one is
/// revoked. Then the revoked device opens nothing written after the revocation — tried with its
/// own keys, not only through credctl — and what it writes as itself afterwards is refused by
/// every member with the reason; every remaining device reads everything old and new; once they
/// have synced and compacted, every secret body on the remote is sealed in the new epoch; and the
/// remote holds no key material but boxed or sealed, no label, host name, user name, device name
/// or secret, with every zone object's plaintext padded to a size bucket.
final class DeviceRevocationTests: CredctlTestCase {
    nonisolated(unsafe) private static var shared: SeaweedServer?

    private func device(_ name: String, environment: [String: String]) -> CredctlRunner {
        var runner = CredctlRunner(vault: directory + "/" + name, keyFile: directory + "/" + name + ".key")
        runner.environment.merge(environment) { $1 }
        return runner
    }

    private func first(_ pattern: String, in text: String) throws -> String {
        let expression = try NSRegularExpression(pattern: pattern)
        let match = try XCTUnwrap(expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)), text)
        return String(text[try XCTUnwrap(Range(match.range, in: text))])
    }

    func testRevocationOnADirectoryRemote() throws {
        let path = directory + "/remote"
        try scenario(address: path, options: [], environment: [:], remote: DirectoryRemote(root: path))
    }

    func testRevocationOnSeaweedFS() throws {
        if Self.shared == nil { Self.shared = try SeaweedServer() }
        let server = try XCTUnwrap(Self.shared)
        let prefix = "revocation-\(UUID().uuidString.lowercased())"
        try scenario(address: "s3://\(server.bucket)/\(prefix)", options: ["--endpoint", server.endpoint, "--path-style"],
                     environment: ["AWS_ACCESS_KEY_ID": SeaweedServer.accessKey, "AWS_SECRET_ACCESS_KEY": server.secretKey],
                     remote: S3Remote(location: try server.location(prefix: prefix), credentials: try server.credentials()))
    }

    private func scenario(address: String, options: [String], environment: [String: String], remote: any Remote) throws {
        let a = device("a", environment: environment), b = device("b", environment: environment), c = device("c", environment: environment)
        let outside = DeviceScenario(directory: directory, remote: remote)
        let secrets = ["before": "pw-before-revocation-Q7", "after": "pw-after-revocation-Z3"]
        assertStatus(try a.run("init"), 0)
        assertStatus(try a.run(["host", "add", "web-before", "--hostname", "before.example", "--user", "deployer", "--password-stdin"],
                               input: Array(secrets["before"]!.utf8)), 0)
        assertStatus(try a.run(["remote", "set", address] + options + ["--recovery-key-file", directory + "/recovery-key", "--name", "desk"]), 0)
        assertStatus(try a.run("sync"), 0)

        // B by approval: the code it prints is the one A lists and approves.
        let asked = try b.run(["init", "--join", address] + options + ["--name", "old-laptop"])
        assertStatus(asked, 75)
        let code = try first("[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}", in: asked.output)
        let listed = try JSONSerialization.jsonObject(with: Data(try a.run("device", "requests", "--json").stdout)) as? [String: Any]
        let requests = try XCTUnwrap(listed?["requests"] as? [[String: Any]])
        XCTAssertEqual(requests.map { $0["code"] as? String }, [code])
        XCTAssertEqual(requests.map { $0["name"] as? String }, ["old-laptop"])
        let approved = try a.run("device", "approve", code, "--yes")
        assertStatus(approved, 0)
        let confirmation = try first("[0-9A-Z]{4}-[0-9A-Z]{4}\\s*$", in: approved.output).trimmingCharacters(in: .whitespacesAndNewlines)
        assertStatus(try b.run(["init", "--join", address] + options + ["--confirm", confirmation]), 0)
        // C with the recovery key, alone.
        assertStatus(try c.run(["init", "--join", address] + options + ["--recovery-key-file", directory + "/recovery-key", "--name", "phone"]), 0)
        XCTAssertEqual(try b.run("read", "cred://host/web-before/password").output, secrets["before"])
        assertStatus(try a.run("sync"), 0)
        let bKeys = try outside.stolenKeys(directory + "/b")
        let rosterBefore = try outside.roster()
        XCTAssertEqual(rosterBefore.members.count, 3)

        // A revokes B: the report names the secret B could read, never its value.
        let revoked = try a.run("device", "revoke", "old-laptop", "--yes", "--json")
        assertStatus(revoked, 0)
        XCTAssertFalse(revoked.output.contains(secrets["before"]!))
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(revoked.stdout)) as? [String: Any])
        XCTAssertEqual(report["revoked"] as? String, bKeys.keys.id)
        XCTAssertEqual(report["epoch"] as? Int, 2)
        XCTAssertEqual((report["secrets"] as? [[String: Any]])?.compactMap { $0["description"] as? String }, ["password of host 'web-before'"])
        let objectsAtRevocation = Set(try outside.zoneObjects().map(\.name))

        assertStatus(try a.run(["host", "add", "web-after", "--hostname", "after.example", "--user", "deployer", "--password-stdin"],
                               input: Array(secrets["after"]!.utf8)), 0)
        assertStatus(try a.run("sync"), 0)
        assertStatus(try c.run("sync"), 0)
        for (label, secret) in [("web-before", secrets["before"]!), ("web-after", secrets["after"]!)] {
            XCTAssertEqual(try c.run("read", "cred://host/\(label)/password").output, secret, "C reads old and new")
        }

        // B is told, keeps its data, and its own keys open nothing written since.
        let told = try b.run("sync")
        assertStatus(told, 77)
        XCTAssertTrue(told.stderr.contains("revoked"), told.stderr)
        XCTAssertTrue(try b.run("host", "list").output.contains("web-before"))
        XCTAssertFalse(try b.run("host", "list").output.contains("web-after"))
        let asB = outside.seal(bKeys, roster: rosterBefore)
        let written = try outside.zoneObjects().filter { !objectsAtRevocation.contains($0.name) && $0.writer != bKeys.keys.id }
        XCTAssertFalse(written.isEmpty)
        for object in written {
            XCTAssertThrowsError(try outside.envelopes(of: object.name, zone: object.zone, writer: object.writer, with: asB), "B opened \(object.name)")
        }

        // What B writes as itself now is refused everywhere, with the reason.
        let cutoff = try remote.list(prefix: "zones/config/\(bKeys.keys.id)/").filter { $0.hasSuffix(".batch") }.count
        let forged = try BatchCodec.seal(Batch(zone: "config", device: bKeys.keys.id, sequence: UInt64(cutoff + 1), envelopes: []), with: asB)
        _ = try remote.createOnly(Batch.objectName(zone: "config", device: bKeys.keys.id, sequence: UInt64(cutoff + 1)), bytes: forged)
        for member in [a, c] {
            assertStatus(try member.run("sync"), 0)
            let quarantine = try member.run("quarantine", "list")
            XCTAssertTrue(quarantine.output.contains("written by revoked device \(bKeys.keys.id) after its revocation"), quarantine.output)
        }

        // Once the remaining devices have synced and compacted, every secret body on the remote is in epoch 2.
        for _ in 0..<2 { for member in [a, c] { assertStatus(try member.run("sync", "--compact"), 0) } }
        let asC = outside.seal(try outside.stolenKeys(directory + "/c"), roster: try outside.roster())
        var bodies = 0
        for object in try outside.zoneObjects() where object.zone == "secrets" && object.writer != bKeys.keys.id {
            for envelope in try outside.envelopes(of: object.name, zone: object.zone, writer: object.writer, with: asC) where !envelope.deleted {
                XCTAssertEqual(DeviceScenario.bodyEpoch(envelope), 2, "\(envelope.recordName) in \(object.name)")
                bodies += 1
            }
        }
        XCTAssertGreaterThanOrEqual(bodies, 2)
        try scanRemote(outside, words: Array(secrets.values) + ["web-before", "web-after", "before.example", "after.example", "deployer", "desk", "old-laptop", "phone"])
    }

    /// No word in the clear anywhere, and every zone object's sealed body of a bucket's size.
    private func scanRemote(_ outside: DeviceScenario, words: [String]) throws {
        for (name, bytes) in try outside.everything() {
            for word in words { XCTAssertNil(bytes.firstRange(of: Array(word.utf8)), "\(name) holds '\(word)' in the clear") }
            guard name.hasPrefix("zones/") else { continue }
            let frame = try SignedFrame.parse(bytes).frame
            let padded = frame.body.count - SealedBox.overhead
            XCTAssertEqual(Padding.bucket(for: padded - 1), padded, "\(name): a plaintext of \(padded) bytes is not a bucket's size")
        }
    }
}
