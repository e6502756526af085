internal import CSodium

/// Plaintexts padded to size buckets before sealing, so an object's size does not tell a
/// secret's length (docs/devices.md): 256 bytes, then powers of two up to 64 KiB, then multiples
/// of 64 KiB. The padding is ISO/IEC 7816-4 (`sodium_pad`: 0x80 then zeros), so it always adds at
/// least one byte. The corresponding C functions are `sodium_pad` and `sodium_unpad`.
public enum Padding {
    static let smallest = 256
    static let step = 65_536

    /// The padded size of `count` bytes: the smallest bucket with room for them and the marker.
    public static func bucket(for count: Int) -> Int {
        if count >= step { return (count / step + 1) * step }
        var size = smallest
        while size <= count { size *= 2 }
        return size
    }

    /// The block size `sodium_pad` and `sodium_unpad` use for a padded size.
    private static func blockSize(of padded: Int) -> Int { padded > step ? step : padded }

    /// Whether `count` is a size `pad` makes.
    static func isBucket(_ count: Int) -> Bool {
        count >= smallest && (count > step ? count % step == 0 : count & (count - 1) == 0)
    }

    /// `bytes` padded to their bucket.
    public static func pad(_ bytes: [UInt8]) -> [UInt8] {
        SodiumRuntime.ensureInitialized()
        let size = bucket(for: bytes.count)
        var padded = bytes + [UInt8](repeating: 0, count: size - bytes.count)
        var length = 0
        let status = sodium_pad(&length, &padded, bytes.count, blockSize(of: size), size)
        precondition(status == 0 && length == size, "sodium_pad failed for a bucket with room")
        return padded
    }

    /// A secret padded to its bucket, in guarded memory.
    public static func pad(_ secret: SecretBytes) throws -> SecretBytes {
        SodiumRuntime.ensureInitialized()
        let size = bucket(for: secret.count)
        let padded = try SecretBytes(zeroedCount: size)
        padded.withUnsafeMutableBytes { out in
            secret.withUnsafeBytes { plain in out.copyMemory(from: plain) }
            var length = 0
            let status = sodium_pad(&length, out.baseAddress!.assumingMemoryBound(to: UInt8.self), secret.count, blockSize(of: size), size)
            precondition(status == 0 && length == size, "sodium_pad failed for a bucket with room")
        }
        return padded
    }

    /// The bytes `pad` was given; anything not padded to a bucket is `malformed`.
    public static func unpad(_ padded: [UInt8]) throws -> [UInt8] {
        Array(padded.prefix(try padded.withUnsafeBytes { try unpaddedCount($0) }))
    }

    /// The secret `pad` was given, in guarded memory.
    public static func unpad(_ padded: SecretBytes) throws -> SecretBytes {
        let count = try padded.withUnsafeBytes { try unpaddedCount($0) }
        return try padded.slice(0..<count)
    }

    private static func unpaddedCount(_ bytes: UnsafeRawBufferPointer) throws -> Int {
        SodiumRuntime.ensureInitialized()
        guard isBucket(bytes.count) else { throw SodiumError(.malformed, "A padded plaintext of \(bytes.count) bytes is not a bucket size.") }
        var length = 0
        guard sodium_unpad(&length, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count, blockSize(of: bytes.count)) == 0 else {
            throw SodiumError(.malformed, "A padded plaintext has no valid padding.")
        }
        // One plaintext, one padded size: more padding than its bucket is not ours.
        guard bucket(for: length) == bytes.count else { throw SodiumError(.malformed, "A padded plaintext is padded past its bucket.") }
        return length
    }
}
