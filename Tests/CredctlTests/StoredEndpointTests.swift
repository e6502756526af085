import Foundation
import XCTest

/// A binding an earlier build wrote with an endpoint this build reads no more strictly (an IPv6
/// zone; a name not in ASCII) is not silently used or dropped: commands that need the remote say
/// what is wrong and how to bind it again, and the vault's own records stay readable.
final class StoredEndpointTests: TwoDeviceTestCase {
    func testABindingWithAnEndpointThisBuildRefusesSaysHowToBindAgain() throws {
        assertStatus(try a.run(["host", "add", "web", "--hostname", "web.example", "--password-stdin"], input: Array("kept".utf8)), 0)
        let path = a.vault + "/remote.json"
        for endpoint in ["http://[fe80::1%eth0]:9000", "https://b\u{fc}cher.example"] {
            var binding = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
            binding["kind"] = "s3"
            binding["location"] = "s3://vault/x"
            binding["endpoint"] = endpoint
            try JSONSerialization.data(withJSONObject: binding).write(to: URL(fileURLWithPath: path))
            let sync = try a.run("sync")
            XCTAssertEqual(sync.status, 65, sync.stderr)
            XCTAssertTrue(sync.stderr.contains("remote.json names an S3 remote this build does not accept"), sync.stderr)
            XCTAssertTrue(sync.stderr.contains("credctl remote set s3://vault/x --endpoint http[s]://HOST[:PORT]"), sync.stderr)
            XCTAssertEqual(try a.run("read", "cred://host/web/password").output, "kept")
        }
    }
}
