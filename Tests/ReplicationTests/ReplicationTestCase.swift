import Foundation
import Replication
import SQLite
import XCTest

/// Base class for suites that need a track-like database: a fresh private directory (mkdtemp)
/// holding a connection migrated with the clock and journal schema, removed in `tearDown`.
class ReplicationTestCase: XCTestCase {
    static let device = "11111111-1111-4111-8111-111111111111"

    private(set) var directory = ""
    private(set) var db: Connection!

    override func setUpWithError() throws {
        try super.setUpWithError()
        var template = Array((NSTemporaryDirectory() + "/replication-tests.XXXXXX").utf8CString)
        guard let created = mkdtemp(&template) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "mkdtemp failed (errno \(errno))"])
        }
        directory = String(cString: created)
        db = try Connection(path: directory + "/track.sqlite")
        try Migrator([LocalClock.migration, Journal.migration, SyncTables.replayableQuarantineMigration, SyncTables.quarantineBoundsMigration]).migrate(db)
    }

    override func tearDownWithError() throws {
        db = nil
        if !directory.isEmpty { try FileManager.default.removeItem(atPath: directory) }
        directory = ""
        try super.tearDownWithError()
    }
}
