import ConfigTrack
import Foundation
import XCTest
import struct Identifiers.UUID

final class ConfigStoreForwardTests: ConfigTestCase {
    func testLocalRemoteAndDynamicRules() throws {
        let host = try saveHost("web")
        let local = try store.save(PortForwardRule(hostID: host.id, kind: .local, bindPort: 5432, destinationHost: "db.internal", destinationPort: 5432))
        let remote = try store.save(PortForwardRule(hostID: host.id, kind: .remote, bindAddress: "*", bindPort: 9000,
                                                    destinationHost: "localhost", destinationPort: 3000))
        let dynamic = try store.save(PortForwardRule(hostID: host.id, kind: .dynamic, bindPort: 1080))
        XCTAssertEqual(try store.forward(id: local.id), local)
        XCTAssertEqual(try store.forward(id: remote.id)?.bindAddress, "*")
        XCTAssertEqual(try store.forward(id: dynamic.id)?.destinationPort, nil)
        XCTAssertEqual(Set(try store.forwards(forHost: host.id).map(\.id)), [local.id, remote.id, dynamic.id])
        XCTAssertEqual(try store.forwards(forHost: UUID()), [])
    }

    func testLocalAndRemoteNeedADestination() throws {
        let host = try saveHost("web")
        let local = assertConfigError(.invalid, try store.save(PortForwardRule(hostID: host.id, kind: .local, bindPort: 80)))
        XCTAssertEqual(local?.message, "A local forward needs a destination host and port.")
        assertConfigError(.invalid, try store.save(PortForwardRule(hostID: host.id, kind: .remote, bindPort: 80, destinationHost: "x")))
        assertConfigError(.invalid, try store.save(PortForwardRule(hostID: host.id, kind: .remote, bindPort: 80, destinationPort: 80)))
        XCTAssertEqual(try store.counts().forwards, 0)
    }

    func testDynamicHasNoDestination() throws {
        let host = try saveHost("web")
        let error = assertConfigError(.invalid, try store.save(PortForwardRule(hostID: host.id, kind: .dynamic, bindPort: 1080, destinationHost: "x")))
        XCTAssertEqual(error?.message, "A dynamic (SOCKS) forward has no destination.")
        assertConfigError(.invalid, try store.save(PortForwardRule(hostID: host.id, kind: .dynamic, bindPort: 1080, destinationPort: 80)))
    }

    func testFieldsAreValidatedAndNormalized() throws {
        let host = try saveHost("web")
        let saved = try store.save(PortForwardRule(hostID: host.id, kind: .local, bindAddress: "[::1]", bindPort: 8080,
                                                   destinationHost: "[fe80::1%eth0]", destinationPort: 80))
        XCTAssertEqual(saved.bindAddress, "::1")
        XCTAssertEqual(saved.destinationHost, "fe80::1%eth0")
        XCTAssertEqual(try store.forward(id: saved.id)?.specification, "[::1]:8080:[fe80::1%eth0]:80")

        let port = assertConfigError(.invalid, try store.save(PortForwardRule(hostID: host.id, kind: .dynamic, bindPort: 0)))
        XCTAssertEqual(port?.message, "The listening port must be between 1 and 65535, not 0.")
        let destinationPort = assertConfigError(.invalid, try store.save(PortForwardRule(hostID: host.id, kind: .local, bindPort: 1,
                                                                                          destinationHost: "x", destinationPort: 65_536)))
        XCTAssertEqual(destinationPort?.message, "The destination port must be between 1 and 65535, not 65536.")
        assertConfigError(.invalid, try store.save(PortForwardRule(hostID: host.id, kind: .local, bindPort: 1, destinationHost: "-x", destinationPort: 1)))
        assertConfigError(.invalid, try store.save(PortForwardRule(hostID: host.id, kind: .dynamic, bindAddress: "a b", bindPort: 1)))
    }

    func testRuleForAMissingHostIsRejected() throws {
        let error = assertConfigError(.notFound, try store.save(PortForwardRule(hostID: UUID(), kind: .dynamic, bindPort: 1080)))
        XCTAssertEqual(error?.message, "The port forward names a host that does not exist.")
    }

    func testRemoveForward() throws {
        let host = try saveHost("web")
        let rule = try store.save(PortForwardRule(hostID: host.id, kind: .dynamic, bindPort: 1080))
        try store.removeForward(id: rule.id)
        XCTAssertNil(try store.forward(id: rule.id))
        assertConfigError(.notFound, try store.removeForward(id: rule.id))
    }
}
