import Foundation
import Sodium
import TestSupport
import XCTest
@testable import CredentialVault

/// No secret byte sequence — raw, hex or Base64 — may appear in any file of the vault: config
/// holds references only, and the secret track holds sealed bodies only.
final class SecretLeakTests: VaultTestCase {
    func testNoSecretAppearsInAnyVaultFile() throws {
        let vault = try makeVault()
        var secrets: [[UInt8]] = []
        for index in 0..<5 {
            let password = Array("pw-\(index)-".utf8) + Random.bytes(count: 24)
            secrets.append(password)
            try vault.addHost(Host(label: "host-\(index)", hostname: "h\(index).example"), password: try SecretBytes(copying: password))
        }
        let plainKey = directory + "/id_ed25519"
        try KeyFixtures.generate(plainKey, type: "ed25519")
        try vault.addIdentity(label: "plain", privateKeyPath: plainKey)
        let encryptedKey = directory + "/id_ecdsa"
        try KeyFixtures.generate(encryptedKey, type: "ecdsa", passphrase: "s3cret-key-passphrase")
        try vault.addIdentity(label: "encrypted", privateKeyPath: encryptedKey, passphrase: try secret("s3cret-key-passphrase"))
        secrets.append(Array("s3cret-key-passphrase".utf8))
        for path in [plainKey, encryptedKey] {
            let file = try KeyFixtures.bytes(path)
            secrets.append(file)
            // The armoured body lines, and the decoded key bytes, are each secret too — except
            // the lines that only encode the public key (they may match the .pub text).
            let lines = String(decoding: file, as: UTF8.self).split(separator: "\n").filter { !$0.hasPrefix("-----") }
            let publicText = try KeyFixtures.text(path + ".pub")
            secrets += lines.filter { $0.count >= 40 && !publicText.contains($0) }.map { Array($0.utf8) }
            let decoded = try XCTUnwrap(Base64.decode(lines.joined()))
            secrets.append(Array(decoded.suffix(64)))
        }

        try assertAbsent(secrets, while: "the vault is open (WAL files present)")
        _ = vault  // keep it open until here
        try assertAbsent(secrets, while: "a second handle reads it")
    }

    private func assertAbsent(_ secrets: [[UInt8]], while moment: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: vaultPath)
        XCTAssertTrue(names.contains("config.sqlite"))
        XCTAssertTrue(names.contains("secrets.sqlite"))
        for name in names {
            let contents = Array(try Data(contentsOf: URL(fileURLWithPath: vaultPath + "/" + name)))
            XCTAssertNil(SecretScan.find(secrets, in: contents), "in \(name) while \(moment)", file: file, line: line)
        }
        _ = try reopen().hosts()
    }
}
