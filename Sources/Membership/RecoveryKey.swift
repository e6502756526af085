import Sodium

/// The recovery key: 128 random bits, shown once when a remote is created, that let a device join
/// with no other device (docs/devices.md). It derives the recovery authority's signing and box
/// keys; nothing about it is on the remote but their public halves.
///
/// Printable form: the 16 key bytes and a 12-bit checksum, 140 bits in 28 Crockford base32
/// characters, in 7 groups of 4 (`7K3M-Q9ZD-…`). Reading ignores case, `-` and white space, and
/// reads `I`/`L` as `1` and `O` as `0`, so it survives being typed back; a mistyped character is
/// caught by the checksum before anything is tried. Both forms stay in guarded memory.
public struct RecoveryKey: Sendable {
    public static let byteCount = 16
    static let symbols = 28

    let bytes: SecretBytes

    /// A new random key.
    public static func generate() throws -> RecoveryKey { RecoveryKey(bytes: try SecretBytes.random(count: byteCount)) }

    init(bytes: SecretBytes) { self.bytes = bytes }

    /// The 12-bit checksum of the key bytes.
    private static func checksum(_ bytes: SecretBytes) throws -> UInt16 {
        let digest = try GenericHash.secretHash(of: bytes, domain: Array("credvault/v2/recovery-check".utf8))
        return digest.withUnsafeBytes { UInt16($0[0]) << 4 | UInt16($0[1] >> 4) }
    }

    /// The printable form, ASCII, with a trailing newline.
    public func printable() throws -> SecretBytes {
        let check = try Self.checksum(bytes)
        let text = try SecretBytes(zeroedCount: Self.symbols + Self.symbols / 4)
        bytes.withUnsafeBytes { key in
            text.withUnsafeMutableBytes { out in
                // 140 bits, big-endian: the key, then the checksum.
                var position = 0
                Crockford.encode(symbols: Self.symbols, group: 4, bit: { index in
                    index < 128 ? Int(key[index / 8] >> (7 - index % 8) & 1) : Int(check >> (11 - (index - 128)) & 1)
                }) { character in
                    out[position] = character
                    position += 1
                }
                out[position] = 0x0a
            }
        }
        return text
    }

    /// Reads a printable form back (from a file or a prompt).
    public init(parsing text: SecretBytes) throws {
        let values = try SecretBytes(zeroedCount: Self.symbols)
        var count = 0
        let readable = try text.withUnsafeBytes { input in
            try values.withUnsafeMutableBytes { out in
                try Crockford.forEachValue(in: input) { value in
                    guard count < Self.symbols else { throw Self.lengthError }
                    out[count] = value
                    count += 1
                }
            }
        }
        guard readable else {
            throw MembershipError(.invalidRecoveryKey, "A recovery key holds only the letters and digits it was shown with; this one has another character.")
        }
        guard count == Self.symbols else { throw Self.lengthError }
        let key = try SecretBytes(zeroedCount: Self.byteCount)
        var check: UInt16 = 0
        values.withUnsafeBytes { symbols in
            key.withUnsafeMutableBytes { out in
                for index in 0..<140 {
                    let bit = symbols[index / 5] >> (4 - index % 5) & 1
                    if index < 128 { out[index / 8] |= bit << (7 - index % 8) } else { check = check << 1 | UInt16(bit) }
                }
            }
        }
        guard try Self.checksum(key) == check else {
            throw MembershipError(.invalidRecoveryKey, "This recovery key does not check out: a character is mistyped.")
        }
        bytes = key
    }

    private static let lengthError = MembershipError(.invalidRecoveryKey, "A recovery key has \(symbols) letters and digits, in 7 groups of 4.")

    /// The recovery authority this key opens: its signing pair (it signs the `add` of a device
    /// joining by recovery key) and its box pair (it receives every epoch's keys).
    public func authority() throws -> (signing: SigningKeyPair, box: BoxKeyPair) {
        let master = try GenericHash.secretHash(of: bytes, domain: Array("credvault/v2/recovery-authority".utf8))
        return (try SigningKeyPair(seed: try SubkeyDerivation.derive(from: master, id: 1, context: "cvrecsgn")),
                try BoxKeyPair(seed: try SubkeyDerivation.derive(from: master, id: 2, context: "cvrecbox")))
    }
}
