import Foundation
import Sodium
import XCTest
@testable import SecretTrack

/// No body, key or passphrase may reach `secrets.sqlite` (or its WAL) in any plain encoding.
final class SecretStorePlaintextTests: SecretTestCase {
    let passphraseText = "plaintext-probe passphrase 7f3k"

    /// The spellings of `bytes` a careless implementation might write.
    func encodings(_ bytes: [UInt8]) -> [(String, [UInt8])] {
        [("raw", bytes), ("hex", Array(hexString(bytes).utf8)), ("HEX", Array(hexString(bytes).uppercased().utf8)),
         ("base64", Array(Base64.encode(bytes).utf8))]
    }

    func assertNotOnDisk(_ secrets: [[UInt8]], _ moment: String, file: StaticString = #filePath, line: UInt = #line) {
        let paths = [databasePath, databasePath + "-wal"]
        for (index, secret) in secrets.enumerated() {
            for (name, needle) in encodings(secret) {
                for path in paths where self.file(path, contains: needle) {
                    // Name the encoding and file only; never print the secret.
                    XCTFail("\(moment): secret \(index) appears (\(name)) in \(path)", file: file, line: line)
                }
            }
        }
    }

    /// The search works: a value stored in clear (the reference) is found.
    func assertSearchFinds(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        let found = [databasePath, databasePath + "-wal"].contains { self.file($0, contains: Array(text.utf8)) }
        XCTAssertTrue(found, "the probe did not find the plain reference; the search is broken", file: file, line: line)
    }

    func testNoPlaintextAfterPutsAndAfterReopen() throws {
        // Distinctive 32-byte secrets, one per availability, each with 0x00 inside.
        var deviceOnly = Random.bytes(count: 32)
        deviceOnly[5] = 0
        let syncable = Random.bytes(count: 32)
        let local = Self.reference()
        let synced = Self.reference("privkey")

        var store: SecretStore? = try makeStore(try Self.passphrase(passphraseText))
        try store!.put(try Self.secret(deviceOnly), for: local)
        try store!.put(try Self.secret(syncable), for: synced, availability: .syncable)
        XCTAssertTrue(FileManager.default.fileExists(atPath: databasePath + "-wal"), "the edits are in the WAL")
        assertSearchFinds(local)
        assertNotOnDisk([deviceOnly, syncable, Array(passphraseText.utf8)], "after put")

        // Replace one body so an old and a new ciphertext both exist.
        try store!.put(try Self.secret(deviceOnly.reversed()), for: local)
        assertNotOnDisk([deviceOnly, deviceOnly.reversed(), syncable, Array(passphraseText.utf8)], "after replace")
        store = nil

        store = try SecretStore.open(at: databasePath)
        try store!.unlock(try Self.passphrase(passphraseText))
        XCTAssertTrue(try store!.read(synced) == (try Self.secret(syncable)))
        assertSearchFinds(synced)
        assertNotOnDisk([deviceOnly, deviceOnly.reversed(), syncable, Array(passphraseText.utf8)], "after reopen")
        store = nil
        assertNotOnDisk([deviceOnly, deviceOnly.reversed(), syncable, Array(passphraseText.utf8)], "after close")
    }

    func testKeyFileContentsAreNotStored() throws {
        let keyPath = directory + "/vault.key"
        try KeyFile.create(at: keyPath)
        let keyText = try XCTUnwrap(FileManager.default.contents(atPath: keyPath))
        let keyBytes = try XCTUnwrap(Base64.decode(String(decoding: keyText, as: UTF8.self)))
        var store: SecretStore? = try makeStore(.keyFile(try KeyFile.read(at: keyPath)))
        try store!.put(try SecretBytes(utf8: "x"), for: Self.reference())
        store = nil
        assertNotOnDisk([Array(keyText), keyBytes], "key file store")
    }
}
