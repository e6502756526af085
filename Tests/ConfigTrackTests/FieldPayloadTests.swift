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
        FieldPayload.decode(bytes, groups: groups, columnCount: HostGroup.columns.count, recordVersion: record)
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
