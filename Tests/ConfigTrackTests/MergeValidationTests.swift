import Foundation
@testable import Replication
import Sodium
import SQLite
import XCTest
@testable import ConfigTrack
import struct Identifiers.UUID

/// A record received from another device passes the very rules a local save passes: one that
/// breaks any of them is quarantined with the rule's reason and never applied, while the healthy
/// records around it still are.
final class MergeValidationTests: ConfigTestCase {
    private var remote: DirectoryRemote!
    private var key: SecretBytes!
    private var sequence: UInt64 = 0

    override func setUpWithError() throws {
        try super.setUpWithError()
        try FileManager.default.createDirectory(atPath: directory + "/remote", withIntermediateDirectories: true)
        remote = DirectoryRemote(root: directory + "/remote")
        key = try SecretBytes.random(count: 32)
    }

    /// An envelope carrying `record` exactly as given (in format 1: the columns an older build
    /// has), written by a device that skipped every check.
    private func envelope<R: ConfigRecord>(_ record: R) -> Envelope {
        Envelope(recordName: record.recordName, kind: R.kind, formatVersion: ConfigPayload.formatVersion,
                 version: RecordVersion(clock: 7 << 16, device: "device-a"), deleted: false, incarnation: 0,
                 payload: ConfigPayload.encode(Array(record.columnValues.map(\.sqlValue).prefix(R.olderColumnCount))))
    }

    /// Sends `hostile` beside a healthy host; returns the quarantine reason given for it.
    private func sendBreaking<R: ConfigRecord>(_ hostile: R, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        try sendBreaking(envelope(hostile), file: file, line: line)
    }

    private func sendBreaking(_ hostile: Envelope, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let healthy = Host(label: "healthy-\(sequence)", hostname: "ok.example")
        sequence += 1
        let batch = Batch(zone: "config", device: "device-a", sequence: sequence, envelopes: [hostile, envelope(healthy)])
        _ = try remote.createOnly(batch.objectName, bytes: try BatchCodec.seal(batch, transportKey: key))
        let report = try ZoneEngine(store: ConfigZone(store: store), remote: remote, transportKey: key).run()
        XCTAssertEqual([report.applied, report.quarantined], [1, 1], file: file, line: line)
        XCTAssertNotNil(try store.host(id: healthy.id), file: file, line: line)
        let entry = try XCTUnwrap(try store.quarantined().first { $0.recordName == hostile.recordName }, file: file, line: line)
        return entry.reason
    }

    func testAHostNamingAnotherHostsPasswordIsQuarantined() throws {
        let victim = UUID()
        let forged = Host(label: "web-1", hostname: "web.example", authMethod: .password, passwordRef: .hostPassword(victim))
        let reason = try sendBreaking(forged)
        XCTAssertEqual(reason, "invalid host: Host 'web-1' may only reference its own password (host.\(CanonicalUUID.text(forged.id)).password).")
        XCTAssertNil(try store.host(id: forged.id))
    }

    func testHostileUserNamesAndHostNamesAreQuarantined() throws {
        let user = try sendBreaking(Host(label: "jump", hostname: "jump.example", username: "x$IFS-oProxyCommand=touch\\$IFS/tmp/PWNED"))
        XCTAssertTrue(user.hasPrefix("invalid host: The user name 'x$IFS-oProxyCommand=touch\\$IFS/tmp/PWNED' may contain only"), user)
        let name = try sendBreaking(Host(label: "h", hostname: "a.example\n    ProxyCommand touch /tmp/x"))
        XCTAssertTrue(name.hasPrefix("invalid host: The hostname 'a.example?    ProxyCommand touch /tmp/x' may contain only"), name)
        let option = try sendBreaking(Host(label: "o", hostname: "-oProxyCommand=x"))
        XCTAssertEqual(option, "invalid host: The hostname '-oProxyCommand=x' must not start with '-'.")
        let token = try sendBreaking(Host(label: "t", hostname: "%h.example"))
        XCTAssertTrue(token.hasPrefix("invalid host: The hostname '%h.example' may contain only"), token)
        let bracketed = try sendBreaking(Host(label: "b", hostname: "[::1]"))
        XCTAssertTrue(bracketed.hasPrefix("invalid host: The hostname '[::1]' may contain only"), bracketed)
        XCTAssertEqual(try store.hosts().count, 5, "only the healthy hosts")
    }

    func testPortsLabelsAndSelfJumpsAreQuarantined() throws {
        XCTAssertEqual(try sendBreaking(Host(label: "p", hostname: "p.example", port: 0)), "invalid host: The port must be between 1 and 65535, not 0.")
        XCTAssertEqual(try sendBreaking(Host(label: "p", hostname: "p.example", port: 70_000)), "invalid host: The port must be between 1 and 65535, not 70000.")
        XCTAssertEqual(try sendBreaking(Host(label: "", hostname: "p.example")), "invalid host: A host label must not be empty.")
        let control = try sendBreaking(Host(label: "a\u{1B}[31mb", hostname: "p.example"))
        XCTAssertTrue(control.hasPrefix("invalid host: The host label 'a?[31mb' contains a control"), control)
        let id = UUID()
        XCTAssertEqual(try sendBreaking(Host(id: id, label: "loop", hostname: "l.example", jumpHostID: id)),
                       "invalid host: Host 'loop' would jump through itself (the jump hosts form a loop).")
    }

    func testIdentityUserNamesReferencesAndPublicKeysAreQuarantined() throws {
        let key = Self.publicKey(.ed25519)
        let user = try sendBreaking(Identity(label: "i", username: "a;b", keyType: .ed25519, publicKey: key))
        XCTAssertTrue(user.hasPrefix("invalid identity: The user name 'a;b' may contain only"), user)
        let other = UUID()
        XCTAssertEqual(try sendBreaking(Identity(label: "k", keyType: .ed25519, publicKey: key, privateKeyRef: .identityPrivateKey(other))),
                       "invalid identity: Identity 'k' may only reference its own private key and passphrase.")
        XCTAssertEqual(try sendBreaking(Identity(label: "k", keyType: .ed25519, publicKey: key, passphraseRef: .identityPassphrase(other))),
                       "invalid identity: Identity 'k' may only reference its own private key and passphrase.")
        XCTAssertEqual(try sendBreaking(Identity(label: "k", keyType: .ed25519, publicKey: "ssh-ed25519 AAAA\ncommand=\"id\" ssh-ed25519 AAAA")),
                       "invalid identity: Identity 'k' needs an OpenSSH public key line of type ssh-ed25519.")
        XCTAssertEqual(try sendBreaking(Identity(label: "k", keyType: .ed25519, publicKey: "ssh-rsa AAAA")),
                       "invalid identity: Identity 'k' needs an OpenSSH public key line of type ssh-ed25519.")
        XCTAssertTrue(try store.identities().isEmpty)
    }

    func testForwardBindsDestinationsAndPortsAreQuarantined() throws {
        let host = try saveHost("web")
        let bind = try sendBreaking(PortForwardRule(hostID: host.id, kind: .local, bindAddress: "$(id)", bindPort: 8080, destinationHost: "db", destinationPort: 5432))
        XCTAssertTrue(bind.hasPrefix("invalid forward: The bind address '$(id)' may contain only"), bind)
        let destination = try sendBreaking(PortForwardRule(hostID: host.id, kind: .local, bindPort: 8080, destinationHost: "db\nProxyCommand x", destinationPort: 5432))
        XCTAssertTrue(destination.hasPrefix("invalid forward: The destination host 'db?ProxyCommand x' may contain only"), destination)
        XCTAssertEqual(try sendBreaking(PortForwardRule(hostID: host.id, kind: .local, bindPort: 8080, destinationHost: "db", destinationPort: 0)),
                       "invalid forward: The destination port must be between 1 and 65535, not 0.")
        XCTAssertEqual(try sendBreaking(PortForwardRule(hostID: host.id, kind: .local, bindPort: 99_999, destinationHost: "db", destinationPort: 1)),
                       "invalid forward: The listening port must be between 1 and 65535, not 99999.")
        XCTAssertEqual(try sendBreaking(PortForwardRule(hostID: host.id, kind: .dynamic, bindPort: 1080, destinationHost: "db", destinationPort: 1)),
                       "invalid forward: A dynamic (SOCKS) forward has no destination.")
        XCTAssertEqual(try sendBreaking(PortForwardRule(hostID: host.id, kind: .remote, bindPort: 80)),
                       "invalid forward: A remote forward needs a destination host and port.")
        XCTAssertTrue(try store.forwards().isEmpty)
    }

    func testGroupsAndDevicesAreQuarantined() throws {
        let id = UUID()
        XCTAssertEqual(try sendBreaking(HostGroup(id: id, label: "g", parentID: id)), "invalid group: Group 'g' would contain itself.")
        let device = try sendBreaking(Device(id: UUID(), displayName: "laptop\u{1B}]0;owned\u{7}", firstSeen: 1))
        XCTAssertTrue(device.hasPrefix("invalid device: The device label"), device)
    }

    /// A value of another type where the rules read text (or a number) reads as absent, so no
    /// rule looks at it — and once stored, SQLite hands a blob back as text. Found by the
    /// convergence test's hostile participant: a user name sent as a blob reached every
    /// replica, and the next local edit of that host failed validation.
    func testAValueOfTheWrongTypeIsQuarantined() throws {
        let shell = "x$IFS-oProxyCommand=touch$IFS/tmp/PWNED"
        let otherPassword = "host.\(CanonicalUUID.text(UUID())).password"
        // Columns: label, hostname, port, username, auth_method, identity_id, group_id, jump_host_id, password_ref.
        let retyped: [(Int, SQLValue)] = [(3, .blob(Array(shell.utf8))), (8, .blob(Array(otherPassword.utf8))), (2, .real(22.5)),
                                          (2, .text("22")), (6, .text("not-a-uuid")), (5, .text(CanonicalUUID.text(UUID()).uppercased()))]
        for (column, value) in retyped {
            let host = Host(label: "typed", hostname: "t.example", authMethod: .password)
            var values = host.columnValues.map(\.sqlValue)
            values[column] = value
            let sent = Envelope(recordName: host.recordName, kind: Host.kind, formatVersion: ConfigPayload.formatVersion,
                                version: RecordVersion(clock: 7 << 16, device: "device-a"), deleted: false, incarnation: 0, payload: ConfigPayload.encode(values))
            XCTAssertEqual(try sendBreaking(sent), "invalid host payload: a field holds a value of the wrong type", "column \(column)")
            XCTAssertNil(try store.host(id: host.id))
        }
    }

    /// Whether an identity asks for confirmation is 0 or 1: anything else a peer sends for it
    /// (which would read as yes or no, and be stored as something else) is quarantined.
    func testAConfirmationThatIsNotABooleanIsQuarantined() throws {
        let version = RecordVersion(clock: 7 << 16, device: "device-a")
        for value: SQLValue in [.integer(2), .integer(-1), .text("yes"), .text("1"), .real(1), .blob([1]), .null] {
            let identity = Identity(label: "asks", keyType: .ed25519, publicKey: Self.publicKey(.ed25519))
            var values = identity.columnValues.map(\.sqlValue)
            values[6] = value
            let stamps = [FieldStamp](repeating: .only(version), count: Identity.fieldGroups.count)
            let sent = Envelope(recordName: identity.recordName, kind: Identity.kind, formatVersion: 3, version: version, deleted: false, incarnation: 0,
                                payload: FieldPayload.encode(values, stamps: stamps, groups: Identity.fieldGroups, recordVersion: version))
            XCTAssertEqual(try sendBreaking(sent), "invalid identity payload: a field holds a value of the wrong type", "\(value)")
        }
        XCTAssertTrue(try store.identities().isEmpty)
    }

    func testEveryRuleALocalSaveRefusesIsTheOneMergeApplies() throws {
        // The same record, refused locally with the same message it is quarantined with.
        let hostile = Host(label: "jump", hostname: "jump.example", username: "x$IFS")
        let local = assertConfigError(.invalid, try store.save(hostile))
        let merged = try sendBreaking(hostile)
        XCTAssertEqual(merged, "invalid host: " + (local?.message ?? ""))
    }
}
