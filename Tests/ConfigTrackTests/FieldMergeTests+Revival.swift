import Foundation
import Replication
import XCTest
@testable import ConfigTrack

/// A kept value of a record removed elsewhere brings the record back, whatever its kind, as the
/// next incarnation of its record — unless what it names is gone.
extension FieldMergeTests {
    private static let publicKey = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl user@laptop"

    /// A edits an identity, a group and a forward and uploads the edits; B, not having seen
    /// them, removes all three. Each comes back from A's kept value, everywhere; a forward whose
    /// host is gone too stays kept, and restoring it says so and changes nothing.
    func testKeptValuesOfRemovedRecordsOfEveryKindBringThemBack() throws {
        let identity = try a.save(Identity(label: "laptop", keyType: .ed25519, publicKey: Self.publicKey))
        let group = try a.save(HostGroup(label: "prod"))
        let host = try a.save(Host(label: "db", hostname: "db.example"))
        let rule = try a.save(PortForwardRule(hostID: host.id, kind: .local, bindPort: 5432, destinationHost: "db.internal", destinationPort: 5432))
        for store in [a!, b!] { try sync(store) }
        var edited = try XCTUnwrap(try a.identity(id: identity.id))
        edited.username = "deploy"
        try a.save(edited)
        var renamed = try XCTUnwrap(try a.group(id: group.id))
        renamed.label = "production"
        try a.save(renamed)
        var moved = try XCTUnwrap(try a.forward(id: rule.id))
        moved.bindPort = 6543
        try a.save(moved)
        try sync(a)
        usleep(2_000)
        try b.removeIdentity(id: identity.id)
        try b.removeGroup(id: group.id)
        try b.removeHost(id: host.id)  // and its forward
        for store in [b!, a!] { try sync(store) }
        XCTAssertNil(try a.identity(id: identity.id))
        let kept = try a.conflicts()
        XCTAssertEqual(Set(kept.map(\.kind)), ["identity", "group", "forward"])
        XCTAssertEqual(try b.conflicts(), [])

        let forward = try XCTUnwrap(kept.first { $0.kind == "forward" })
        XCTAssertThrowsError(try a.restoreConflict(forward.id)) { XCTAssertEqual(($0 as? ConfigError)?.code, .notFound, "\($0)") }
        XCTAssertNil(try a.forward(id: rule.id), "nothing restored")
        for conflict in kept where conflict.kind != "forward" {
            try a.restoreConflict(conflict.id)
            try a.dropConflict(conflict.id)
        }
        for store in [a!, b!] { try sync(store) }
        for store in [a!, b!] {
            XCTAssertEqual(try store.identity(id: identity.id)?.username, "deploy")
            XCTAssertEqual(try store.group(id: group.id)?.label, "production")
        }
        XCTAssertEqual(try a.conflicts().map(\.kind), ["forward"], "still kept")
    }
}
