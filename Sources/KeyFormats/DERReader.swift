/// A bounds-checked cursor over DER (X.690) data, enough to walk the ASN.1 structures of PEM
/// private keys: definite lengths only, single-byte tags.
///
/// It borrows the bytes it reads, so it must stay inside the `withUnsafeBytes` closure that
/// produced them. Malformed input throws `KeyFileDefect`.
package struct DERReader {
    package static let sequence: UInt8 = 0x30
    package static let integer: UInt8 = 0x02
    package static let octetString: UInt8 = 0x04
    package static let bitString: UInt8 = 0x03
    package static let objectIdentifier: UInt8 = 0x06

    private let bytes: UnsafeRawBufferPointer
    private var offset = 0

    package init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    package var isAtEnd: Bool { offset == bytes.count }

    /// The tag of the next element, if any.
    package var nextTag: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    /// Reads one element with tag `tag` and returns a view of its contents.
    package mutating func read(_ tag: UInt8) throws -> UnsafeRawBufferPointer {
        guard nextTag == tag else { throw Self.malformed }
        var position = offset + 1
        guard position < bytes.count else { throw Self.malformed }
        let first = bytes[position]
        position += 1
        var length = 0
        if first < 0x80 {
            length = Int(first)
        } else {
            // Long form: 1…4 length bytes are plenty for a file capped at 1 MiB.
            let lengthBytes = Int(first & 0x7F)
            guard lengthBytes >= 1, lengthBytes <= 4, lengthBytes <= bytes.count - position else { throw Self.malformed }
            for index in position..<position + lengthBytes { length = length << 8 | Int(bytes[index]) }
            position += lengthBytes
        }
        guard length <= bytes.count - position else { throw Self.malformed }
        offset = position + length
        return UnsafeRawBufferPointer(rebasing: bytes[position..<offset])
    }

    /// Reads one element with tag `tag` and returns a reader over its contents.
    package mutating func enter(_ tag: UInt8) throws -> DERReader {
        DERReader(try read(tag))
    }

    /// Skips one element whatever its tag.
    package mutating func skipElement() throws {
        guard let tag = nextTag else { throw Self.malformed }
        _ = try read(tag)
    }

    /// An unsigned big-endian integer without its leading zero bytes, for comparing magnitudes
    /// between DER `INTEGER`s and SSH `mpint`s.
    package static func magnitude(_ bytes: UnsafeRawBufferPointer) -> Slice<UnsafeRawBufferPointer> {
        let start = bytes.firstIndex(where: { $0 != 0 }) ?? bytes.count
        return bytes[start...]
    }

    private static let malformed = KeyFileDefect("its key data is not well-formed DER (the file is truncated or corrupt)")
}
