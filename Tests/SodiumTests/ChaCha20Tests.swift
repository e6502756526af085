import Sodium
import XCTest

final class ChaCha20Tests: XCTestCase {
    /// RFC 8439 A.1 test vector 2 (zero key and nonce, block 1), where the 64-bit-nonce variant
    /// agrees with RFC 8439's; then a vector with a non-zero nonce and counter from OpenSSL
    /// (`openssl enc -chacha20`, whose 16-byte IV is the same counter and nonce words), which
    /// only the 64-bit-nonce variant matches.
    func testKeystreamFromCounter() {
        let zeroKey = [UInt8](repeating: 0, count: ChaCha20.keyCount)
        XCTAssertEqual(keystream(count: 64, key: zeroKey, nonce: [UInt8](repeating: 0, count: 8), counter: 1),
                       "9f07e7be5551387a98ba977c732d080dcb0f29a048e3656912c6533e32ee7aed"
                       + "29b721769ce64e43d57133b074d839d531ed1f28510afb45ace10a1f4b794d6f")
        let key = (0..<32).map { UInt8($0) }
        XCTAssertEqual(keystream(count: 16, key: key, nonce: [0, 1, 2, 3, 4, 5, 6, 0x0a], counter: 2), "337669d4855e0ce5da238934fd8ef5b5")
    }

    /// XOR is its own inverse, in place.
    func testDecryptsInPlace() {
        let plain = Array("chacha20-poly1305@openssh.com".utf8)
        var buffer = plain
        xorInPlace(&buffer)
        XCTAssertNotEqual(buffer, plain)
        xorInPlace(&buffer)
        XCTAssertEqual(buffer, plain)
    }

    private func xorInPlace(_ buffer: inout [UInt8]) {
        let key = [UInt8](repeating: 7, count: ChaCha20.keyCount)
        buffer.withUnsafeMutableBytes { bytes in
            key.withUnsafeBytes { ChaCha20.xor(UnsafeRawBufferPointer(bytes), into: bytes, nonce: [UInt8](repeating: 0, count: 8), counter: 1, key: $0) }
        }
    }

    private func keystream(count: Int, key: [UInt8], nonce: [UInt8], counter: UInt64) -> String {
        let zeros = [UInt8](repeating: 0, count: count)
        var out = [UInt8](repeating: 0, count: count)
        zeros.withUnsafeBytes { input in
            out.withUnsafeMutableBytes { output in key.withUnsafeBytes { ChaCha20.xor(input, into: output, nonce: nonce, counter: counter, key: $0) } }
        }
        return hexString(out)
    }
}
