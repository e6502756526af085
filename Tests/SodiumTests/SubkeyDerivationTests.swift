import XCTest
@testable import Sodium

final class SubkeyDerivationTests: XCTestCase {
    private func master() throws -> SecretBytes { try SecretBytes(copying: Array(0x00...0x1f)) }

    /// libsodium's `crypto_kdf_derive_from_key` is BLAKE2b keyed with the master key, with
    /// salt = LE64(id) || 8 zero bytes and personal = context || 8 zero bytes, over an empty
    /// message. Vectors computed with Python 3 `hashlib.blake2b(b"", digest_size=n, key=master,
    /// salt=..., person=...)`, master = 00 01 ... 1f.
    func testKnownAnswers() throws {
        let vectors: [(id: UInt64, context: String, length: Int, subkey: String)] = [
            (0, "cvbody01", 32, "fc32d9d511354e892dd835ee73f137352d9fae946c27986bfc44666c2695adfa"),
            (1, "cvbody01", 32, "39a4c837f43626189a2238c1223ee07f6de5c647f63380074984c3c40eab60c0"),
            (42, "cvbody01", 16, "194213ac13a9b694c66b7843b8d8c9d5"),
            (0x0123_4567_89ab_cdef, "cvindex0", 64,
             "a89c64c1bc22173a14fc8ce54387b375ea2207b2e24b7abc7db3762cfe6e73c25d6b3566394a4d03fafb4455ef8e0e86bd69a472d655e5f9c340d43bfa760f3c"),
        ]
        let master = try master()
        for vector in vectors {
            let subkey = try SubkeyDerivation.derive(from: master, id: vector.id, context: vector.context, length: vector.length)
            XCTAssertEqual(hexString(subkey), vector.subkey, "id \(vector.id) context \(vector.context)")
        }
    }

    func testDefaultLengthIs32() throws {
        XCTAssertEqual(try SubkeyDerivation.derive(from: master(), id: 0, context: "cvbody01").count, 32)
        XCTAssertEqual(SubkeyDerivation.masterKeyCount, 32)
    }

    func testContextsAndIdsAreSeparated() throws {
        let master = try master()
        let base = try SubkeyDerivation.derive(from: master, id: 7, context: "cvbody01")
        XCTAssertFalse(base == (try SubkeyDerivation.derive(from: master, id: 8, context: "cvbody01")))
        XCTAssertFalse(base == (try SubkeyDerivation.derive(from: master, id: 7, context: "cvbody02")))
        XCTAssertFalse(base == (try SubkeyDerivation.derive(from: SecretBytes.random(count: 32), id: 7, context: "cvbody01")))
    }

    /// Eight *bytes*: "é2345678" is eight characters but nine UTF-8 bytes.
    func testContextMustBeEightBytes() throws {
        let master = try master()
        for context in ["", "cvbody0", "cvbody012", "é2345678"] {
            assertSodiumError(.invalidArgument, try SubkeyDerivation.derive(from: master, id: 0, context: context), "context '\(context)'")
        }
    }

    func testMasterKeyMustBe32Bytes() throws {
        for size in [0, 16, 31, 33] {
            assertSodiumError(.invalidArgument, try SubkeyDerivation.derive(from: SecretBytes.random(count: size), id: 0, context: "cvbody01"), "size \(size)")
        }
    }

    func testLengthRange() throws {
        let master = try master()
        assertSodiumError(.invalidArgument, try SubkeyDerivation.derive(from: master, id: 0, context: "cvbody01", length: 15))
        assertSodiumError(.invalidArgument, try SubkeyDerivation.derive(from: master, id: 0, context: "cvbody01", length: 65))
        assertSodiumError(.invalidArgument, try SubkeyDerivation.derive(from: master, id: 0, context: "cvbody01", length: -1))
    }
}
