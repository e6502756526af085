import Sodium
import XCTest
@testable import Replication

/// Sealed batches: round trip, binding to their name, and rejection of what does not open.
final class BatchCodecTests: XCTestCase {
    private var key: SecretBytes!

    override func setUpWithError() throws { key = try SecretBytes.random(count: 32) }

    private func envelope(_ name: String, deleted: Bool = false) -> Envelope {
        Envelope(recordName: name, kind: "host", formatVersion: 1, version: RecordVersion(clock: 42 << 16, device: "dev-a"),
                 deleted: deleted, incarnation: 0, payload: Array("payload of \(name)".utf8))
    }

    private func batch(_ envelopes: [Envelope], sequence: UInt64 = 7) -> Batch {
        Batch(zone: "config", device: "dev-a", sequence: sequence, envelopes: envelopes)
    }

    private func assertError(_ code: ReplicationError.Code, file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void) {
        XCTAssertThrowsError(try body(), file: file, line: line) { XCTAssertEqual(($0 as? ReplicationError)?.code, code, "\($0)", file: file, line: line) }
    }

    func testRoundTripKeepsEveryFieldAndTombstonesCarryNoPayload() throws {
        let original = batch([envelope("host/1"), envelope("host/2", deleted: true)])
        let sealed = try BatchCodec.seal(original, transportKey: key)
        let opened = try BatchCodec.open(sealed, zone: "config", device: "dev-a", sequence: 7, transportKey: key)
        XCTAssertEqual(opened.envelopes, original.envelopes)
        XCTAssertEqual(opened.rejected, [])
        XCTAssertEqual(opened.envelopes[1].payload, [])
    }

    func testObjectNamesSortBySequence() {
        XCTAssertEqual(Batch.objectName(zone: "config", device: "d", sequence: 42), "zones/config/d/00000000000000000042.batch")
        XCTAssertLessThan(Batch.objectName(zone: "z", device: "d", sequence: 9), Batch.objectName(zone: "z", device: "d", sequence: 10))
    }

    func testABatchDoesNotOpenUnderAnotherNameKeyOrWhenCutShort() throws {
        let sealed = try BatchCodec.seal(batch([envelope("host/1")]), transportKey: key)
        assertError(.authenticationFailed) { _ = try BatchCodec.open(sealed, zone: "config", device: "dev-a", sequence: 8, transportKey: self.key) }
        assertError(.authenticationFailed) { _ = try BatchCodec.open(sealed, zone: "secrets", device: "dev-a", sequence: 7, transportKey: self.key) }
        assertError(.authenticationFailed) { _ = try BatchCodec.open(sealed, zone: "config", device: "dev-b", sequence: 7, transportKey: self.key) }
        assertError(.authenticationFailed) { _ = try BatchCodec.open(sealed, zone: "config", device: "dev-a", sequence: 7, transportKey: try SecretBytes.random(count: 32)) }
        assertError(.authenticationFailed) { _ = try BatchCodec.open(Array(sealed.prefix(sealed.count / 2)), zone: "config", device: "dev-a", sequence: 7, transportKey: self.key) }
        assertError(.authenticationFailed) { _ = try BatchCodec.open([], zone: "config", device: "dev-a", sequence: 7, transportKey: self.key) }
    }

    func testAnUnknownBatchFormatIsUnsupported() throws {
        var writer = ByteWriter()
        writer.u8(9)
        let sealed = try SealedBox.seal(writer.bytes, key: key, purpose: BatchCodec.purpose, context: BatchCodec.context(zone: "config", device: "dev-a", sequence: 7))
        assertError(.unsupportedFormat) { _ = try BatchCodec.open(sealed, zone: "config", device: "dev-a", sequence: 7, transportKey: self.key) }
    }

    func testOneBadEnvelopeIsRejectedAloneWhileTheOthersDecode() throws {
        let good = BatchCodec.encode(envelope("host/1"))
        var tampered = BatchCodec.encode(envelope("host/2"))
        tampered[tampered.count - 40] ^= 0xff  // inside the payload: its hash no longer matches
        var writer = ByteWriter()
        writer.u8(BatchCodec.formatVersion)
        writer.string("config")
        writer.string("dev-a")
        writer.u64(7)
        writer.u32(3)
        writer.data(good)
        writer.data(tampered)
        writer.data([0, 0, 0, 9, 1])  // cut short
        let sealed = try SealedBox.seal(writer.bytes, key: key, purpose: BatchCodec.purpose, context: BatchCodec.context(zone: "config", device: "dev-a", sequence: 7))
        let opened = try BatchCodec.open(sealed, zone: "config", device: "dev-a", sequence: 7, transportKey: key)
        XCTAssertEqual(opened.envelopes.map(\.recordName), ["host/1"])
        XCTAssertEqual(opened.rejected.map(\.recordName), ["host/2", nil])
        XCTAssertEqual(opened.rejected.map(\.reason), ["payload hash mismatch", "malformed envelope"])
    }

    /// A writer is a device id a write context can name: never empty, at most 128 bytes. (A
    /// stamp of an empty writer could be stored but not read back, so a merge would write the
    /// same record again on every sync; FuzzConfigMerge found it.)
    func testAnEnvelopeWhoseWriterIsNoDeviceIdIsRejected() throws {
        for writer in ["", String(repeating: "w", count: 129)] {
            let odd = Envelope(recordName: "host/1", kind: "host", formatVersion: 1, version: RecordVersion(clock: 42 << 16, device: writer),
                               deleted: false, incarnation: 0, payload: [1])
            XCTAssertThrowsError(try BatchCodec.decode(BatchCodec.encode(odd)), "writer of \(writer.count) bytes")
        }
        let longest = String(repeating: "w", count: 128)
        XCTAssertEqual(try BatchCodec.decode(BatchCodec.encode(Envelope(recordName: "host/1", kind: "host", formatVersion: 1, version: RecordVersion(clock: 42 << 16, device: longest),
                                                                       deleted: false, incarnation: 0, payload: [1]))).version.device, longest)
    }

    func testAHeaderNamingAnotherPlaceIsMalformed() throws {
        var writer = ByteWriter()
        writer.u8(BatchCodec.formatVersion)
        writer.string("config")
        writer.string("dev-b")
        writer.u64(7)
        writer.u32(0)
        let sealed = try SealedBox.seal(writer.bytes, key: key, purpose: BatchCodec.purpose, context: BatchCodec.context(zone: "config", device: "dev-a", sequence: 7))
        assertError(.malformed) { _ = try BatchCodec.open(sealed, zone: "config", device: "dev-a", sequence: 7, transportKey: self.key) }
    }
}
