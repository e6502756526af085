import Foundation
import SQLite
import Sodium
import XCTest
@testable import SecretTrack

/// Changes made to `secrets.sqlite` behind the store's back must never yield a body.
final class SecretStoreTamperingTests: SecretTestCase {
    var store: SecretStore!
    let first = SecretTestCase.reference()
    let second = SecretTestCase.reference("privkey")

    override func setUpWithError() throws {
        try super.setUpWithError()
        store = try makeStore()
        try store.put(try SecretBytes(utf8: "first body"), for: first)
        try store.put(try SecretBytes(utf8: "second body"), for: second)
    }

    override func tearDownWithError() throws {
        store = nil
        try super.tearDownWithError()
    }

    func tamper(_ sql: String, _ arguments: [SQLBindable] = []) throws {
        try rawConnection().run(sql, arguments)
    }

    func sealedBody(_ reference: String) throws -> [UInt8] {
        try XCTUnwrap(try rawConnection().queryFirst("SELECT sealed_body FROM secret_items WHERE reference = ?", [reference]) { $0.blob(0) } ?? nil)
    }

    func testFlippedCiphertextByteFailsAuthentication() throws {
        let original = try sealedBody(first)
        for index in [original.count - 1, original.count / 2, 30, 4] {
            var sealed = original
            sealed[index] ^= 0x01
            try tamper("UPDATE secret_items SET sealed_body = ? WHERE reference = ?", [sealed, first])
            let error = assertSecretError(.authenticationFailed, try store.read(first), "byte \(index)")
            XCTAssertTrue(error?.message.hasPrefix("The stored secret \(first) failed authentication") ?? false, error?.message ?? "")
            XCTAssertEqual(error?.hint, "The secrets database was altered or damaged; restore it from a backup or set the secret again.")
        }
        try tamper("UPDATE secret_items SET sealed_body = ? WHERE reference = ?", [original, first])
        XCTAssertTrue(try store.read(first) == (try SecretBytes(utf8: "first body")), "the untouched blob still opens")
    }

    func testDamagedHeaderAndTruncationFailAuthentication() throws {
        let original = try sealedBody(first)
        for damaged in [Array(original.dropLast()), Array(original.prefix(10)), [], [UInt8](repeating: 0, count: original.count)] {
            try tamper("UPDATE secret_items SET sealed_body = ? WHERE reference = ?", [damaged, first])
            assertSecretError(.authenticationFailed, try store.read(first), "\(damaged.count) bytes")
        }
        var wrongHeader = original
        wrongHeader[0] ^= 0xFF
        try tamper("UPDATE secret_items SET sealed_body = ? WHERE reference = ?", [wrongHeader, first])
        assertSecretError(.authenticationFailed, try store.read(first))
    }

    func testSwappedBodiesFailAuthentication() throws {
        let a = try sealedBody(first)
        let b = try sealedBody(second)
        try tamper("UPDATE secret_items SET sealed_body = ? WHERE reference = ?", [b, first])
        try tamper("UPDATE secret_items SET sealed_body = ? WHERE reference = ?", [a, second])
        assertSecretError(.authenticationFailed, try store.read(first))
        assertSecretError(.authenticationFailed, try store.read(second))
    }

    func testACopiedRowDoesNotOpenUnderAnotherName() throws {
        let copy = Self.reference()
        try tamper("""
            INSERT INTO secret_items (reference, availability, pinned, incarnation, version_clock, version_device, sealed_body)
            SELECT ?, availability, pinned, incarnation, version_clock, version_device, sealed_body FROM secret_items WHERE reference = ?
            """, [copy, first])
        guard case .present = try store.state(of: copy) else { return XCTFail("the copied row should be visible") }
        assertSecretError(.authenticationFailed, try store.read(copy))
        XCTAssertTrue(try store.read(first) == (try SecretBytes(utf8: "first body")))
    }

    func testChangedMetadataFailsAuthentication() throws {
        let changes = [
            "UPDATE secret_items SET incarnation = incarnation + 1 WHERE reference = ?",
            "UPDATE secret_items SET version_clock = version_clock + 1 WHERE reference = ?",
            "UPDATE secret_items SET version_device = '22222222-2222-4222-8222-222222222222' WHERE reference = ?",
            "UPDATE secret_items SET availability = 'syncable' WHERE reference = ?",
        ]
        let original = try rawConnection().query("SELECT incarnation, version_clock, version_device, availability FROM secret_items WHERE reference = ?", [first]) {
            ($0.int64(0), $0.int64(1), $0.text(2) ?? "", $0.text(3) ?? "")
        }.first!
        for sql in changes {
            try tamper(sql, [first])
            assertSecretError(.authenticationFailed, try store.read(first), sql)
            try tamper("UPDATE secret_items SET incarnation = ?, version_clock = ?, version_device = ?, availability = ? WHERE reference = ?",
                       [original.0, original.1, original.2, original.3, first])
            XCTAssertTrue(try store.read(first) == (try SecretBytes(utf8: "first body")), sql)
        }
    }

    func testTamperingDoesNotStopOtherReads() throws {
        try tamper("UPDATE secret_items SET sealed_body = x'00' WHERE reference = ?", [first])
        XCTAssertTrue(try store.read(second) == (try SecretBytes(utf8: "second body")))
        XCTAssertEqual(try store.counts().deviceOnly, 2)
    }
}
