import ConfigTrack
import CredentialVault
import Foundation
import Sodium
import XCTest

/// What `PrivateKeyFile` refuses, and a fuzz-style robustness check.
extension PrivateKeyFileTests {
    /// Writes `bytes` as `name` in the test directory and returns the error loading it throws.
    func loadError(_ bytes: [UInt8], name: String = "key", file: StaticString = #filePath, line: UInt = #line) throws -> VaultError {
        let path = directory + "/" + name
        try KeyFixtures.write(bytes, to: path)
        return try XCTUnwrap(capture({ try PrivateKeyFile.load(path: path) }, file: file, line: line), file: file, line: line)
    }

    func assertRejected(_ bytes: [UInt8], _ reason: String, hint: String? = nil,
                        file: StaticString = #filePath, line: UInt = #line) throws {
        let error = try loadError(bytes, file: file, line: line)
        XCTAssertEqual(error.code, .invalidInput, file: file, line: line)
        XCTAssertEqual(error.message, "Unable to import private key '\(directory)/key': \(reason).", file: file, line: line)
        if let hint { XCTAssertEqual(error.hint, hint, file: file, line: line) }
    }

    func testMissingFileIsNotFound() {
        let error = capture { try PrivateKeyFile.load(path: self.directory + "/absent") }
        XCTAssertEqual(error?.code, .notFound)
        XCTAssertEqual(error?.message, "Unable to read private key '\(directory)/absent': no such file.")
    }

    func testNonRegularAndHugeFilesAreRefused() throws {
        let error = capture { try PrivateKeyFile.load(path: self.directory) }
        XCTAssertEqual(error?.code, .invalidInput)
        XCTAssertEqual(error?.message, "Unable to read private key '\(directory)': it is not a regular file.")
        XCTAssertEqual(try loadError([UInt8](repeating: 0x41, count: (1 << 20) + 1)).code, .invalidInput)
        XCTAssertEqual(capture { try PrivateKeyFile.load(path: "/dev/null") }?.code, .invalidInput)
    }

    func testUnreadableFileIsStorageError() throws {
        let tooLong = directory + "/" + String(repeating: "k", count: 300)
        let error = capture { try PrivateKeyFile.load(path: tooLong) }
        XCTAssertEqual(error?.code, .storage)
        XCTAssertEqual(error?.message, "Unable to read private key '\(tooLong)': open failed: file name too long.")
        guard getuid() != 0 else { return }  // root reads any file
        let path = directory + "/locked"
        try KeyFixtures.write("x", to: path)
        chmod(path, 0)
        XCTAssertEqual(capture { try PrivateKeyFile.load(path: path) }?.code, .storage)
    }

    func testEmptyFile() throws {
        try assertRejected([], "the file is empty")
        try assertRejected(Array(" \n\n".utf8), "it is not an SSH private key")
    }

    func testPublicKeyGivenAsPrivateKey() throws {
        let path = directory + "/id_ed25519"
        try KeyFixtures.generate(path, type: "ed25519")
        let error = try XCTUnwrap(capture { try PrivateKeyFile.load(path: path + ".pub") })
        XCTAssertEqual(error.code, .invalidInput)
        XCTAssertEqual(error.message, "Unable to import private key '\(path).pub': this is a public key; give the private key file.")
        try assertRejected(Array("-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA\n-----END PUBLIC KEY-----\n".utf8),
                           "this is a public key; give the private key file")
        try assertRejected(Array("---- BEGIN SSH2 PUBLIC KEY ----\nAAAA\n---- END SSH2 PUBLIC KEY ----\n".utf8),
                           "this is a public key; give the private key file")
    }

    func testPuTTYKey() throws {
        let ppk = "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: x\nPublic-Lines: 2\nAAAAC3NzaC1lZDI1NTE5\n"
        try assertRejected(Array(ppk.utf8), "PuTTY key: convert with puttygen")
    }

    func testRandomTextAndBinary() throws {
        try assertRejected(Array("Dear diary, today I made a key.\n".utf8), "it is not an SSH private key")
        var generator = KeyFixtures.SeededGenerator(state: 42)
        try assertRejected((0..<512).map { _ in UInt8.random(in: 0...255, using: &generator) }, "it is not an SSH private key")
        try assertRejected(Array("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n".utf8),
                           "its PEM block is not a kind of private key SSH can use")
    }

    func testTruncatedKeys() throws {
        let path = directory + "/id_ed25519"
        try KeyFixtures.generate(path, type: "ed25519")
        let text = try KeyFixtures.text(path)
        // Cut inside the Base64 body: the END line is gone.
        try assertRejected(Array(text.utf8.prefix(text.utf8.count / 2)), "its PEM END line is missing (the file is truncated)")
        // Drop a few Base64 characters but keep the armor: the Base64 no longer decodes.
        var lines = text.split(separator: "\n").map(String.init)
        lines[2] = String(lines[2].dropLast(3))
        try assertRejected(Array(lines.joined(separator: "\n").utf8), "its PEM body is not valid Base64 (the file is truncated or corrupt)")
        // Drop a whole line: valid Base64, truncated key data.
        lines = text.split(separator: "\n").map(String.init)
        lines.remove(at: lines.count - 2)
        let error = try loadError(Array(lines.joined(separator: "\n").utf8))
        XCTAssertEqual(error.code, .invalidInput)
        // Messages never quote the file.
        for line in text.split(separator: "\n").dropFirst().dropLast() {
            XCTAssertFalse(error.message.contains(line) || (error.hint ?? "").contains(line))
        }
    }

    func testOpenSSHStructureChecks() throws {
        let key = [UInt8](repeating: 9, count: 32)
        let good = KeyFixtures.openSSHBlob(publicBlobs: [KeyFixtures.publicBlob(key: key)],
                                           privateSection: KeyFixtures.privateSection(key: key, comment: "hand made"))
        let parsed = try PrivateKeyFile.parse(body: try SecretBytes(copying: Array(KeyFixtures.armor(good).utf8)), publicKeyLine: nil)
        XCTAssertEqual(parsed.publicKey, "ssh-ed25519 \(Base64.encode(KeyFixtures.publicBlob(key: key))) hand made")
        XCTAssertEqual(parsed.keyType, .ed25519)

        let two = KeyFixtures.openSSHBlob(publicBlobs: [KeyFixtures.publicBlob(key: key), KeyFixtures.publicBlob(key: key)],
                                          privateSection: KeyFixtures.privateSection(key: key, comment: ""))
        try assertRejected(Array(KeyFixtures.armor(two).utf8), "it holds more than one key")
        let none = KeyFixtures.openSSHBlob(publicBlobs: [], privateSection: KeyFixtures.privateSection(key: key, comment: ""))
        try assertRejected(Array(KeyFixtures.armor(none).utf8), "it holds no key")

        let unknown = KeyFixtures.openSSHBlob(publicBlobs: [KeyFixtures.publicBlob(type: "ssh-foo", key: key)],
                                              privateSection: KeyFixtures.privateSection(type: "ssh-foo", key: key, comment: ""))
        try assertRejected(Array(KeyFixtures.armor(unknown).utf8), "its key type is not supported")

        let short = [UInt8](repeating: 9, count: 31)
        let shortKey = KeyFixtures.openSSHBlob(publicBlobs: [KeyFixtures.publicBlob(key: short)],
                                               privateSection: KeyFixtures.privateSection(key: short, comment: ""))
        try assertRejected(Array(KeyFixtures.armor(shortKey).utf8), "its public key data is malformed")

        let badCheck = KeyFixtures.openSSHBlob(publicBlobs: [KeyFixtures.publicBlob(key: key)],
                                               privateSection: KeyFixtures.privateSection(key: key, comment: "", checks: (1, 2)))
        try assertRejected(Array(KeyFixtures.armor(badCheck).utf8), "its check numbers differ (the key is corrupt)")

        let otherKey = KeyFixtures.openSSHBlob(publicBlobs: [KeyFixtures.publicBlob(key: key)],
                                               privateSection: KeyFixtures.privateSection(key: [UInt8](repeating: 8, count: 32), comment: ""))
        try assertRejected(Array(KeyFixtures.armor(otherKey).utf8), "its private part does not match its public part")

        let badLabel = KeyFixtures.armor(good).replacingOccurrences(of: "END OPENSSH", with: "END RSA")
        try assertRejected(Array(badLabel.utf8), "its PEM END line does not match its BEGIN line")
        try assertRejected(Array((KeyFixtures.armor(good) + "extra\n").utf8), "it holds data after the PEM END line")
    }

    func testParseThrowsOnlyVaultErrorWithoutPath() throws {
        let error = capture { try PrivateKeyFile.parse(body: try SecretBytes(utf8: "ssh-ed25519 AAAAC3Nz x"), publicKeyLine: nil) }
        XCTAssertEqual(error?.message, "Unable to import private key: this is a public key; give the private key file.")
    }

    /// ~2000 mutations of valid keys (OpenSSH, SEC 1 PEM, PKCS#8), at the text and at the
    /// decoded level: none may crash, and every failure must be a `VaultError`.
    /// `PKF_FUZZ_ROUNDS` raises the count for a longer local run.
    func testMutationsNeverCrash() throws {
        var corpus: [(text: [UInt8], label: String, decoded: [UInt8], publicLine: String)] = []
        for (name, type, format) in [("ed", "ed25519", "RFC4716"), ("ec", "ecdsa", "PEM"), ("p8", "ecdsa", "PKCS8")] {
            let path = directory + "/" + name
            try KeyFixtures.generate(path, type: type, format: format, comment: "fuzz")
            let lines = try KeyFixtures.text(path).split(separator: "\n")
            let label = String(lines[0].dropFirst("-----BEGIN ".count).dropLast("-----".count))
            let decoded = try XCTUnwrap(Base64.decode(lines.dropFirst().dropLast().joined()))
            corpus.append((try KeyFixtures.bytes(path), label, decoded, try KeyFixtures.text(path + ".pub")))
        }
        let rounds = ProcessInfo.processInfo.environment["PKF_FUZZ_ROUNDS"].flatMap { Int($0) } ?? 2000
        var generator = KeyFixtures.SeededGenerator(state: 2024)
        var accepted = 0
        for round in 0..<rounds {
            let seed = corpus[round % corpus.count]
            let input = (round / corpus.count) % 2 == 0
                ? mutate(seed.text, using: &generator)
                : Array(KeyFixtures.armor(mutate(seed.decoded, using: &generator), label: seed.label).utf8)
            let publicLine: String? = seed.label != "OPENSSH PRIVATE KEY" || round % 5 == 0 ? seed.publicLine : nil
            do {
                _ = try PrivateKeyFile.parse(body: try SecretBytes(copying: input), publicKeyLine: publicLine)
                accepted += 1
            } catch is VaultError {
                continue
            } catch {
                XCTFail("round \(round): unexpected error \(error)")
            }
        }
        // Some mutations (private scalars, comment bytes) are undetectable without the key; most are caught.
        XCTAssertLessThan(accepted, rounds / 2)
    }

    private func mutate(_ bytes: [UInt8], using generator: inout KeyFixtures.SeededGenerator) -> [UInt8] {
        var result = bytes
        switch Int.random(in: 0..<4, using: &generator) {
        case 0:
            result = Array(result.prefix(Int.random(in: 0..<result.count, using: &generator)))
        case 1:
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let index = Int.random(in: 0..<result.count, using: &generator)
                result[index] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &generator)
            }
        case 2:
            let index = Int.random(in: 0..<result.count, using: &generator)
            result[index] = UInt8.random(in: 0...255, using: &generator)
        default:
            // Overwrite a 32-bit word with an extreme length.
            let index = Int.random(in: 0..<max(1, result.count - 4), using: &generator)
            let value: [UInt8] = [[0xFF, 0xFF, 0xFF, 0xFF], [0x7F, 0xFF, 0xFF, 0xFF], [0, 0, 0, 0], [0, 0, 1, 0]][Int.random(in: 0..<4, using: &generator)]
            for offset in 0..<min(4, result.count - index) { result[index + offset] = value[offset] }
        }
        return result
    }
}
