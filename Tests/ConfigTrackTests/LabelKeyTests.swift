import ConfigTrack
import Foundation
import SQLite
import XCTest

/// Labels that read the same are the same label: NFC and NFD spellings, and spellings that
/// differ only by case, collide on save and find each other; labels are stored in NFC; vaults
/// made before label keys get them when opened.
final class LabelKeyTests: ConfigTestCase {
    private let composed = "caf\u{E9}-1", decomposed = "cafe\u{301}-1"

    private func storedBytes(_ table: String) throws -> [[UInt8]] {
        try Connection(path: databasePath).query("SELECT label FROM \(table) ORDER BY label") { row in Array((row.text(0) ?? "").utf8) }
    }

    func testSpellingsThatReadTheSameCollideAndFindEachOther() throws {
        let host = try saveHost(decomposed)
        XCTAssertEqual(Array(host.label.utf8), Array(composed.utf8), "stored in NFC")
        XCTAssertEqual(try storedBytes("hosts"), [Array(composed.utf8)])
        assertConfigError(.alreadyExists, try saveHost(composed))
        assertConfigError(.alreadyExists, try saveHost("CAF\u{C9}-1"))
        XCTAssertEqual(try store.host("CAFE\u{301}-1").id, host.id)

        try saveHost("web-1")
        let clash = assertConfigError(.alreadyExists, try saveHost("WEB-1"))
        XCTAssertTrue(clash?.message.contains("differ only by case") == true, clash?.message ?? "")
        XCTAssertEqual(try store.host("Web-1").label, "web-1")
        try saveGroup("Prod")
        assertConfigError(.alreadyExists, try saveGroup("prod"))
        try saveIdentity("Laptop")
        assertConfigError(.alreadyExists, try saveIdentity("LAPTOP"))
        XCTAssertEqual(try store.identity("laptop").label, "Laptop")
    }

    func testARecordMayChangeTheCaseOfItsOwnLabelAndAnEditElsewhereLeavesItsBytes() throws {
        var host = try saveHost("web-1")
        host.label = "WEB-1"
        host = try store.save(host)
        XCTAssertEqual(try store.host("web-1").label, "WEB-1")

        // A label that arrived in NFD (another device's older build) keeps its bytes when another
        // field is edited: the edit must not send a label change.
        let other = try saveHost("plain")
        try Connection(path: databasePath).run("UPDATE hosts SET label = ? WHERE id = ?", [decomposed, other.id.uuidString.lowercased()])
        var edited = try store.host(other.id.uuidString)
        edited.port = 2222
        XCTAssertEqual(Array(try store.save(edited).label.utf8), Array(decomposed.utf8))
    }

    func testAVaultMadeBeforeLabelKeysGetsThemWhenOpened() throws {
        try saveHost("Web-1")
        try saveIdentity(decomposed)
        store = nil
        let db = try Connection(path: databasePath)
        for table in ["hosts", "host_groups", "identities"] {
            try db.execute("DROP INDEX \(table)_label_key")
            try db.execute("ALTER TABLE \(table) DROP COLUMN label_key")
        }
        // A vault of that time had no identity confirmation either (its identities, written
        // once, had no stored stamps).
        try db.execute("ALTER TABLE identities DROP COLUMN confirm")
        try db.run("UPDATE identities SET fields = NULL")
        try db.execute("DROP INDEX replication_journal_clock")
        try db.execute("DROP TABLE replication_replaced_removals")
        try db.run("""
            DELETE FROM schema_migrations WHERE name IN ('config: label keys', 'config: identity confirmation', 'replication: the journal''s newest edit by index',
                                                         'replication: own unsent removals replaced from elsewhere')
            """)
        try db.run("UPDATE identities SET label = ?", [decomposed])
        try reopen()
        XCTAssertEqual(try store.host("WEB-1").label, "Web-1")
        XCTAssertEqual(try store.identity(composed).label, decomposed)
        assertConfigError(.alreadyExists, try saveHost("web-1"))
    }
}
