import Foundation
import S3
import TestSupport
import XCTest

/// A vault whose S3 endpoint turns hostile (a listing that never ends, bodies larger than any
/// object): `credctl sync` ends with a reason instead of looping or buffering without bound,
/// `status` gives that reason, and local work goes on.
final class HostileS3SyncTests: CredctlTestCase {
    func testAStoreThatNeverEndsAListingIsReportedNotFollowed() throws {
        let seaweed = try SeaweedServer()
        let address = "s3://\(seaweed.bucket)/vault-hostile"
        credctl.environment["AWS_ACCESS_KEY_ID"] = SeaweedServer.accessKey
        credctl.environment["AWS_SECRET_ACCESS_KEY"] = seaweed.secretKey
        try initVault()
        assertStatus(try credctl.run(["remote", "set", address, "--endpoint", seaweed.endpoint, "--path-style", "--recovery-key-file", directory + "/recovery-key"]), 0)
        assertStatus(try credctl.run("sync"), 0)

        // The same vault.json, then endless listings and oversized bodies.
        let bucket = S3Remote(location: try S3Location(url: address, endpoint: seaweed.endpoint, region: nil, pathStyle: true),
                              credentials: try seaweed.credentials())
        let hostile = try HostileS3Server(listing: .endless, bodyBytes: 65 << 20, vaultJSON: try XCTUnwrap(try bucket.get("vault.json")),
                                          directory: directory)
        let binding = vaultPath + "/remote.json"
        var fields = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: binding))) as? [String: Any])
        XCTAssertEqual(fields["endpoint"] as? String, seaweed.endpoint)
        fields["endpoint"] = hostile.endpoint
        try JSONSerialization.data(withJSONObject: fields).write(to: URL(fileURLWithPath: binding))
        chmod(binding, 0o600)

        assertStatus(try credctl.run("host", "add", "local", "--hostname", "local.example"), 0)
        let sync = try credctl.run("sync")
        assertStatus(sync, 69)
        XCTAssertTrue(sync.stderr.contains("did not end after 1000 pages; refused"), sync.stderr)
        let status = try credctl.run("status").output
        XCTAssertTrue(status.contains("localFallback") && status.contains("did not end after 1000 pages"), status)
        XCTAssertTrue(status.contains("1 pending"), "the local edit waits, unsent: \(status)")
    }
}
