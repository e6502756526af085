import XCTest
@testable import Sodium

final class SealedBoxTests: XCTestCase {
    private let purpose = SealPurpose(tag: 0x07, label: "credvault/v1/test-body")
    private let context = Array("ref:web-1/v3".utf8)

    // MARK: Known answers for the bare primitive

    /// draft-irtf-cfrg-xchacha-03, appendix A.3.1; re-computed with pycryptodome 4.4.0
    /// (`ChaCha20_Poly1305` with a 24-byte nonce), which agrees with the draft.
    func testXChaChaMatchesDraftVector() throws {
        let key = try SecretBytes(copying: Array(0x80...0x9f))
        let nonce = [UInt8](0x40...0x57)
        let aad = hexBytes("50515253c0c1c2c3c4c5c6c7")
        let plaintext = Array("Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.".utf8)
        let expected = "bd6d179d3e83d43b9576579493c0e939572a1700252bfaccbed2902c21396cbb731c7f1b0b4aa6440bf3a82f4eda7e39ae64c6708c54c216cb96b72e1213b4522f8c9ba40db5d945b11b69b982c1bb9e3f3fac2bc369488f76b2383565d3fff921f9664c97637da9768812f615c68b13b52e"
            + "c0875924c1c7987947deafd8780acf49"

        let sealed = try plaintext.withUnsafeBytes { try SealedBox.xchachaEncrypt($0, associatedData: aad, nonce: nonce, key: key) }
        XCTAssertEqual(hexString(sealed), expected)

        let opened = try sealed.withUnsafeBytes { try SealedBox.xchachaDecrypt($0, associatedData: aad, nonce: nonce, key: key, label: "kat") }
        XCTAssertEqual(opened.withUnsafeBytes { Array($0) }, plaintext)
    }

    /// Empty plaintext: the output is the bare Poly1305 tag. Computed with pycryptodome 4.4.0.
    func testXChaChaEmptyPlaintextVector() throws {
        let key = try SecretBytes(copying: Array(0x00...0x1f))
        let nonce = [UInt8](0xa0...0xb7)
        let vectors: [(aad: [UInt8], tag: String)] = [
            (Array("credvault-kat".utf8), "606dbb19f81996ad9788c55d1bb6a579"),
            ([], "f6bd641f139f64acede4227282b9bbd6"),
        ]
        for vector in vectors {
            let sealed = try [UInt8]().withUnsafeBytes { try SealedBox.xchachaEncrypt($0, associatedData: vector.aad, nonce: nonce, key: key) }
            XCTAssertEqual(hexString(sealed), vector.tag)
            let opened = try sealed.withUnsafeBytes { try SealedBox.xchachaDecrypt($0, associatedData: vector.aad, nonce: nonce, key: key, label: "kat") }
            XCTAssertEqual(opened.count, 0)
        }
    }

    func testXChaChaRejectsWrongSizes() throws {
        let key = try SecretBytes.random(count: SealedBox.keyCount)
        let shortKey = try SecretBytes.random(count: SealedBox.keyCount - 1)
        let nonce = [UInt8](repeating: 0, count: 24)
        let empty: [UInt8] = []
        assertSodiumError(.invalidArgument, try empty.withUnsafeBytes { try SealedBox.xchachaEncrypt($0, associatedData: [], nonce: nonce, key: shortKey) })
        assertSodiumError(.invalidArgument, try empty.withUnsafeBytes { try SealedBox.xchachaEncrypt($0, associatedData: [], nonce: [0], key: key) })
        let tagOnly = [UInt8](repeating: 0, count: 16)
        assertSodiumError(.invalidArgument, try tagOnly.withUnsafeBytes { try SealedBox.xchachaDecrypt($0, associatedData: [], nonce: nonce, key: shortKey, label: "x") })
        assertSodiumError(.malformed, try tagOnly.withUnsafeBytes { try SealedBox.xchachaDecrypt($0, associatedData: [], nonce: [0], key: key, label: "x") })
        assertSodiumError(.malformed, try Array(tagOnly.prefix(15)).withUnsafeBytes { try SealedBox.xchachaDecrypt($0, associatedData: [], nonce: nonce, key: key, label: "x") })
    }

    // MARK: The envelope

    /// A blob built independently (pycryptodome 4.4.0) from the documented layout:
    /// "CV" | 01 | tag | nonce | ciphertext | tag, with associated data
    /// header | label | 00 | context. Pins the on-disk format.
    func testOpensIndependentlyBuiltBlob() throws {
        let key = try SecretBytes(copying: Array(0x20...0x3f))
        let blob = hexBytes("43560107101112131415161718191a1b1c1d1e1f202122232425262708daf203b972e4eff7e9243508ffcd6406e2f6ecc40c303f6d51f97c0c187dabc4c2b7a85cceaa9a5af9b3cf")
        let opened = try SealedBox.open(blob, key: key, purpose: purpose, context: context)
        XCTAssertEqual(opened.withUnsafeBytes { Array($0) }, Array("correct horse battery staple".utf8))
    }

    func testAssociatedDataLayout() {
        let header: [UInt8] = [0x43, 0x56, 0x01, 0x07]
        XCTAssertEqual(SealedBox.associatedData(header: header, purpose: purpose, context: [0xAA]),
                       header + Array("credvault/v1/test-body".utf8) + [0x00, 0xAA])
    }

    func testRoundTripAndLayout() throws {
        let key = try SecretBytes.random(count: SealedBox.keyCount)
        let secret = try SecretBytes(utf8: "hunter2")
        let blob = try SealedBox.seal(secret, key: key, purpose: purpose, context: context)
        XCTAssertEqual(SealedBox.overhead, 44)
        XCTAssertEqual(blob.count, secret.count + SealedBox.overhead)
        XCTAssertEqual(Array(blob.prefix(4)), [0x43, 0x56, SealedBox.formatVersion, purpose.tag])
        let opened = try SealedBox.open(blob, key: key, purpose: purpose, context: context)
        XCTAssertTrue(opened == secret)

        let publicBlob = try SealedBox.seal([1, 2, 3], key: key, purpose: purpose, context: [])
        XCTAssertEqual(try SealedBox.open(publicBlob, key: key, purpose: purpose, context: []).withUnsafeBytes { Array($0) }, [1, 2, 3])
    }

    func testEmptyPlaintextRoundTrip() throws {
        let key = try SecretBytes.random(count: SealedBox.keyCount)
        let blob = try SealedBox.seal(try SecretBytes(zeroedCount: 0), key: key, purpose: purpose, context: context)
        XCTAssertEqual(blob.count, SealedBox.overhead)
        XCTAssertEqual(try SealedBox.open(blob, key: key, purpose: purpose, context: context).count, 0)
    }

    func testWrongKeyFailsAuthentication() throws {
        let blob = try SealedBox.seal([1, 2, 3], key: try SecretBytes.random(count: 32), purpose: purpose, context: context)
        XCTAssertThrowsError(try SealedBox.open(blob, key: try SecretBytes.random(count: 32), purpose: purpose, context: context)) { error in
            XCTAssertEqual((error as? SodiumError)?.code, .authenticationFailed)
            XCTAssertEqual("\(error)", "Sealed credvault/v1/test-body data failed authentication: wrong key, wrong name, or altered bytes.")
        }
    }

    func testWrongContextFailsAuthentication() throws {
        let key = try SecretBytes.random(count: 32)
        let blob = try SealedBox.seal([1, 2, 3], key: key, purpose: purpose, context: context)
        assertSodiumError(.authenticationFailed, try SealedBox.open(blob, key: key, purpose: purpose, context: Array("ref:web-2/v3".utf8)))
        assertSodiumError(.authenticationFailed, try SealedBox.open(blob, key: key, purpose: purpose, context: []))
    }

    func testSameTagDifferentLabelFailsAuthentication() throws {
        let key = try SecretBytes.random(count: 32)
        let blob = try SealedBox.seal([1, 2, 3], key: key, purpose: purpose, context: context)
        let relabelled = SealPurpose(tag: purpose.tag, label: "credvault/v1/other")
        assertSodiumError(.authenticationFailed, try SealedBox.open(blob, key: key, purpose: relabelled, context: context))
    }

    func testWrongPurposeTag() throws {
        let key = try SecretBytes.random(count: 32)
        let blob = try SealedBox.seal([1, 2, 3], key: key, purpose: purpose, context: context)
        assertSodiumError(.wrongPurpose, try SealedBox.open(blob, key: key, purpose: SealPurpose(tag: 0x08, label: purpose.label), context: context))
    }

    func testUnknownVersion() throws {
        let key = try SecretBytes.random(count: 32)
        var blob = try SealedBox.seal([1, 2, 3], key: key, purpose: purpose, context: context)
        blob[2] = 2
        assertSodiumError(.unsupportedVersion, try SealedBox.open(blob, key: key, purpose: purpose, context: context))
    }

    func testEverySingleByteFlipIsRejected() throws {
        let key = try SecretBytes.random(count: 32)
        let blob = try SealedBox.seal(Array("hi".utf8), key: key, purpose: purpose, context: context)
        for position in blob.indices {
            for mask: UInt8 in [0x01, 0x80] {
                var altered = blob
                altered[position] ^= mask
                let expected: SodiumError.Code
                switch position {
                case 0, 1: expected = .malformed
                case 2: expected = .unsupportedVersion
                case 3: expected = .wrongPurpose
                default: expected = .authenticationFailed
                }
                assertSodiumError(expected, try SealedBox.open(altered, key: key, purpose: purpose, context: context),
                                  "byte \(position) mask \(mask)")
            }
        }
    }

    func testTruncatedBlobIsMalformed() throws {
        let key = try SecretBytes.random(count: 32)
        let blob = try SealedBox.seal(Array("hi".utf8), key: key, purpose: purpose, context: context)
        for length in 0..<SealedBox.overhead {
            assertSodiumError(.malformed, try SealedBox.open(Array(blob.prefix(length)), key: key, purpose: purpose, context: context), "length \(length)")
        }
        // Long enough to frame, but a byte short of what was sealed: the tag no longer matches.
        assertSodiumError(.authenticationFailed, try SealedBox.open(Array(blob.dropLast()), key: key, purpose: purpose, context: context))
    }

    func testTwoSealsOfSamePlaintextDiffer() throws {
        let key = try SecretBytes.random(count: 32)
        let first = try SealedBox.seal([1, 2, 3], key: key, purpose: purpose, context: context)
        let second = try SealedBox.seal([1, 2, 3], key: key, purpose: purpose, context: context)
        XCTAssertNotEqual(first[4..<28], second[4..<28], "nonces must be fresh")
        XCTAssertNotEqual(first, second)
    }

    func testKeyOfWrongSizeIsRejected() throws {
        let good = try SecretBytes.random(count: 32)
        let blob = try SealedBox.seal([1, 2, 3], key: good, purpose: purpose, context: context)
        for size in [0, 16, 31, 33, 64] {
            let key = try SecretBytes.random(count: size)
            assertSodiumError(.invalidArgument, try SealedBox.seal([1, 2, 3], key: key, purpose: purpose, context: context), "size \(size)")
            assertSodiumError(.invalidArgument, try SealedBox.open(blob, key: key, purpose: purpose, context: context), "size \(size)")
        }
    }
}
