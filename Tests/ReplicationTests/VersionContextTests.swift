import Replication
import XCTest

final class VersionContextTests: XCTestCase {
    private let a = "aaaaaaaa-0000-4000-8000-000000000000", b = "bbbbbbbb-0000-4000-8000-000000000000"

    /// A write made after seeing another covers it; two made without seeing each other do not.
    func testCoversWhatItsWriterHadSeen() {
        let first = RecordVersion(clock: 10, device: a)
        let afterFirst = VersionContext(only: first).advanced(to: RecordVersion(clock: 20, device: b))
        XCTAssertTrue(afterFirst.covers(first))
        XCTAssertTrue(afterFirst.covers(VersionContext(only: first)))
        let concurrent = VersionContext(only: RecordVersion(clock: 15, device: b))
        XCTAssertFalse(concurrent.covers(first))
        XCTAssertFalse(concurrent.covers(VersionContext(only: first)))
        XCTAssertFalse(VersionContext(only: first).covers(concurrent))
        XCTAssertFalse(VersionContext(only: first).covers(RecordVersion(clock: 11, device: a)), "a later write of the same device")
    }

    /// Joins are entry-wise maxima: the same in any order, and joining twice changes nothing.
    func testJoinsAreCommutativeAssociativeAndIdempotent() {
        let x = VersionContext([a: 5, b: 9]), y = VersionContext([a: 7]), z = VersionContext([b: 3, "c": 1])
        XCTAssertEqual(x.joined(with: y), y.joined(with: x))
        XCTAssertEqual(x.joined(with: y).joined(with: z), x.joined(with: y.joined(with: z)))
        XCTAssertEqual(x.joined(with: x), x)
        XCTAssertEqual(x.joined(with: y), VersionContext([a: 7, b: 9]))
        XCTAssertTrue(x.joined(with: y).covers(x) && x.joined(with: y).covers(y))
    }

    /// A write has seen itself, and everything else it saw is older than it.
    func testAWriteContextHoldsItsOwnVersionAndOnlyOlderOnes() {
        let version = RecordVersion(clock: 50, device: b)
        XCTAssertTrue(VersionContext(only: version).isWriteContext(of: version))
        XCTAssertTrue(VersionContext([a: 49, b: 50]).isWriteContext(of: version))
        XCTAssertFalse(VersionContext([a: 50, b: 50]).isWriteContext(of: version), "another device's entry at or past it")
        XCTAssertFalse(VersionContext([a: 10, b: 40]).isWriteContext(of: version), "not its own clock")
        XCTAssertFalse(VersionContext([a: 10]).isWriteContext(of: version), "without itself")
    }

    func testEncodingIsCanonicalAndRoundTrips() throws {
        let context = VersionContext([b: 2, a: 1])
        var writer = ByteWriter()
        context.encode(into: &writer)
        var reader = ByteReader(writer.bytes)
        XCTAssertEqual(try VersionContext.decode(from: &reader), context)
        XCTAssertTrue(reader.isAtEnd)
        var again = ByteWriter()
        VersionContext([a: 1, b: 2]).encode(into: &again)
        XCTAssertEqual(again.bytes, writer.bytes, "one context, one encoding")
    }

    /// Out of order, repeated, zero clocks, empty device ids and too many entries are refused.
    func testNonCanonicalEncodingsAreRefused() {
        func encoded(_ entries: [(String, UInt64)], count: Int? = nil) -> [UInt8] {
            var writer = ByteWriter()
            writer.u16(UInt16(count ?? entries.count))
            for (device, clock) in entries {
                writer.string(device)
                writer.u64(clock)
            }
            return writer.bytes
        }
        for bytes in [encoded([(b, 1), (a, 1)]), encoded([(a, 1), (a, 2)]), encoded([(a, 0)]), encoded([("", 1)]),
                      encoded([], count: VersionContext.maximumEntries + 1), encoded([(a, 1)], count: 2)] {
            var reader = ByteReader(bytes)
            XCTAssertThrowsError(try VersionContext.decode(from: &reader), "\(bytes)")
        }
    }

    /// One context, one value: however it was built (inline for one writer), equal contexts are
    /// equal and hash alike, so stamps compare by what they say.
    func testOneContextHasOneValueHoweverItWasBuilt() throws {
        let version = RecordVersion(clock: 7, device: b)
        var writer = ByteWriter()
        VersionContext(only: version).encode(into: &writer)
        var reader = ByteReader(writer.bytes)
        let built = [VersionContext(only: version), VersionContext([b: 7]), VersionContext().advanced(to: version),
                     VersionContext(only: RecordVersion(clock: 3, device: b)).advanced(to: version), try VersionContext.decode(from: &reader)]
        XCTAssertEqual(Set(built).count, 1)
        let two = VersionContext([a: 1]).advanced(to: version)
        XCTAssertEqual(two, VersionContext([b: 7, a: 1]))
        XCTAssertEqual(two.clock(of: a), 1)
        XCTAssertEqual(two.clock(of: b), 7)
        XCTAssertEqual(two.clock(of: "c"), 0)
        XCTAssertEqual(two.description, "{\(a):1,\(b):7}")
        XCTAssertTrue(VersionContext().isEmpty && VersionContext(only: RecordVersion(clock: 0, device: a)).isEmpty)
    }

    /// Device ids are printable ASCII: two encodings of one accented name would be two entries
    /// on the wire and one in every comparison.
    func testDeviceNamesArePrintableASCII() {
        XCTAssertTrue(VersionContext.isDeviceName(a))
        for name in ["", "caf\u{e9}", "cafe\u{301}", "with space", String(repeating: "x", count: 129)] {
            XCTAssertFalse(VersionContext.isDeviceName(name), name)
        }
        var writer = ByteWriter()
        writer.u16(2)
        for (device, clock) in [("cafe\u{301}", UInt64(1)), ("caf\u{e9}", UInt64.max)] {
            writer.string(device)
            writer.u64(clock)
        }
        var reader = ByteReader(writer.bytes)
        XCTAssertThrowsError(try VersionContext.decode(from: &reader))
    }
}
