internal import CSodium

/// Randomness from libsodium's CSPRNG.
public enum Random {
    /// `count` random bytes (not secret: for salts, nonces, identifiers).
    /// The corresponding C function is `randombytes_buf`.
    public static func bytes(count: Int) -> [UInt8] {
        SodiumRuntime.ensureInitialized()
        var out = [UInt8](repeating: 0, count: count)
        if count > 0 { randombytes_buf(&out, count) }
        return out
    }

    /// A uniformly distributed value in `0..<upperBound`. The corresponding C function is
    /// `randombytes_uniform`.
    public static func uniform(_ upperBound: UInt32) -> UInt32 {
        SodiumRuntime.ensureInitialized()
        return randombytes_uniform(upperBound)
    }
}
