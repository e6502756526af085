import Foundation
import Replication
import XCTest

extension DirectoryRemoteTests {
    static let device1 = "zones/config/dev1/"

    /// A remote folder as Syncthing and Nextcloud leave it: objects, conflict copies, and the
    /// tools' own temporary, hidden and versioning files.
    func placeSyncedFolder() throws {
        let d = Self.device1
        for object in [
            "vault.json", d + "00000000000000000001.batch", d + "00000000000000000002.batch",
            d + "00000000000000000002.sync-conflict-20240101-120000-ABCDEFG.batch",
            d + "00000000000000000003 (conflicted copy 2024-01-01 120000).batch",
            "zones/config/dev2/00000000000000000001.batch", "zones/secrets/dev1/00000000000000000001.batch",
        ] { try place(object) }
        for ignored in [
            d + ".syncthing.00000000000000000004.batch.tmp", d + "~syncthing~00000000000000000005.batch.tmp",
            d + "00000000000000000006.batch.part", d + "00000000000000000007.batch.tmp", d + ".dotfile",
            ".stfolder/marker", ".stversions/zones/config/dev1/00000000000000000001~20240101-120000.batch",
            "zones/.hidden/00000000000000000001.batch", ".credvault-0123abcd.tmp", "zones/config/.dev3/1.batch",
        ] { try place(ignored) }
    }

    func testListSkipsSyncToolFilesAndIncludesConflictCopies() throws {
        try placeSyncedFolder()
        let d = Self.device1
        XCTAssertEqual(try remote.list(prefix: ""), [
            "vault.json",
            d + "00000000000000000001.batch",
            d + "00000000000000000002.batch",
            d + "00000000000000000002.sync-conflict-20240101-120000-ABCDEFG.batch",
            d + "00000000000000000003 (conflicted copy 2024-01-01 120000).batch",
            "zones/config/dev2/00000000000000000001.batch",
            "zones/secrets/dev1/00000000000000000001.batch",
        ].sorted())
        // Every listed name can be read back.
        for name in try remote.list(prefix: "") { XCTAssertNotNil(try remote.get(name), name) }
    }

    func testListHonoursPrefixesEndingAnywhere() throws {
        try placeSyncedFolder()
        let d = Self.device1
        let device1 = [
            d + "00000000000000000001.batch", d + "00000000000000000002.batch",
            d + "00000000000000000002.sync-conflict-20240101-120000-ABCDEFG.batch",
            d + "00000000000000000003 (conflicted copy 2024-01-01 120000).batch",
        ]
        XCTAssertEqual(try remote.list(prefix: d), device1)
        XCTAssertEqual(try remote.list(prefix: "zones/config/dev1"), device1)
        XCTAssertEqual(try remote.list(prefix: "zones/config/dev"), device1 + ["zones/config/dev2/00000000000000000001.batch"])
        XCTAssertEqual(try remote.list(prefix: "zones/config/"), try remote.list(prefix: "zones/config/dev"))
        XCTAssertEqual(try remote.list(prefix: d + "00000000000000000002"), Array(device1[1...2]))
        XCTAssertEqual(try remote.list(prefix: d + "00000000000000000001.batch"), [device1[0]])
        XCTAssertEqual(try remote.list(prefix: "zones/s"), ["zones/secrets/dev1/00000000000000000001.batch"])
        XCTAssertEqual(try remote.list(prefix: "vault"), ["vault.json"])
        XCTAssertEqual(try remote.list(prefix: "zones/config/dev9/"), [])
        XCTAssertEqual(try remote.list(prefix: "zones/nothing/here/"), [])
        XCTAssertEqual(try remote.list(prefix: "vault.json/"), [])
        XCTAssertEqual(try remote.list(prefix: "zones/config/."), [])
    }

    func testPrefixesThatLeaveTheRootAreRejected() throws {
        for prefix in ["/", "/etc/", "../", "a/../", "zones//", "./", "zones/.stversions/", ".stversions/", "a\u{0}b", "a\\b/"] {
            assertCode(.invalidName, try remote.list(prefix: prefix), prefix.debugDescription)
        }
    }

    func testListIsSortedInByteOrder() throws {
        // '-' (0x2d) < '/' (0x2f) < '0' (0x30): a directory's contents sort between siblings.
        // Composed "é" (c3 a9) and decomposed "e\u{301}" (65 cc 81) are distinct names.
        for name in ["a0", "a/b", "a-b", "B", "b", "é", "e\u{301}", "Z/z", "a/a/a"] { try place(name) }
        let expected = ["B", "Z/z", "a-b", "a/a/a", "a/b", "a0", "b", "e\u{301}", "é"]
        XCTAssertEqual(try remote.list(prefix: "").map { Array($0.utf8) }, expected.map { Array($0.utf8) })
        XCTAssertEqual(try remote.list(prefix: "é").map { Array($0.utf8) }, [Array("é".utf8)])
    }
}
