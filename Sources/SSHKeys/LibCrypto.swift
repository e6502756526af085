internal import CCrypto

/// The one place a CCrypto status becomes an `SSHKeyError`.
///
/// Every CCrypto function that can fail returns a `CCRYPTO_` code and, for `CCRYPTO_FAILED`,
/// writes OpenSSL's reason (never data) into an error buffer. What a plain failure means depends
/// on the call, so `failure` turns the reason into the error; the other codes mean the same
/// wherever they come from.
enum LibCrypto {
    /// The Debian package that provides `libcrypto.so.3`.
    static let package = "libssl3"

    /// Calls `body` with an error buffer and its length, and throws for any status but `CCRYPTO_OK`.
    static func call(_ failure: (String) -> SSHKeyError, _ body: (UnsafeMutablePointer<CChar>, Int) -> Int32) throws {
        var buffer = [CChar](repeating: 0, count: 256)
        let status = buffer.withUnsafeMutableBufferPointer { body($0.baseAddress!, $0.count) }
        guard status != CCRYPTO_OK else { return }
        let reason = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        switch status {
        case CCRYPTO_UNAVAILABLE:
            throw SSHKeyError.opening(.unavailable, "it needs OpenSSL's libcrypto, which could not be loaded (\(reason)); install the Debian package \(package)")
        case CCRYPTO_AUTHENTICATION, CCRYPTO_BAD_PASSPHRASE:
            throw SSHKeyError.wrongPassphrase
        case CCRYPTO_NEED_PASSPHRASE:
            throw SSHKeyError.passphraseNeeded
        default:
            throw failure(reason)
        }
    }

    /// A key OpenSSL could not build or read: its numbers are not a valid key.
    static func malformedKey(_ reason: String) -> SSHKeyError {
        SSHKeyError.opening(.malformed, "OpenSSL does not accept it as a key (\(reason))")
    }
}
