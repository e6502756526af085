import ConfigTrack
import Foundation
import XCTest
import struct Identifiers.UUID

final class PortForwardRuleTests: XCTestCase {
    let host = UUID()

    func testLocalAndRemoteSpecifications() {
        XCTAssertEqual(PortForwardRule(hostID: host, kind: .local, bindPort: 8080, destinationHost: "localhost", destinationPort: 80).specification,
                       "8080:localhost:80")
        XCTAssertEqual(PortForwardRule(hostID: host, kind: .remote, bindAddress: "*", bindPort: 9000, destinationHost: "10.0.0.5", destinationPort: 22).specification,
                       "*:9000:10.0.0.5:22")
        XCTAssertEqual(PortForwardRule(hostID: host, kind: .local, bindAddress: "127.0.0.1", bindPort: 5432, destinationHost: "db", destinationPort: 5432).specification,
                       "127.0.0.1:5432:db:5432")
    }

    func testIPv6AddressesAreBracketed() {
        XCTAssertEqual(PortForwardRule(hostID: host, kind: .local, bindAddress: "::1", bindPort: 8080, destinationHost: "::1", destinationPort: 80).specification,
                       "[::1]:8080:[::1]:80")
        XCTAssertEqual(PortForwardRule(hostID: host, kind: .remote, bindPort: 2222, destinationHost: "fe80::1%eth0", destinationPort: 22).specification,
                       "2222:[fe80::1%eth0]:22")
        XCTAssertEqual(PortForwardRule(hostID: host, kind: .dynamic, bindAddress: "::", bindPort: 1080).specification, "[::]:1080")
    }

    func testDynamicSpecifications() {
        XCTAssertEqual(PortForwardRule(hostID: host, kind: .dynamic, bindPort: 1080).specification, "1080")
        XCTAssertEqual(PortForwardRule(hostID: host, kind: .dynamic, bindAddress: "localhost", bindPort: 1080).specification, "localhost:1080")
        XCTAssertEqual(PortForwardRule(hostID: host, kind: .dynamic, bindAddress: "*", bindPort: 1080).specification, "*:1080")
    }
}
