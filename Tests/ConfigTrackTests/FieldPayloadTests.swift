import Replication
import SQLite
import XCTest
@testable import ConfigTrack

/// Format 2 of config payloads: canonical, and refused whenever a field version could not have
/// been written by an honest device.
final class FieldPayloadTests: XCTestCase {
    private let groups = HostGroup.fieldGroups
    private let record = RecordVersion(clock: 900, device: "device-b")
    private let values: [SQLValue] = [.text("prod"), .null]

    private func decode(_ bytes: [UInt8]) -> (values: [SQLValue], stamps: [FieldStamp])? {
        FieldPayload.decode(bytes, format: FieldPayload.formatVersion, groups: groups, columnCount: HostGroup.columns.count, recordVersion: record)
    }

    func testRoundTripsWithTheShortTagOnlyWhereItApplies() throws {
        let older = FieldStamp(version: RecordVersion(clock: 500, device: "device-a"), context: VersionContext(["device-a": 500]))
        let stamps = [FieldStamp.only(record), older]
        let bytes = FieldPayload.encode(values, stamps: stamps, groups: groups, recordVersion: record)
        let decoded = try XCTUnwrap(decode(bytes))
        XCTAssertEqual(decoded.values, values)
        XCTAssertEqual(decoded.stamps, stamps)
        XCTAssertEqual(bytes[2], 0, "the label's stamp is the record's own: tag 0")
        // A record written once costs a tag and a value count per group over format 1.
        let plain = FieldPayload.encode(values, stamps: [.only(record), .only(record)], groups: groups, recordVersion: record)
        XCTAssertEqual(plain.count, ConfigPayload.encode(values).count + 3 * groups.count)
    }

    func testStampsThatNoHonestWriterMakesAreRefused() {
        func payload(_ second: (inout ByteWriter) -> Void) -> [UInt8] {
            var writer = ByteWriter()
            writer.u16(2)
            writer.u8(0)
            ConfigPayload.encode([values[0]], into: &writer)
            second(&writer)
            ConfigPayload.encode([values[1]], into: &writer)
            return writer.bytes
        }
        func stamp(_ clock: UInt64, _ device: String, _ context: VersionContext) -> (inout ByteWriter) -> Void {
            { writer in
                writer.u8(1)
                writer.u64(clock)
                writer.string(device)
                context.encode(into: &writer)
            }
        }
        let cases: [(String, [UInt8])] = [
            ("the long form of the record's own stamp", payload(stamp(900, "device-b", VersionContext(["device-b": 900])))),
            ("newer than the record", payload(stamp(901, "device-a", VersionContext(["device-a": 901])))),
            ("a context without its own write", payload(stamp(500, "device-a", VersionContext(["device-c": 400])))),
            ("a context claiming a later write", payload(stamp(500, "device-a", VersionContext(["device-a": 500, "device-c": 800])))),
            ("an unknown tag", payload { $0.u8(7) }),
            ("an empty writer", payload(stamp(500, "", VersionContext()))),
        ]
        for (name, bytes) in cases { XCTAssertNil(decode(bytes), name) }
        var short = ByteWriter()
        short.u16(1)
        XCTAssertNil(decode(short.bytes), "the wrong number of groups")
        let good = FieldPayload.encode(values, stamps: [.only(record), .only(record)], groups: groups, recordVersion: record)
        XCTAssertNil(decode(good + [0]), "trailing bytes")
        let older = payload(stamp(500, "device-a", VersionContext(["device-a": 500])))
        XCTAssertNotNil(decode(older))
        var allOlder = ByteWriter()
        allOlder.u16(2)
        for value in values {
            stamp(500, "device-a", VersionContext(["device-a": 500]))(&allOlder)
            ConfigPayload.encode([value], into: &allOlder)
        }
        XCTAssertNil(decode(allOlder.bytes), "no group at the envelope's version")
    }

    // MARK: - A group added later (identities' `confirm`, format 3)

    private let identity = Identity(label: "laptop", keyType: .ed25519, publicKey: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl me")
    private let older = FieldStamp(version: RecordVersion(clock: 500, device: "device-a"), context: VersionContext(["device-a": 500]))

    private func decodeIdentity(_ bytes: [UInt8], format: UInt16) -> (values: [SQLValue], stamps: [FieldStamp])? {
        FieldPayload.decode(bytes, format: format, groups: Identity.fieldGroups, columnCount: Identity.columns.count, recordVersion: record)
    }

    /// What a build before `confirm` decodes: three groups over six columns.
    private func decodeAsOlderBuild(_ bytes: [UInt8]) -> (values: [SQLValue], stamps: [FieldStamp])? {
        FieldPayload.decode(bytes, format: FieldPayload.formatVersion, groups: Array(Identity.fieldGroups.prefix(3)), columnCount: 6, recordVersion: record)
    }

    func testAnIdentityThatNeverAskedForConfirmationIsTheFormatTwoPayloadOlderBuildsRead() throws {
        let values = identity.columnValues.map(\.sqlValue)
        let stamps = [FieldStamp.only(record), older, older, .unwritten]
        XCTAssertEqual(FieldPayload.format(of: stamps, groups: Identity.fieldGroups), 2)
        let bytes = FieldPayload.encode(values, stamps: stamps, groups: Identity.fieldGroups, recordVersion: record)
        XCTAssertEqual(bytes, FieldPayload.encode(Array(values.prefix(6)), stamps: Array(stamps.prefix(3)), groups: Array(Identity.fieldGroups.prefix(3)),
                                                 recordVersion: record), "byte for byte what an older build writes")
        let older = try XCTUnwrap(decodeAsOlderBuild(bytes))
        XCTAssertEqual(older.values, Array(values.prefix(6)))
        let decoded = try XCTUnwrap(decodeIdentity(bytes, format: 2))
        XCTAssertEqual(decoded.values, values)
        XCTAssertEqual(decoded.values[6], .integer(0), "read as not asking")
        XCTAssertEqual(decoded.stamps, stamps)
        XCTAssertNil(decodeIdentity(bytes, format: 3), "a record is sent in one format only")
    }

    func testAnIdentityThatWroteItsConfirmationIsFormatThreeWhichOlderBuildsCannotRead() throws {
        var asks = identity
        for (confirm, stamp) in [(true, FieldStamp.only(record)), (false, older)] {
            asks.confirm = confirm
            let values = asks.columnValues.map(\.sqlValue)
            let stamps = [older, older, .only(record), stamp]
            XCTAssertEqual(FieldPayload.format(of: stamps, groups: Identity.fieldGroups), 3)
            let bytes = FieldPayload.encode(values, stamps: stamps, groups: Identity.fieldGroups, recordVersion: record)
            let decoded = try XCTUnwrap(decodeIdentity(bytes, format: 3))
            XCTAssertEqual(decoded.values, values)
            XCTAssertEqual(decoded.stamps, stamps, "a written 'no' keeps its stamp: it must beat a concurrent 'yes'")
            XCTAssertNil(decodeIdentity(bytes, format: 2))
            XCTAssertNil(decodeAsOlderBuild(bytes), "an older build keeps it for after its upgrade")
            XCTAssertNil(decodeIdentity(bytes, format: 4))
        }
    }

    func testUnwrittenStampsWhereNoneCanBeAreRefused() {
        let values = identity.columnValues.map(\.sqlValue)
        func payload(_ stamps: [FieldStamp], _ values: [SQLValue]) -> [UInt8] {
            var writer = ByteWriter()
            writer.u16(UInt16(stamps.count))
            for (group, stamp) in zip(Identity.fieldGroups, stamps) {
                stamp.encode(into: &writer, recordVersion: record)
                ConfigPayload.encode(group.values(of: values), into: &writer)
            }
            return writer.bytes
        }
        var yes = values
        yes[6] = .integer(1)
        XCTAssertNotNil(decodeIdentity(payload([.only(record), older, older, .only(record)], yes), format: 3))
        XCTAssertNil(decodeIdentity(payload([.only(record), older, older, .unwritten], values), format: 3), "format 2 carries it")
        XCTAssertNil(decodeIdentity(payload([.only(record), older, older, .unwritten], yes), format: 3), "unwritten, yet asking")
        XCTAssertNil(decodeIdentity(payload([.only(record), .unwritten, older], values), format: 2), "a group of format 2 is always written")
        XCTAssertNil(decodeIdentity(payload([.unwritten, .unwritten, .unwritten], values), format: 2))
    }

    func testEveryWriteBeatsAnUnwrittenGroupAndNoneIsKeptAgainstIt() {
        let no: [SQLValue] = [.integer(0)], yes: [SQLValue] = [.integer(1)]
        for stamp in [FieldStamp.only(RecordVersion(clock: 1, device: "device-a")), older] {
            XCTAssertTrue(ConfigZone.wins(stamp, no, over: .unwritten, no))
            XCTAssertTrue(ConfigZone.wins(stamp, yes, over: .unwritten, no))
            XCTAssertFalse(ConfigZone.wins(.unwritten, no, over: stamp, yes))
        }
        XCTAssertFalse(ConfigZone.wins(.unwritten, no, over: .unwritten, no), "settled")
        XCTAssertFalse(FieldStamp.unwritten.context.covers(older.version))
    }

    /// Groups added later have the last columns, in group order: a record from an older build
    /// is the first columns, completed with the added groups' unwritten values.
    func testGroupsAddedLaterHaveTheLastColumns() {
        for type in ConfigZone.kinds.values {
            let added = type.fieldGroups.filter { $0.since > FieldPayload.formatVersion }
            XCTAssertEqual(added.flatMap(\.columns), Array(type.olderColumnCount..<type.columns.count), type.kind)
            for group in added { XCTAssertEqual(group.unwritten.count, group.columns.count, "\(type.kind) \(group.name)") }
            XCTAssertEqual(type.fieldGroups.flatMap(\.columns).sorted(), Array(0..<type.columns.count), "\(type.kind): each column in one group")
        }
    }

    /// The cheap check the codec uses agrees with comparing against `.only(version)`.
    func testIsOnlyAgreesWithTheStampItNames() {
        for version in [record, RecordVersion(clock: 0, device: "device-b")] {
            let stamps = [FieldStamp.only(version), FieldStamp(version: version, context: VersionContext()),
                          FieldStamp(version: version, context: VersionContext([version.device: version.clock, "device-a": 1])),
                          FieldStamp.only(RecordVersion(clock: 5, device: "device-a"))]
            for stamp in stamps { XCTAssertEqual(stamp.isOnly(version), stamp == .only(version), "\(stamp) at \(version)") }
        }
    }
}
