import Foundation
import Replication
@testable import S3
import TestSupport
import XCTest

/// A store that never ends a listing, repeats a continuation token, claims absurd sizes or sends
/// an endless body is refused with a reason: nothing loops forever, buffers without bound or
/// overflows. Against a misbehaving HTTP server the test starts on 127.0.0.1.
final class HostileS3Tests: XCTestCase {
    private var directory = ""

    override func setUpWithError() throws {
        var template = Array((NSTemporaryDirectory() as NSString).appendingPathComponent("hostile-s3-XXXXXX").utf8CString)
        directory = String(cString: try XCTUnwrap(mkdtemp(&template)))
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else { throw XCTSkip("no /usr/bin/python3") }
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: directory) }

    private func remote(_ server: HostileS3Server) throws -> S3Remote {
        S3Remote(location: try server.location(), credentials: try server.credentials())
    }

    private func message(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as ReplicationError {
            return error.message
        } catch {
            return "\(error)"
        }
    }

    func testAListingThatNeverEndsIsAnErrorAfterAMillionObjects() throws {
        let server = try HostileS3Server(listing: .endless, bodyBytes: 0, directory: directory)
        let error = message { _ = try remote(server).list(prefix: "zones/") }
        XCTAssertEqual(error, "The S3 store's listing of s3://bucket/team at \(server.endpoint) did not end after 1000 pages; refused.")
    }

    func testARepeatedContinuationTokenIsAnError() throws {
        let server = try HostileS3Server(listing: .repeating, bodyBytes: 0, directory: directory)
        let error = message { _ = try remote(server).list(prefix: "zones/") }
        XCTAssertEqual(error, "The S3 store's listing of s3://bucket/team at \(server.endpoint) repeats a continuation token (it would never end); refused.")
    }

    func testAnOversizedBodyIsRefusedWithoutBufferingIt() throws {
        let server = try HostileS3Server(listing: .finite, bodyBytes: CurlTransport.maximumResponseBytes + 1, directory: directory)
        let error = try XCTUnwrap(message { _ = try remote(server).get("zones/config/d/00000000000000000001.batch") })
        XCTAssertTrue(error.contains("sent a response larger than 64 MiB; it was refused"), error)
        // Exactly at the cap is still read.
        let atCap = try HostileS3Server(listing: .finite, bodyBytes: 1 << 20, directory: directory + "/")
        XCTAssertEqual(try remote(atCap).get("zones/config/d/00000000000000000001.batch")?.count, 1 << 20)
    }

    func testClaimedSizesSumWithoutOverflow() throws {
        let server = try HostileS3Server(listing: .finite, bodyBytes: 0, directory: directory)
        XCTAssertEqual(try remote(server).usage(), RemoteUsage(objects: 2, bytes: .max))
    }
}
