internal import CSodium

/// Domain-separated subkeys from a master key (BLAKE2b-based `crypto_kdf`).
public enum SubkeyDerivation {
    public static let masterKeyCount = Int(crypto_kdf_KEYBYTES)

    /// Derives subkey number `id` for `context` (exactly 8 bytes of UTF-8, for example
    /// `"cvbody01"`). The corresponding C function is `crypto_kdf_derive_from_key`.
    public static func derive(from master: SecretBytes, id: UInt64, context: String, length: Int = 32) throws -> SecretBytes {
        SodiumRuntime.ensureInitialized()
        let contextBytes = Array(context.utf8)
        guard contextBytes.count == Int(crypto_kdf_CONTEXTBYTES) else {
            throw SodiumError(.invalidArgument, "A subkey context must be exactly \(crypto_kdf_CONTEXTBYTES) bytes.")
        }
        guard master.count == masterKeyCount else { throw SodiumError(.invalidArgument, "A master key must be \(masterKeyCount) bytes.") }
        guard length >= Int(crypto_kdf_BYTES_MIN), length <= Int(crypto_kdf_BYTES_MAX) else {
            throw SodiumError(.invalidArgument, "Subkey length \(length) is out of range.")
        }
        let subkey = try SecretBytes(zeroedCount: length)
        let status = subkey.withUnsafeMutableBytes { out in
            master.withUnsafeBytes { key in
                contextBytes.withUnsafeBufferPointer { ctx in
                    ctx.withMemoryRebound(to: CChar.self) { ctxChars in
                        crypto_kdf_derive_from_key(out.baseAddress!.assumingMemoryBound(to: UInt8.self), length, id, ctxChars.baseAddress!, key.baseAddress!.assumingMemoryBound(to: UInt8.self))
                    }
                }
            }
        }
        precondition(status == 0, "crypto_kdf_derive_from_key failed for valid arguments")
        return subkey
    }
}
