@testable import ConfigTrack
import Foundation
import XCTest

final class ConfigStoreTests: ConfigTestCase {
    func testNewStoreIsEmpty() throws {
        XCTAssertEqual(store.deviceID, Self.deviceID)
        XCTAssertEqual(try store.counts(), ConfigCounts(hosts: 0, groups: 0, identities: 0, forwards: 0, pendingChanges: 0, quarantined: 0, conflicts: 0))
        XCTAssertEqual(try store.hosts(), [])
        XCTAssertEqual(try store.pendingJournal(), [])
    }

    func testReopenKeepsDeviceIDAndRecords() throws {
        let group = try saveGroup("prod")
        let identity = try saveIdentity("laptop key")
        let host = try store.save(Host(label: "web-1", hostname: "web1.example.org", port: 2222, username: "deploy",
                                       authMethod: .publicKey, identityID: identity.id, groupID: group.id,
                                       passwordRef: nil))
        let rule = try store.save(PortForwardRule(hostID: host.id, kind: .local, bindPort: 8080, destinationHost: "localhost", destinationPort: 80))

        try reopen()
        XCTAssertEqual(store.deviceID, Self.deviceID)
        XCTAssertEqual(try store.host("web-1"), host)
        XCTAssertEqual(try store.group("prod"), group)
        XCTAssertEqual(try store.identity("laptop key"), identity)
        XCTAssertEqual(try store.forward(id: rule.id), rule)
        XCTAssertEqual(try store.counts().pendingChanges, 4)
    }

    func testCreateAgainKeepsTheOriginalDeviceID() throws {
        try saveHost("web-1")
        store = nil
        let again = try ConfigStore.create(at: databasePath, deviceID: "aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa")
        XCTAssertEqual(again.deviceID, Self.deviceID)
        XCTAssertEqual(try again.hosts().map(\.label), ["web-1"])
    }

    func testOpeningAForeignDatabaseFails() throws {
        let error = assertConfigError(.storage, try ConfigStore.open(at: directory + "/other.sqlite"))
        XCTAssertEqual(error?.message, "The config database at \(directory)/other.sqlite has no device id; it was not created by CredentialVault.")
    }

    func testCounts() throws {
        let group = try saveGroup("prod")
        try saveGroup("staging", parentID: group.id)
        try saveIdentity("key")
        let host = try saveHost("web-1", groupID: group.id)
        try saveHost("web-2")
        try store.save(PortForwardRule(hostID: host.id, kind: .dynamic, bindPort: 1080))
        try store.save(PortForwardRule(hostID: host.id, kind: .remote, bindPort: 9000, destinationHost: "localhost", destinationPort: 9000))

        XCTAssertEqual(try store.counts(), ConfigCounts(hosts: 2, groups: 2, identities: 1, forwards: 2, pendingChanges: 7, quarantined: 0, conflicts: 0))
        try store.removeHost(id: host.id)
        XCTAssertEqual(try store.counts(), ConfigCounts(hosts: 1, groups: 2, identities: 1, forwards: 0, pendingChanges: 7, quarantined: 0, conflicts: 0),
                       "removals replace the records' pending entries with deletions")
    }

    func testListsAreSortedByLabel() throws {
        try saveHost("zeta")
        try saveHost("Alpha")
        try saveHost("beta")
        XCTAssertEqual(try store.hosts().map(\.label), ["Alpha", "beta", "zeta"])
    }
}
