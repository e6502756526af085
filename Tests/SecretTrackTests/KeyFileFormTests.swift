import Sodium
import XCTest
@testable import SecretTrack

/// The same key opens its slot in every form a key file reaches the disk in (raw, Base64 with
/// or without its newline, CRLF, blank lines, URL-safe), slots made under the earlier rule
/// (the file's exact bytes hashed) still open, and anything that holds no key is refused.
final class KeyFileFormTests: XCTestCase {
    private let storeID = "store-1"

    private func secret(_ text: String) throws -> SecretBytes { try SecretBytes(copying: Array(text.utf8)) }

    private func forms(of key: [UInt8]) -> [[UInt8]] {
        let text = Base64.encode(key)
        let urlSafe = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        return [key, Array(text.utf8), Array((text + "\n").utf8), Array((text + "\r\n\r\n").utf8), Array(("  \n" + text + " \t\n\n").utf8),
                Array(text.replacingOccurrences(of: "=", with: "").utf8), Array(urlSafe.utf8), Array((urlSafe + "\n").utf8)]
    }

    /// A key whose Base64 text has both `+` and `/`, so the URL-safe form really differs.
    private func keyWithBothAlphabets() -> [UInt8] {
        var key = [UInt8](repeating: 0, count: 32)
        key[0] = 0xFB; key[1] = 0xFF; key[2] = 0xBF
        for index in 3..<32 { key[index] = UInt8(index * 7 & 0xFF) }
        return key
    }

    func testEveryFormOfTheKeyOpensANewSlot() throws {
        let key = keyWithBothAlphabets()
        XCTAssertTrue(Base64.encode(key).contains("+") && Base64.encode(key).contains("/"))
        let keys = try VaultKeys.generate()
        let slot = try KeySlot.make(for: .keyFile(try SecretBytes(copying: Array((Base64.encode(key) + "\n").utf8))), keys: keys, storeID: storeID, kdf: .insecureForTesting())
        for form in forms(of: key) {
            let opened = try slot.open(with: .keyFile(try SecretBytes(copying: form)), storeID: storeID)
            XCTAssertTrue(opened.vaultKey == keys.vaultKey, String(decoding: form, as: UTF8.self).debugDescription)
        }
    }

    func testASlotOfTheEarlierRuleOpensFromItsExactBytesAndFromAnyFormOfACredctlKey() throws {
        let keys = try VaultKeys.generate()
        // A key file credctl wrote: one line of Base64 and a newline, hashed as it was.
        let key = keyWithBothAlphabets()
        let written = try KeySlot.wrap(keys, for: .keyFile(try secret(Base64.encode(key) + "\n")), storeID: storeID, kdf: nil)
        for form in forms(of: key) {
            XCTAssertTrue(try written.open(with: .keyFile(try SecretBytes(copying: form)), storeID: storeID).deviceKey == keys.deviceKey)
        }
        // A file of the user's own making (64 random bytes): it opens from those bytes only.
        let own = try SecretBytes.random(count: 64)
        let ownSlot = try KeySlot.wrap(keys, for: .keyFile(own), storeID: storeID, kdf: nil)
        XCTAssertTrue(try ownSlot.open(with: .keyFile(own), storeID: storeID).vaultKey == keys.vaultKey)
        XCTAssertThrowsError(try ownSlot.open(with: .keyFile(try SecretBytes.random(count: 64)), storeID: storeID)) { error in
            XCTAssertEqual((error as? SecretError)?.code, .invalid, "bytes that hold no key are said to be no key file")
        }
    }

    func testAnotherKeyIsWrongAndContentsThatHoldNoKeyAreRefused() throws {
        let keys = try VaultKeys.generate()
        let slot = try KeySlot.make(for: .keyFile(try SecretBytes.random(count: 32)), keys: keys, storeID: storeID, kdf: .insecureForTesting())
        XCTAssertThrowsError(try slot.open(with: .keyFile(try SecretBytes.random(count: 32)), storeID: storeID)) { error in
            XCTAssertEqual((error as? SecretError)?.code, .wrongKey)
        }
        for junk in ["not base64 at all, just a sentence long enough", Base64.encode([UInt8](repeating: 7, count: 31)),
                     Base64.encode([UInt8](repeating: 7, count: 33)), String(repeating: "A", count: 300)] {
            XCTAssertThrowsError(try KeySlot.make(for: .keyFile(try secret(junk)), keys: keys, storeID: storeID, kdf: .insecureForTesting()), junk) { error in
                XCTAssertEqual((error as? SecretError)?.code, .invalid)
                XCTAssertTrue((error as? SecretError)?.message.contains("32-byte key") == true)
            }
        }
    }
}
