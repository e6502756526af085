import Foundation
import Sodium
import XCTest
@testable import SecretTrack

final class KeyFileTests: SecretTestCase {
    var keyPath: String { directory + "/vault.key" }

    /// Writes `contents` to the key path with mode 0600.
    func writeFile(_ contents: Data) throws {
        try contents.write(to: URL(fileURLWithPath: keyPath))
        XCTAssertEqual(chmod(keyPath, 0o600), 0)
    }

    func testCreateWritesAPrivateBase64Key() throws {
        let previous = umask(0)
        defer { umask(previous) }
        try KeyFile.create(at: keyPath)
        XCTAssertEqual(permissions(keyPath), 0o600)
        let text = try XCTUnwrap(FileManager.default.contents(atPath: keyPath))
        XCTAssertEqual(text.count, 45, "44 Base64 characters and a newline")
        XCTAssertEqual(text.last, UInt8(ascii: "\n"))
        XCTAssertEqual(Base64.decode(String(decoding: text.dropLast(), as: UTF8.self))?.count, 32)
        XCTAssertEqual(try KeyFile.read(at: keyPath).count, 45)
    }

    /// The key file appears whole or not at all: until the written and synced key is published
    /// (link), nothing is at the path, so a process killed on the way leaves no empty key file
    /// for the next init to refuse; and no temporary name is left behind.
    func testAKeyFileAppearsWholeOrNotAtAll() throws {
        var seen: (pathExisted: Bool, partialSize: Int?)?
        KeyFile.beforePublishing = { [keyPath] temporary in
            seen = (FileManager.default.fileExists(atPath: keyPath), FileManager.default.contents(atPath: temporary)?.count)
        }
        defer { KeyFile.beforePublishing = nil }
        try KeyFile.create(at: keyPath)
        XCTAssertEqual(seen?.pathExisted, false)
        XCTAssertEqual(seen?.partialSize, 45)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.contains(".partial-") }, [])
        // A key file already there is kept, and the refused key leaves nothing behind either.
        let kept = try KeyFile.read(at: keyPath)
        assertSecretError(.storage, try KeyFile.create(at: keyPath))
        XCTAssertTrue(try KeyFile.read(at: keyPath) == kept)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.contains(".partial-") }, [])
    }

    func testTwoKeyFilesDiffer() throws {
        try KeyFile.create(at: keyPath)
        try KeyFile.create(at: directory + "/other.key")
        XCTAssertFalse(try KeyFile.read(at: keyPath) == (try KeyFile.read(at: directory + "/other.key")))
    }

    func testCreateNeverOverwrites() throws {
        try writeFile(Data("keep me, I am a key file".utf8))
        let error = assertSecretError(.storage, try KeyFile.create(at: keyPath))
        XCTAssertEqual(error?.message, "The key file \(keyPath) already exists.")
        XCTAssertEqual(FileManager.default.contents(atPath: keyPath), Data("keep me, I am a key file".utf8))
        XCTAssertEqual(permissions(keyPath), 0o600)
    }

    func testCreateInAMissingDirectoryFails() {
        assertSecretError(.storage, try KeyFile.create(at: directory + "/missing/vault.key"))
    }

    func testReadRefusesAFileOthersCanAccess() throws {
        try KeyFile.create(at: keyPath)
        for mode: mode_t in [0o644, 0o640, 0o604, 0o606, 0o660] {
            XCTAssertEqual(chmod(keyPath, mode), 0)
            let error = assertSecretError(.invalid, try KeyFile.read(at: keyPath), String(mode, radix: 8))
            XCTAssertEqual(error?.message, "The key file \(keyPath) is accessible by other users (mode \(String(mode, radix: 8))).")
            XCTAssertEqual(error?.hint, "Run: chmod 600 \(keyPath)")
        }
        XCTAssertEqual(chmod(keyPath, 0o400), 0)
        XCTAssertNoThrow(try KeyFile.read(at: keyPath))
    }

    func testReadRefusesAShortFile() throws {
        try writeFile(Data(repeating: 0x41, count: 15))
        let error = assertSecretError(.invalid, try KeyFile.read(at: keyPath))
        XCTAssertEqual(error?.message, "The key file \(keyPath) is too short to be a key (15 bytes; at least 16 needed).")

        try writeFile(Data())
        assertSecretError(.invalid, try KeyFile.read(at: keyPath))

        try writeFile(Data(repeating: 0x41, count: 16))
        XCTAssertEqual(try KeyFile.read(at: keyPath).count, 16)
    }

    func testReadRefusesAHugeFile() throws {
        try writeFile(Data(repeating: 0x41, count: (64 << 10) + 1))
        assertSecretError(.invalid, try KeyFile.read(at: keyPath))
    }

    func testReadOfAMissingFileLeavesTheStoreLocked() {
        let error = assertSecretError(.locked, try KeyFile.read(at: keyPath))
        XCTAssertEqual(error?.message, "The key file \(keyPath) does not exist.")
        XCTAssertEqual(error?.hint, "Give the key file the vault was created with.")
    }

    func testReadRefusesASymlinkAndAnotherUsersFile() throws {
        try KeyFile.create(at: keyPath)
        let link = keyPath + ".link"
        XCTAssertEqual(symlink(keyPath, link), 0)
        let linked = assertSecretError(.invalid, try KeyFile.read(at: link))
        XCTAssertEqual(linked?.message, "The key file \(link) is a symbolic link.")
        XCTAssertEqual(linked?.hint, "Give the path of the key file itself.")
        guard getuid() == 0 else { throw XCTSkip("giving a file to another user needs root") }
        XCTAssertEqual(chown(keyPath, 65534, 65534), 0)
        let error = assertSecretError(.invalid, try KeyFile.read(at: keyPath))
        XCTAssertEqual(error?.message, "The key file \(keyPath) belongs to another user.")
    }

    func testReadRefusesADirectory() throws {
        try FileManager.default.createDirectory(atPath: keyPath, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        assertSecretError(.invalid, try KeyFile.read(at: keyPath))
    }
}

extension KeyFileTests {
    /// The file at the path is replaced — by a link to a file with other contents, then by
    /// that file itself — between the checks and the read: what is read is still the file that
    /// was checked, because it is read through the descriptor the checks were made on.
    func testAKeyFileSwappedAfterItsChecksIsNotRead() throws {
        try writeFile(Data("the checked key file, 32 bytes..".utf8))
        let other = directory + "/other"
        try Data("a file nobody checked, readable by all".utf8).write(to: URL(fileURLWithPath: other))
        XCTAssertEqual(chmod(other, 0o644), 0)
        defer { KeyFile.afterChecks = nil }
        for replaceWithLink in [true, false] {
            try writeFile(Data("the checked key file, 32 bytes..".utf8))
            var swapped = false
            KeyFile.afterChecks = { path in
                XCTAssertEqual(rename(path, path + ".old"), 0)
                XCTAssertEqual(replaceWithLink ? symlink(other, path) : link(other, path), 0)
                swapped = true
            }
            let read = try KeyFile.read(at: keyPath)
            XCTAssertTrue(swapped)
            XCTAssertEqual(read.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }, "the checked key file, 32 bytes..")
            KeyFile.afterChecks = nil
            // Read again by name, the link or the open file is refused.
            if replaceWithLink {
                let error = assertSecretError(.invalid, try KeyFile.read(at: keyPath))
                XCTAssertEqual(error?.message, "The key file \(keyPath) is a symbolic link.")
            } else {
                assertSecretError(.invalid, try KeyFile.read(at: keyPath))
            }
            XCTAssertEqual(unlink(keyPath), 0)
            XCTAssertEqual(unlink(keyPath + ".old"), 0)
        }
    }
}
