@testable import ConfigTrack
import Foundation
import XCTest
import struct Identifiers.UUID

final class ConfigStoreHostTests: ConfigTestCase {
    func testSaveStampsAVersionAndNormalizesTheHostname() throws {
        let saved = try store.save(Host(label: "v6", hostname: "[::1]"))
        XCTAssertEqual(saved.hostname, "::1")
        XCTAssertEqual(saved.version?.device, Self.deviceID)
        XCTAssertEqual(try store.host("v6").hostname, "::1")
    }

    func testLookupByLabelAndByIDInAnyCase() throws {
        let host = try saveHost("web-1")
        XCTAssertEqual(try store.host("web-1"), host)
        XCTAssertEqual(try store.host(host.id.uuidString.lowercased()), host)
        XCTAssertEqual(try store.host(host.id.uuidString.uppercased()), host)
        XCTAssertEqual(try store.host(id: host.id), host)
        XCTAssertNil(try store.host(id: UUID()))
    }

    func testLookupOfAMissingHost() throws {
        let error = assertConfigError(.notFound, try store.host("nope"))
        XCTAssertEqual(error?.message, "No host 'nope'.")
        XCTAssertEqual(error?.hint, "List them with the host list command.")
        assertConfigError(.notFound, try store.host(UUID().uuidString))
        XCTAssertEqual(assertConfigError(.notFound, try store.host("a\nb"))?.message, "No host 'a?b'.")
    }

    func testDuplicateLabelIsRejected() throws {
        try saveHost("web-1")
        let error = assertConfigError(.alreadyExists, try saveHost("web-1", hostname: "other.example.org"))
        XCTAssertEqual(error?.message, "A host labelled 'web-1' already exists.")
        XCTAssertEqual(error?.hint, "Choose another label or edit the existing host.")
        XCTAssertEqual(try store.counts().hosts, 1)
    }

    func testAGroupAndAHostMayShareALabel() throws {
        let group = try saveGroup("web")
        let host = try saveHost("web", groupID: group.id)
        XCTAssertEqual(try store.host("web"), host)
        XCTAssertEqual(try store.group("web"), group)
    }

    func testRenameIntoATakenLabelIsRejected() throws {
        try saveHost("web-1")
        var second = try saveHost("web-2")
        second.label = "web-1"
        assertConfigError(.alreadyExists, try store.save(second))
        XCTAssertEqual(try store.host(id: second.id)?.label, "web-2")
    }

    func testEditingKeepsTheLabelAndBumpsTheVersion() throws {
        var host = try saveHost("web-1")
        let first = try XCTUnwrap(host.version)
        host.port = 2222
        host.username = "admin"
        let edited = try store.save(host)
        XCTAssertEqual(edited.label, "web-1")
        XCTAssertGreaterThan(try XCTUnwrap(edited.version), first)
        XCTAssertEqual(try store.host("web-1").port, 2222)
        XCTAssertEqual(try store.counts().hosts, 1)
    }

    func testInvalidFieldsAreRejected() throws {
        assertConfigError(.invalid, try store.save(Host(label: "", hostname: "example.org")))
        assertConfigError(.invalid, try store.save(Host(label: "a", hostname: "-oProxyCommand=x")))
        assertConfigError(.invalid, try store.save(Host(label: "a", hostname: "example.org", port: 0)))
        assertConfigError(.invalid, try store.save(Host(label: "a", hostname: "example.org", username: "-l")))
        XCTAssertEqual(try store.counts().hosts, 0)
    }

    func testReferencesToMissingRecords() throws {
        let identity = assertConfigError(.notFound, try saveHost("a", identityID: UUID()))
        XCTAssertEqual(identity?.message, "Host 'a' names an identity that does not exist.")
        let group = assertConfigError(.notFound, try saveHost("a", groupID: UUID()))
        XCTAssertEqual(group?.message, "Host 'a' names a group that does not exist.")
        let jump = assertConfigError(.notFound, try saveHost("a", jumpHostID: UUID()))
        XCTAssertEqual(jump?.message, "Host 'a' names a jump host that does not exist.")
        XCTAssertEqual(try store.counts().hosts, 0)
    }

    func testJumpHostChain() throws {
        let bastion = try saveHost("bastion")
        let web = try saveHost("web", jumpHostID: bastion.id)
        XCTAssertEqual(try store.host("web").jumpHostID, bastion.id)
        let inner = try saveHost("inner", jumpHostID: web.id)
        XCTAssertEqual(inner.jumpHostID, web.id)
    }

    func testJumpingThroughItselfIsRejected() throws {
        var host = try saveHost("a")
        host.jumpHostID = host.id
        let error = assertConfigError(.invalid, try store.save(host))
        XCTAssertEqual(error?.message, "Host 'a' would jump through itself (the jump hosts form a loop).")
        let brandNew = Host(label: "b", hostname: "b.example.org")
        var selfJump = brandNew
        selfJump.jumpHostID = brandNew.id
        assertConfigError(.invalid, try store.save(selfJump))
    }

    func testJumpLoopIsRejected() throws {
        var a = try saveHost("a")
        let b = try saveHost("b", jumpHostID: a.id)
        a.jumpHostID = b.id
        assertConfigError(.invalid, try store.save(a))
        XCTAssertNil(try store.host("a").jumpHostID)
        // A longer loop: a → c → b → a.
        let c = try saveHost("c", jumpHostID: b.id)
        a.jumpHostID = c.id
        assertConfigError(.invalid, try store.save(a))
        XCTAssertNil(try store.host("a").jumpHostID)
    }

    func testPasswordReferenceMustBeTheHostsOwn() throws {
        let other = try saveHost("other")
        let id = UUID()
        let own = try store.save(Host(id: id, label: "a", hostname: "a.example.org", authMethod: .password, passwordRef: .hostPassword(id)))
        XCTAssertEqual(own.passwordRef?.key, "host.\(id.uuidString.lowercased()).password")
        XCTAssertEqual(try store.host("a").passwordRef, .hostPassword(id))

        let stolen = Host(label: "b", hostname: "b.example.org", authMethod: .password, passwordRef: .hostPassword(other.id))
        let error = assertConfigError(.invalid, try store.save(stolen))
        XCTAssertEqual(error?.message, "Host 'b' may only reference its own password (host.\(stolen.id.uuidString.lowercased()).password).")
        let wrongField = Host(label: "c", hostname: "c.example.org", passwordRef: .identityPassphrase(UUID()))
        assertConfigError(.invalid, try store.save(wrongField))
    }

    func testValidateChecksWithoutStoring() throws {
        try store.validate(Host(label: "a", hostname: "a.example.org"))
        XCTAssertEqual(try store.counts(), ConfigCounts(hosts: 0, groups: 0, identities: 0, forwards: 0, pendingChanges: 0, quarantined: 0, conflicts: 0))
        try saveHost("a")
        assertConfigError(.alreadyExists, try store.validate(Host(label: "a", hostname: "a.example.org")))
    }

    func testRemoveHostRemovesItsForwards() throws {
        let host = try saveHost("web")
        let other = try saveHost("db")
        try store.save(PortForwardRule(hostID: host.id, kind: .dynamic, bindPort: 1080))
        try store.save(PortForwardRule(hostID: host.id, kind: .local, bindPort: 8080, destinationHost: "localhost", destinationPort: 80))
        let kept = try store.save(PortForwardRule(hostID: other.id, kind: .dynamic, bindPort: 1081))

        try store.removeHost(id: host.id)
        XCTAssertNil(try store.host(id: host.id))
        XCTAssertEqual(try store.forwards(), [kept])
        assertConfigError(.notFound, try store.removeHost(id: host.id))
    }

    func testRemoveHostRefusesWhileAnotherJumpsThroughIt() throws {
        let bastion = try saveHost("bastion")
        var web = try saveHost("web", jumpHostID: bastion.id)
        try saveHost("api", jumpHostID: bastion.id)
        let error = assertConfigError(.inUse, try store.removeHost(id: bastion.id))
        XCTAssertEqual(error?.message, "Host 'bastion' is the jump host of 'api', 'web'.")
        XCTAssertEqual(error?.hint, "Change or remove their jump host first.")
        XCTAssertNotNil(try store.host(id: bastion.id))

        web.jumpHostID = nil
        try store.save(web)
        try store.removeHost(id: try store.host("api").id)
        try store.removeHost(id: bastion.id)
        XCTAssertEqual(try store.hosts().map(\.label), ["web"])
    }

    func testHostsInGroup() throws {
        let group = try saveGroup("prod")
        let inside = try saveHost("web", groupID: group.id)
        try saveHost("laptop")
        XCTAssertEqual(try store.hosts(inGroup: group.id), [inside])
        XCTAssertEqual(try store.hosts().count, 2)
    }
}
