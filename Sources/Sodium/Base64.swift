internal import CSodium

/// Base64 (standard alphabet, padded) through libsodium, so secret material decodes straight
/// into guarded memory without passing through `Data` or `String`.
public enum Base64 {
    /// Encodes public bytes. The corresponding C function is `sodium_bin2base64`.
    public static func encode(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBytes { encode($0) }
    }

    /// Encodes bytes in place (for example a secret being revealed on purpose).
    public static func encode(_ bytes: UnsafeRawBufferPointer) -> String {
        SodiumRuntime.ensureInitialized()
        let variant = sodium_base64_VARIANT_ORIGINAL
        let length = sodium_base64_encoded_len(bytes.count, variant)
        var out = [CChar](repeating: 0, count: length)
        _ = sodium_bin2base64(&out, length, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, variant)
        // `length` counts the terminating NUL.
        return String(decoding: out.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Decodes public Base64 text; whitespace is ignored. Returns nil for invalid input.
    public static func decode(_ text: String) -> [UInt8]? {
        let input = Array(text.utf8)
        guard let decoded = try? input.withUnsafeBytes({ try decodeSecret($0) }) else { return nil }
        return decoded.withUnsafeBytes { Array($0) }
    }

    /// Encodes a secret into guarded memory (standard alphabet, padded), with no terminator.
    public static func encodeSecret(_ secret: SecretBytes) throws -> SecretBytes {
        SodiumRuntime.ensureInitialized()
        let variant = sodium_base64_VARIANT_ORIGINAL
        let length = sodium_base64_encoded_len(secret.count, variant)
        let out = try SecretBytes(zeroedCount: length)
        out.withUnsafeMutableBytes { text in
            secret.withUnsafeBytes { bytes in
                _ = sodium_bin2base64(text.baseAddress!.assumingMemoryBound(to: CChar.self), length,
                                      bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, variant)
            }
        }
        // `length` counts the terminating NUL.
        return try out.slice(0..<(length - 1))
    }

    /// The alphabets and padding rules `decodeSecret` can be asked for.
    public enum Variant: Sendable, CaseIterable {
        case original, originalUnpadded, urlSafe, urlSafeUnpadded

        var code: Int32 {
            switch self {
            case .original: sodium_base64_VARIANT_ORIGINAL
            case .originalUnpadded: sodium_base64_VARIANT_ORIGINAL_NO_PADDING
            case .urlSafe: sodium_base64_VARIANT_URLSAFE
            case .urlSafeUnpadded: sodium_base64_VARIANT_URLSAFE_NO_PADDING
            }
        }
    }

    /// Decodes Base64 text (whitespace ignored) into guarded memory.
    /// The corresponding C function is `sodium_base642bin`.
    public static func decodeSecret(_ text: UnsafeRawBufferPointer, variant: Variant = .original) throws -> SecretBytes {
        SodiumRuntime.ensureInitialized()
        // libsodium's ignore list matches its own terminating NUL, so NUL would pass as space.
        guard !text.contains(0) else { throw SodiumError(.malformed, "Text is not valid Base64.") }
        let capacity = text.count / 4 * 3 + 3
        let scratch = try SecretBytes(zeroedCount: capacity)
        var written = 0
        var end: UnsafePointer<CChar>?
        let status = scratch.withUnsafeMutableBytes { out in
            text.withMemoryRebound(to: CChar.self) { chars in
                sodium_base642bin(out.baseAddress!.assumingMemoryBound(to: UInt8.self), capacity, chars.baseAddress, chars.count, " \t\r\n", &written, &end, variant.code)
            }
        }
        let consumedAll = text.count == 0 || end.map { UnsafeRawPointer($0) == text.baseAddress! + text.count } ?? false
        guard status == 0, consumedAll else { throw SodiumError(.malformed, "Text is not valid Base64.") }
        return try scratch.slice(0..<written)
    }
}
