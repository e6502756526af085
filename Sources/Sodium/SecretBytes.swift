internal import CSodium

/// Secret bytes in guarded memory: allocated with `sodium_malloc`, wiped and freed on release.
///
/// The bytes are reachable only through `withUnsafeBytes`; `description` never shows them; the
/// type is deliberately not `Codable`. Equality is constant-time (`sodium_memcmp`) for equal
/// lengths. Memory comes from `GuardedAllocator` (`sodium_malloc`, with small blocks wiped and
/// recycled). The corresponding C functions are `sodium_malloc`, `sodium_free`, `sodium_memcmp`.
public final class SecretBytes: @unchecked Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    // `@unchecked Sendable`: the buffer is written only during initialisation (or through
    // `withUnsafeMutableBytes` by the single owner that is filling it) and read afterwards.
    private let pointer: UnsafeMutableRawPointer
    /// The size of the guarded block behind `pointer` (at least `count`).
    private let capacity: Int
    /// The number of secret bytes.
    public let count: Int

    /// Allocates `count` zeroed bytes of guarded memory.
    public init(zeroedCount count: Int) throws {
        SodiumRuntime.ensureInitialized()
        guard count >= 0 else { throw SodiumError(.invalidArgument, "Secret size must not be negative.") }
        guard let block = GuardedAllocator.allocate(count) else {
            throw SodiumError(.outOfMemory, "Unable to allocate \(count) bytes of guarded memory.")
        }
        pointer = block.pointer
        capacity = block.capacity
        self.count = count
    }

    /// Copies `bytes` into guarded memory. The caller remains responsible for wiping its copy.
    public convenience init(copying bytes: UnsafeRawBufferPointer) throws {
        try self.init(zeroedCount: bytes.count)
        if let base = bytes.baseAddress, bytes.count > 0 {
            pointer.copyMemory(from: base, byteCount: bytes.count)
        }
    }

    /// Copies `bytes` into guarded memory.
    public convenience init(copying bytes: [UInt8]) throws {
        try self.init(zeroedCount: bytes.count)
        bytes.withUnsafeBytes { buffer in
            if let base = buffer.baseAddress, buffer.count > 0 {
                pointer.copyMemory(from: base, byteCount: buffer.count)
            }
        }
    }

    /// Copies the UTF-8 bytes of `string` into guarded memory (for tests and literals; real
    /// secrets should never pass through a Swift `String`).
    public convenience init(utf8 string: String) throws {
        try self.init(copying: Array(string.utf8))
    }

    /// `count` bytes from libsodium's CSPRNG, in guarded memory.
    public static func random(count: Int) throws -> SecretBytes {
        let secret = try SecretBytes(zeroedCount: count)
        secret.withUnsafeMutableBytes { buffer in
            if let base = buffer.baseAddress, buffer.count > 0 { randombytes_buf(base, buffer.count) }
        }
        return secret
    }

    deinit {
        // Wiped before it is pooled or freed.
        GuardedAllocator.release(pointer, capacity: capacity)
    }

    /// Calls `body` with a read-only view of the secret bytes. The view must not escape.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    /// Calls `body` with a writable view of the secret bytes, for the owner filling the buffer.
    public func withUnsafeMutableBytes<R>(_ body: (UnsafeMutableRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeMutableRawBufferPointer(start: pointer, count: count))
    }

    /// A new guarded buffer holding bytes `range` of this one.
    public func slice(_ range: Range<Int>) throws -> SecretBytes {
        guard range.lowerBound >= 0, range.upperBound <= count else {
            throw SodiumError(.invalidArgument, "Secret slice is out of bounds.")
        }
        return try SecretBytes(copying: UnsafeRawBufferPointer(start: pointer + range.lowerBound, count: range.count))
    }

    /// A new guarded buffer holding this one's bytes followed by `other`'s.
    public func appending(_ other: SecretBytes) throws -> SecretBytes {
        let joined = try SecretBytes(zeroedCount: count + other.count)
        joined.pointer.copyMemory(from: pointer, byteCount: count)
        other.withUnsafeBytes { buffer in
            if let base = buffer.baseAddress, buffer.count > 0 {
                (joined.pointer + count).copyMemory(from: base, byteCount: buffer.count)
            }
        }
        return joined
    }

    /// Constant-time comparison for equal lengths; different lengths compare unequal at once
    /// (the length of a secret is not treated as secret).
    public static func == (lhs: SecretBytes, rhs: SecretBytes) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if lhs.count == 0 { return true }
        return sodium_memcmp(lhs.pointer, rhs.pointer, lhs.count) == 0
    }

    public var description: String { "SecretBytes(redacted, \(count) bytes)" }
    public var debugDescription: String { description }
}
