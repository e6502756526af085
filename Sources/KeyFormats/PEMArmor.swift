import Sodium

/// One PEM block (RFC 7468, with RFC 1421 headers): `-----BEGIN LABEL-----`, optional
/// `Name: value` header lines, Base64 body, `-----END LABEL-----`.
///
/// Only whitespace may surround the block. The body is decoded straight into guarded memory.
package struct PEMArmor {
    /// The label between `BEGIN ` and `-----`, e.g. `OPENSSH PRIVATE KEY`.
    package let label: String
    /// True when a `Proc-Type: 4,ENCRYPTED` header marks legacy OpenSSL encryption.
    package let isLegacyEncrypted: Bool
    /// The decoded body.
    package let decoded: SecretBytes

    /// The labels of the private key blocks SSH keys come in: OpenSSH's own, then OpenSSL's
    /// PKCS#1 RSA, SEC 1 EC, DSA, and PKCS#8 plain and encrypted.
    package static let privateKeyLabels: Set<String> = [
        "OPENSSH PRIVATE KEY", "RSA PRIVATE KEY", "EC PRIVATE KEY", "DSA PRIVATE KEY", "PRIVATE KEY", "ENCRYPTED PRIVATE KEY",
    ]

    private static let begin = Array("-----BEGIN ".utf8)
    private static let end = Array("-----END ".utf8)
    private static let dashes = Array("-----".utf8)

    /// True when `bytes`, after leading whitespace, start with a PEM BEGIN marker.
    package static func looksLikePEM(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var lines = LineCursor(bytes)
        lines.skipWhitespace()
        guard let first = lines.next() else { return false }
        return first.starts(with: begin)
    }

    package init(parsing bytes: UnsafeRawBufferPointer) throws {
        var lines = LineCursor(bytes)
        lines.skipWhitespace()
        guard let beginLine = lines.next(), beginLine.starts(with: Self.begin), Self.hasDashSuffix(beginLine) else {
            throw KeyFileDefect("it does not start with a PEM BEGIN line")
        }
        let labelBytes = beginLine[(beginLine.startIndex + Self.begin.count)..<(beginLine.endIndex - Self.dashes.count)]
        guard !labelBytes.isEmpty, labelBytes.count <= 64,
              labelBytes.allSatisfy({ ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x20 || $0 == 0x2D })
        else {
            throw KeyFileDefect("its PEM BEGIN line is malformed")
        }
        label = String(decoding: labelBytes, as: UTF8.self)

        // RFC 1421 headers: lines with a colon (never in Base64), then a blank line.
        var legacyEncrypted = false
        var sawHeader = false
        while let line = lines.peek(), line.contains(0x3A) {
            _ = lines.next()
            sawHeader = true
            let text = String(decoding: line, as: UTF8.self)
            if text.hasPrefix("Proc-Type:"), text.hasSuffix("ENCRYPTED") { legacyEncrypted = true }
        }
        if sawHeader, let blank = lines.peek(), blank.isEmpty { _ = lines.next() }
        isLegacyEncrypted = legacyEncrypted

        let bodyStart = lines.offset
        var bodyEnd: Int?
        while let line = lines.peek() {
            if line.starts(with: Self.dashes) {
                bodyEnd = lines.offset
                _ = lines.next()
                guard line.elementsEqual(Self.end + Array(label.utf8) + Self.dashes) else {
                    throw KeyFileDefect("its PEM END line does not match its BEGIN line")
                }
                break
            }
            _ = lines.next()
        }
        guard let bodyEnd else { throw KeyFileDefect("its PEM END line is missing (the file is truncated)") }
        lines.skipWhitespace()
        guard lines.offset == bytes.count else {
            throw KeyFileDefect("it holds data after the PEM END line", hint: "give a file holding a single private key")
        }
        let body = UnsafeRawBufferPointer(rebasing: bytes[bodyStart..<bodyEnd])
        guard body.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) else {
            throw KeyFileDefect("its PEM block has an empty body")
        }
        do {
            decoded = try Base64.decodeSecret(body)
        } catch {
            throw KeyFileDefect("its PEM body is not valid Base64 (the file is truncated or corrupt)")
        }
    }

    private static func hasDashSuffix(_ line: Slice<UnsafeRawBufferPointer>) -> Bool {
        line.count >= begin.count + dashes.count && line.suffix(dashes.count).elementsEqual(dashes)
    }
}
