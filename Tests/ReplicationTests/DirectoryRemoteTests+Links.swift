import Foundation
import Replication
import XCTest

extension DirectoryRemoteTests {
    /// A device directory that a peer replaced with a link to a folder elsewhere on this machine:
    /// nothing there is listed, read, written or deleted through it.
    func testALinkedDeviceDirectoryIsNeverFollowed() throws {
        let outside = directory + "-outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: outside) }
        try Data("outside".utf8).write(to: URL(fileURLWithPath: outside + "/00000000000000000001.batch"))
        try place("zones/config/dev1/00000000000000000001.batch", "inside")
        XCTAssertEqual(symlink(outside, directory + "/zones/config/dev2"), 0)

        XCTAssertEqual(try remote.list(prefix: "zones/"), ["zones/config/dev1/00000000000000000001.batch"])
        let name = "zones/config/dev2/00000000000000000001.batch"
        assertCode(.io, try remote.get(name))
        XCTAssertThrowsError(try remote.get(name)) { error in
            XCTAssertTrue("\(error)".contains("'zones/config/dev2' is a symbolic link"), "\(error)")
        }
        assertCode(.io, try remote.list(prefix: "zones/config/dev2/"))
        assertCode(.io, try remote.createOnly("zones/config/dev2/00000000000000000002.batch", bytes: [1]))
        assertCode(.io, try remote.delete(name))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outside), ["00000000000000000001.batch"], "nothing written or removed outside")
        XCTAssertEqual(try remote.get("zones/config/dev1/00000000000000000001.batch"), Array("inside".utf8))
    }

    /// `zones` itself a link: publishing creates no directory inside its target.
    func testALinkedZonesDirectoryIsNeverFollowed() throws {
        let outside = directory + "-zones"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: outside) }
        XCTAssertEqual(symlink(outside, directory + "/zones"), 0)
        assertCode(.io, try remote.createOnly("zones/config/dev1/00000000000000000001.batch", bytes: [1]))
        assertCode(.io, try remote.list(prefix: "zones/config/"))
        XCTAssertEqual(try remote.list(prefix: ""), [])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outside), [], "no directory made in the link's target")
        // The root itself may be a link: the user chose it.
        let linkedRoot = directory + "-root"
        XCTAssertEqual(symlink(directory, linkedRoot), 0)
        defer { unlink(linkedRoot) }
        XCTAssertEqual(try DirectoryRemote(root: linkedRoot).createOnly("vault.json", bytes: [2]), .created)
    }
}
