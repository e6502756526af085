import ConfigTrack
import Foundation
import Replication
import XCTest
import struct Identifiers.UUID

/// Foundation on Linux has a `Host` class too; in these tests `Host` is always the config record.
typealias Host = ConfigTrack.Host

/// Base class for config-store suites: each test gets a fresh private directory (mkdtemp) with a
/// new `config.sqlite` in it, removed again in `tearDown`.
class ConfigTestCase: XCTestCase {
    static let deviceID = "0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9"

    private(set) var directory = ""
    var store: ConfigStore!

    var databasePath: String { directory + "/config.sqlite" }

    override func setUpWithError() throws {
        try super.setUpWithError()
        directory = try makeTemporaryDirectory(prefix: "config-tests")
        store = try ConfigStore.create(at: databasePath, deviceID: Self.deviceID)
    }

    override func tearDownWithError() throws {
        store = nil
        if !directory.isEmpty { try FileManager.default.removeItem(atPath: directory) }
        directory = ""
        try super.tearDownWithError()
    }

    /// Closes the store and opens the same file again.
    func reopen() throws {
        store = nil
        store = try ConfigStore.open(at: databasePath)
    }

    // MARK: - Fixtures

    @discardableResult
    func saveHost(_ label: String, hostname: String = "example.org", groupID: UUID? = nil, jumpHostID: UUID? = nil,
                  identityID: UUID? = nil) throws -> Host {
        try store.save(Host(label: label, hostname: hostname, identityID: identityID, groupID: groupID, jumpHostID: jumpHostID))
    }

    @discardableResult
    func saveGroup(_ label: String, parentID: UUID? = nil) throws -> HostGroup {
        try store.save(HostGroup(label: label, parentID: parentID))
    }

    @discardableResult
    func saveIdentity(_ label: String, keyType: KeyType = .ed25519) throws -> Identity {
        try store.save(Identity(label: label, keyType: keyType, publicKey: Self.publicKey(keyType)))
    }

    /// A well-formed public key line of `type` (the key material is a fixed dummy).
    static func publicKey(_ type: KeyType, comment: String = "user@laptop") -> String {
        "\(type.rawValue) AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl \(comment)"
    }

    /// The pending journal entry for `recordName`, if any.
    func pendingEntry(_ recordName: String) throws -> JournalEntry? {
        try store.pendingJournal().first { $0.recordName == recordName }
    }
}

/// Makes a private temporary directory with mkdtemp.
func makeTemporaryDirectory(prefix: String) throws -> String {
    var template = Array((NSTemporaryDirectory() + "/\(prefix).XXXXXX").utf8CString)
    guard let created = mkdtemp(&template) else {
        throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "mkdtemp failed (errno \(errno))"])
    }
    return String(cString: created)
}

/// The canonical record name of a record (`<kind>/<lowercase uuid>`).
func recordName(_ kind: String, _ id: UUID) -> String { "\(kind)/\(id.uuidString.lowercased())" }

/// Asserts that `expression` throws a `ConfigError` with exactly `code`, and returns the error.
@discardableResult
func assertConfigError<T>(_ code: ConfigError.Code, _ expression: @autoclosure () throws -> T, _ message: String = "",
                          file: StaticString = #filePath, line: UInt = #line) -> ConfigError? {
    var caught: ConfigError?
    XCTAssertThrowsError(try expression(), message, file: file, line: line) { error in
        caught = error as? ConfigError
        XCTAssertEqual(caught?.code, code, "\(message) — got \(error)", file: file, line: line)
    }
    return caught
}
