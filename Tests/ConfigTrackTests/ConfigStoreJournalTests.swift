@testable import ConfigTrack
import Foundation
import Replication
import SQLite
import XCTest
import struct Identifiers.UUID

final class ConfigStoreJournalTests: ConfigTestCase {
    func testEachSaveWritesOneEntryWithTheRecordsVersion() throws {
        let group = try saveGroup("prod")
        let identity = try saveIdentity("key")
        let host = try saveHost("web", groupID: group.id, identityID: identity.id)
        let rule = try store.save(PortForwardRule(hostID: host.id, kind: .dynamic, bindPort: 1080))

        XCTAssertEqual(try store.pendingJournal(), [
            JournalEntry(recordName: recordName("group", group.id), kind: "group", version: try XCTUnwrap(group.version), deleted: false),
            JournalEntry(recordName: recordName("identity", identity.id), kind: "identity", version: try XCTUnwrap(identity.version), deleted: false),
            JournalEntry(recordName: recordName("host", host.id), kind: "host", version: try XCTUnwrap(host.version), deleted: false),
            JournalEntry(recordName: recordName("forward", rule.id), kind: "forward", version: try XCTUnwrap(rule.version), deleted: false),
        ], "one entry per record, oldest version first")
        XCTAssertTrue(try store.pendingJournal().allSatisfy { $0.version.device == Self.deviceID && $0.incarnation == 0 })
    }

    func testASecondEditReplacesTheEntryWithANewerVersion() throws {
        var host = try saveHost("web")
        let first = try XCTUnwrap(host.version)
        host.port = 2200
        host = try store.save(host)
        let second = try XCTUnwrap(host.version)
        XCTAssertGreaterThan(second.clock, first.clock)

        let entries = try store.pendingJournal()
        XCTAssertEqual(entries.count, 1)
        XCTAssertEqual(entries.first?.version, second)
        XCTAssertEqual(try store.host("web").version, second, "the stored record carries the journaled version")
    }

    func testRemovalsAreJournaledAsDeletions() throws {
        let host = try saveHost("web")
        let rule = try store.save(PortForwardRule(hostID: host.id, kind: .dynamic, bindPort: 1080))
        let identity = try saveIdentity("key")
        try store.removeIdentity(id: identity.id)
        try store.removeHost(id: host.id)

        let entries = try store.pendingJournal()
        XCTAssertEqual(entries.count, 3)
        for (name, saved) in [(recordName("host", host.id), host.version), (recordName("forward", rule.id), rule.version),
                              (recordName("identity", identity.id), identity.version)] {
            let entry = try XCTUnwrap(entries.first { $0.recordName == name }, name)
            XCTAssertTrue(entry.deleted, name)
            XCTAssertGreaterThan(entry.version, try XCTUnwrap(saved), name)
        }
    }

    func testRemoveGroupJournalsEveryRecordItTouches() throws {
        let top = try saveGroup("top")
        let middle = try saveGroup("middle", parentID: top.id)
        let child = try saveGroup("child", parentID: middle.id)
        let host = try saveHost("web", groupID: middle.id)
        try store.removeGroup(id: middle.id)

        let entries = try store.pendingJournal()
        XCTAssertEqual(entries.count, 4)
        XCTAssertEqual(try pendingEntry(recordName("group", middle.id))?.deleted, true)
        XCTAssertEqual(try pendingEntry(recordName("host", host.id))?.version, try store.host(id: host.id)?.version)
        XCTAssertEqual(try pendingEntry(recordName("group", child.id))?.version, try store.group(id: child.id)?.version)
        XCTAssertEqual(try pendingEntry(recordName("group", top.id))?.version, top.version, "the parent itself is untouched")
    }

    /// A removed record's tombstone is terminal (replication lets it win over any later edit of
    /// that id), so saving the same id again is refused rather than resurrected locally only.
    func testARemovedRecordCannotBeSavedAgainUnderTheSameID() throws {
        let host = try saveHost("web")
        try store.removeHost(id: host.id)
        assertConfigError(.conflict, try store.save(Host(id: host.id, label: "web", hostname: "example.org")))
        XCTAssertEqual(try pendingEntry(recordName("host", host.id))?.deleted, true)
        XCTAssertNil(try store.host(id: host.id))
    }

    func testAnEditOfAStaleCopyIsRefused() throws {
        let host = try saveHost("web")
        var first = host, second = host
        first.port = 2201
        try store.save(first)
        second.username = "other"
        assertConfigError(.conflict, try store.save(second))
        XCTAssertEqual(try store.host(id: host.id)?.port, 2201)
    }

    func testVersionsStayMonotonicWithinOneMillisecond() throws {
        let fixed: UInt64 = 1_700_000_000_000
        let versions = try store.queue.write { db in
            try (0..<2_000).map { _ in try LocalClock.tick(db, device: Self.deviceID, nowMilliseconds: fixed) }
        }
        XCTAssertEqual(versions.first?.clock, fixed << 16)
        for (earlier, later) in zip(versions, versions.dropFirst()) where !(earlier < later) {
            XCTFail("version \(later) does not follow \(earlier)")
            break
        }
        XCTAssertEqual(Set(versions.map(\.clock)).count, versions.count)
    }

    func testEditsOrderAfterAClockThatRanAhead() throws {
        // A reading far in the future (a skewed wall clock, or a remote version observed) must not
        // let a later local edit be stamped lower.
        let future = HybridLogicalClock.wallMilliseconds() + 3_600_000
        let ahead = try store.queue.write { db in try LocalClock.tick(db, device: Self.deviceID, nowMilliseconds: future) }
        let host = try saveHost("web")
        XCTAssertEqual(host.version?.clock, ahead.clock + 1)
        let entry = try XCTUnwrap(try pendingEntry(recordName("host", host.id)))
        XCTAssertGreaterThan(entry.version, ahead)
    }

    func testAFailedValidationLeavesNeitherRecordNorEntry() throws {
        let before = try clockReading()
        assertConfigError(.invalid, try saveHost("web", hostname: "bad host"))
        assertConfigError(.notFound, try saveHost("web", groupID: UUID()))
        XCTAssertEqual(try store.counts().hosts, 0)
        XCTAssertEqual(try store.pendingJournal(), [])
        XCTAssertEqual(try clockReading(), before, "a rejected edit does not advance the clock")
    }

    func testAFailureAfterPersistingRollsBackRecordAndEntry() throws {
        struct Abort: Error {}
        let host = Host(label: "web", hostname: "example.org")
        XCTAssertThrowsError(try store.queue.write { db in
            _ = try store.persist(db, host)
            throw Abort()
        })
        XCTAssertNil(try store.host(id: host.id))
        XCTAssertEqual(try store.pendingJournal(), [])
    }

    func testAnEditCannotCommitWithoutItsEntry() throws {
        try store.queue.write { db in
            try db.execute("CREATE TRIGGER journal_full BEFORE INSERT ON replication_journal BEGIN SELECT RAISE(ABORT, 'journal full'); END")
        }
        let error = assertConfigError(.storage, try saveHost("web"))
        XCTAssertTrue(error?.message.hasPrefix("Unable to save host 'web': SQLite error") ?? false, error?.message ?? "")
        XCTAssertEqual(try store.counts().hosts, 0, "the host was not stored without its upload intent")

        try store.queue.write { db in try db.execute("DROP TRIGGER journal_full") }
        let host = try saveHost("web")
        XCTAssertEqual(try store.pendingJournal().map(\.recordName), [recordName("host", host.id)])
    }

    private func clockReading() throws -> UInt64 {
        try store.queue.read { db in try db.queryFirst("SELECT last FROM replication_clock") { $0.uint64(0) } ?? 0 }
    }
}
