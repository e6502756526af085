import ConfigTrack
import Foundation
import XCTest
import struct Identifiers.UUID

final class ConfigStoreGroupTests: ConfigTestCase {
    func testNestedGroups() throws {
        let prod = try saveGroup("prod")
        let eu = try saveGroup("eu", parentID: prod.id)
        let fra = try saveGroup("fra", parentID: eu.id)
        XCTAssertEqual(try store.group("fra").parentID, eu.id)
        XCTAssertEqual(try store.group(prod.id.uuidString.uppercased()), prod)
        XCTAssertEqual(try store.group(id: fra.id), fra)
        XCTAssertEqual(try store.groups().map(\.label), ["eu", "fra", "prod"])
    }

    func testDuplicateGroupLabelIsRejected() throws {
        try saveGroup("prod")
        let error = assertConfigError(.alreadyExists, try saveGroup("prod"))
        XCTAssertEqual(error?.message, "A group labelled 'prod' already exists.")
    }

    func testMissingParentIsRejected() throws {
        let error = assertConfigError(.notFound, try saveGroup("orphan", parentID: UUID()))
        XCTAssertEqual(error?.message, "Group 'orphan' names a parent group that does not exist.")
    }

    func testCyclesAreRejected() throws {
        var a = try saveGroup("a")
        a.parentID = a.id
        let error = assertConfigError(.invalid, try store.save(a))
        XCTAssertEqual(error?.message, "Group 'a' would contain itself.")

        a.parentID = nil
        let b = try saveGroup("b", parentID: a.id)
        let c = try saveGroup("c", parentID: b.id)
        a.parentID = c.id
        assertConfigError(.invalid, try store.save(a))
        XCTAssertNil(try store.group("a").parentID)
    }

    func testRemoveGroupMovesHostsAndChildrenToItsParent() throws {
        let top = try saveGroup("top")
        let middle = try saveGroup("middle", parentID: top.id)
        let child = try saveGroup("child", parentID: middle.id)
        let host = try saveHost("web", groupID: middle.id)
        let deeper = try saveHost("deep", groupID: child.id)

        try store.removeGroup(id: middle.id)
        XCTAssertNil(try store.group(id: middle.id))
        XCTAssertEqual(try store.host(id: host.id)?.groupID, top.id)
        XCTAssertEqual(try store.group(id: child.id)?.parentID, top.id)
        XCTAssertEqual(try store.host(id: deeper.id)?.groupID, child.id, "grandchildren stay where they are")
        XCTAssertGreaterThan(try XCTUnwrap(try store.host(id: host.id)?.version), try XCTUnwrap(host.version))
    }

    func testRemoveTopLevelGroupMovesToTheTop() throws {
        let top = try saveGroup("top")
        let child = try saveGroup("child", parentID: top.id)
        let host = try saveHost("web", groupID: top.id)
        try store.removeGroup(id: top.id)
        XCTAssertNil(try store.host(id: host.id)?.groupID)
        XCTAssertNil(try store.group(id: child.id)?.parentID)
        XCTAssertEqual(try store.counts().groups, 1)
        assertConfigError(.notFound, try store.removeGroup(id: top.id))
    }
}
