import XCTest
@testable import Sodium

/// Ed25519 signatures, X25519 sealed boxes and size-bucket padding: the primitives devices use
/// to sign what they write and to receive epoch keys (docs/devices.md).
final class DeviceKeyPrimitivesTests: XCTestCase {
    /// RFC 8032, section 7.1, test 1 (an empty message) and test 2 (one byte).
    func testEd25519KnownAnswers() throws {
        let vectors = [
            ("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60", "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
             "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"),
            ("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb", "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
             "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"),
        ]
        for (seed, publicKey, message, signature) in vectors {
            let pair = try SigningKeyPair(seed: try SecretBytes(copying: hexBytes(seed)))
            XCTAssertEqual(pair.publicKey, hexBytes(publicKey))
            XCTAssertEqual(pair.sign(hexBytes(message)), hexBytes(signature))
            XCTAssertTrue(SigningKeyPair.verify(hexBytes(signature), of: hexBytes(message), publicKey: hexBytes(publicKey)))
        }
    }

    /// Any change to the message, the signature or the key fails, and malformed inputs from the
    /// remote are just "does not verify".
    func testAnAlteredSignatureMessageOrKeyDoesNotVerify() throws {
        let pair = try SigningKeyPair.generate()
        let other = try SigningKeyPair.generate()
        let message = Array("zones/config/device/00000000000000000001.batch".utf8)
        let signature = pair.sign(message)
        XCTAssertTrue(SigningKeyPair.verify(signature, of: message, publicKey: pair.publicKey))
        var flipped = signature
        flipped[10] ^= 1
        XCTAssertFalse(SigningKeyPair.verify(flipped, of: message, publicKey: pair.publicKey))
        XCTAssertFalse(SigningKeyPair.verify(signature, of: message + [0], publicKey: pair.publicKey))
        XCTAssertFalse(SigningKeyPair.verify(signature, of: message, publicKey: other.publicKey))
        XCTAssertFalse(SigningKeyPair.verify(Array(signature.prefix(63)), of: message, publicKey: pair.publicKey))
        XCTAssertFalse(SigningKeyPair.verify(signature, of: message, publicKey: [UInt8](repeating: 0, count: 31)))
        XCTAssertThrowsError(try SigningKeyPair(seed: try SecretBytes.random(count: 31)))
        XCTAssertEqual(try SigningKeyPair(seed: pair.seed).publicKey, pair.publicKey, "the seed is all that needs storing")
    }

    func testASealedBoxOpensOnlyForItsRecipient() throws {
        let recipient = try BoxKeyPair.generate()
        let other = try BoxKeyPair.generate()
        let key = try SecretBytes.random(count: 32)
        let sealed = try BoxKeyPair.seal(key, to: recipient.publicKey)
        XCTAssertEqual(sealed.count, 32 + BoxKeyPair.overhead)
        XCTAssertEqual(try recipient.open(sealed), key)
        XCTAssertNotEqual(try BoxKeyPair.seal(key, to: recipient.publicKey), sealed, "a fresh ephemeral key every time")
        for bad in [try BoxKeyPair.seal(key, to: other.publicKey), Array(sealed.dropLast()), Array(sealed.prefix(BoxKeyPair.overhead)), []] {
            XCTAssertThrowsError(try recipient.open(bad)) { XCTAssertEqual(($0 as? SodiumError)?.code, .authenticationFailed) }
        }
        var altered = sealed
        altered[40] ^= 1
        XCTAssertThrowsError(try recipient.open(altered))
        XCTAssertThrowsError(try BoxKeyPair.seal(key, to: [1, 2, 3]))
        XCTAssertEqual(try BoxKeyPair(seed: recipient.seed).publicKey, recipient.publicKey)
    }

    func testPaddingFillsBucketsAndRoundTrips() throws {
        XCTAssertEqual([0, 1, 255, 256, 511, 65_535, 65_536, 131_071, 131_072].map(Padding.bucket(for:)),
                       [256, 256, 256, 512, 512, 65_536, 131_072, 131_072, 196_608])
        for count in [0, 1, 200, 255, 256, 1_000, 65_535, 65_536, 200_000] {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 * 7) }
            let padded = Padding.pad(bytes)
            XCTAssertEqual(padded.count, Padding.bucket(for: count))
            XCTAssertEqual(try Padding.unpad(padded), bytes, "\(count)")
            let secret = try Padding.pad(try SecretBytes(copying: bytes))
            XCTAssertEqual(secret.count, padded.count)
            XCTAssertEqual(try Padding.unpad(secret), try SecretBytes(copying: bytes))
        }
        XCTAssertEqual(Padding.pad(Array("a".utf8)).count, Padding.pad([UInt8](repeating: 0x41, count: 200)).count, "one length for short secrets")
    }

    func testPaddingThatIsNotOursIsMalformed() {
        let overPadded = [UInt8](repeating: 0x41, count: 10) + [0x80] + [UInt8](repeating: 0, count: 1_013)
        for bad in [[UInt8](repeating: 0, count: 256), [UInt8](repeating: 0, count: 300), [], [UInt8](repeating: 0x80, count: 100),
                    [UInt8](repeating: 0x41, count: 255) + [0x01], overPadded] {
            XCTAssertThrowsError(try Padding.unpad(bad)) { XCTAssertEqual(($0 as? SodiumError)?.code, .malformed) }
        }
    }
}
