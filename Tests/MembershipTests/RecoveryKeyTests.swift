import Foundation
import XCTest
@testable import Membership
import Sodium

/// The recovery key's printable form survives being typed back, and catches a mistyped character.
final class RecoveryKeyTests: XCTestCase {
    private func text(_ secret: SecretBytes) -> String { secret.withUnsafeBytes { String(decoding: $0, as: UTF8.self) } }
    private func key(_ text: String) throws -> RecoveryKey { try RecoveryKey(parsing: try SecretBytes(utf8: text)) }

    func testThePrintableFormRoundTripsAndDerivesTheSameAuthority() throws {
        let original = try RecoveryKey.generate()
        let printed = text(try original.printable())
        XCTAssertNotNil(printed.wholeMatch(of: /[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){6}\n/), "the printable form's shape")
        let read = try key(printed)
        XCTAssertEqual(read.bytes, original.bytes)
        XCTAssertEqual(try read.authority().signing.publicKey, try original.authority().signing.publicKey)
        XCTAssertEqual(try read.authority().box.publicKey, try original.authority().box.publicKey)
        XCTAssertNotEqual(try RecoveryKey.generate().authority().signing.publicKey, try original.authority().signing.publicKey)
    }

    /// Case, dashes, white space and the look-alikes I, L and O do not matter.
    func testTypingVariationsReadTheSameKey() throws {
        let fixed = RecoveryKey(bytes: try SecretBytes(copying: Array(0..<16)))
        let printed = text(try fixed.printable()).trimmingCharacters(in: .newlines)
        let loose = printed.lowercased().replacingOccurrences(of: "-", with: " ").replacingOccurrences(of: "1", with: "l").replacingOccurrences(of: "0", with: "O")
        XCTAssertEqual(try key("  " + loose + "\r\n").bytes, fixed.bytes)
        XCTAssertEqual(try key(printed.replacingOccurrences(of: "-", with: "")).bytes, fixed.bytes)
    }

    func testAMistypedCharacterIsCaughtByTheChecksum() throws {
        let fixed = RecoveryKey(bytes: try SecretBytes(copying: Array(100..<116)))
        let printed = Array(text(try fixed.printable()).utf8)
        let alphabet = Crockford.alphabet
        for index in printed.indices where printed[index] != UInt8(ascii: "-") && printed[index] != 0x0a {
            var typo = printed
            typo[index] = alphabet[(alphabet.firstIndex(of: printed[index])! + 1) % alphabet.count]
            XCTAssertThrowsError(try RecoveryKey(parsing: try SecretBytes(copying: typo)), "position \(index)") {
                XCTAssertEqual(($0 as? MembershipError)?.message, "This recovery key does not check out: a character is mistyped.")
            }
        }
    }

    func testWrongLengthsAndForeignCharactersAreRefusedWithTheRule() throws {
        let printed = text(try RecoveryKey.generate().printable()).trimmingCharacters(in: .newlines)
        for bad in [String(printed.dropLast()), printed + "A", "", printed.replacingOccurrences(of: "-", with: "-U", options: [], range: printed.range(of: "-"))] {
            XCTAssertThrowsError(try key(bad)) { XCTAssertEqual(($0 as? MembershipError)?.code, .invalidRecoveryKey) }
        }
        XCTAssertThrowsError(try key(String(printed.dropLast()))) {
            XCTAssertEqual(($0 as? MembershipError)?.message, "A recovery key has 28 letters and digits, in 7 groups of 4.")
        }
    }
}
