import Foundation
import XCTest

/// `forward rm` and lookups by id take a unique start of the id, as git takes commit ids.
final class ForwardPrefixTests: CredctlTestCase {
    func testAForwardIsRemovedByTheStartOfItsId() throws {
        try initVault()
        assertStatus(try credctl.run("host", "add", "web", "--hostname", "w.example"), 0)
        assertStatus(try credctl.run("forward", "add", "web", "--local", "8080:localhost:80"), 0)
        let list = try JSONSerialization.jsonObject(with: Data(try credctl.run("forward", "list", "--json").stdout)) as? [String: Any]
        let id = try XCTUnwrap((list?["forwards"] as? [[String: Any]])?.first?["id"] as? String)
        assertStatus(try credctl.run("forward", "rm", "zz"), 66)
        let removed = try credctl.run("forward", "rm", String(id.prefix(8)).uppercased())
        assertStatus(removed, 0)
        XCTAssertTrue(removed.output.contains(id), removed.output)
        XCTAssertFalse(try credctl.run("forward", "list").output.contains("8080"))
        let hostID = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(try credctl.run("host", "show", "web", "--json").stdout)) as? [String: Any])?["id"] as? String)
        XCTAssertTrue(try credctl.run("host", "show", String(hostID.prefix(6))).output.contains("w.example"))
    }
}
