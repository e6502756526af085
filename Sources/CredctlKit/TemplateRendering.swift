import CredentialVault

/// `{{ cred://… }}` placeholders in a template: found, then filled in guarded memory.
/// Whitespace inside the braces is allowed; a `{{ … }}` that does not hold a cred:// address is
/// left as it is (other template languages use the same braces).
package struct TemplateRendering {
    /// The template's bytes, split into literal runs and addresses.
    package enum Piece: Equatable {
        case literal(ArraySlice<UInt8>)
        case address(String)
    }

    package let pieces: [Piece]

    package init(_ template: [UInt8]) {
        var pieces: [Piece] = []
        var literalStart = 0, index = 0
        let open: [UInt8] = [0x7B, 0x7B], close: [UInt8] = [0x7D, 0x7D]
        while index + 1 < template.count {
            guard template[index] == open[0], template[index + 1] == open[1],
                  let end = Self.find(close, in: template, from: index + 2) else { index += 1; continue }
            let inner = template[(index + 2)..<end]
            let trimmed = inner.drop { $0 == 0x20 || $0 == 0x09 }.reversed().drop { $0 == 0x20 || $0 == 0x09 }.reversed()
            guard let text = String(validating: Array(trimmed), as: UTF8.self), text.hasPrefix(SecretAddresses.scheme), !text.contains("\n") else {
                index += 2
                continue
            }
            if literalStart < index { pieces.append(.literal(template[literalStart..<index])) }
            pieces.append(.address(text))
            index = end + 2
            literalStart = index
        }
        if literalStart < template.count { pieces.append(.literal(template[literalStart...])) }
        self.pieces = pieces
    }

    package var addresses: [String] { pieces.compactMap { if case .address(let text) = $0 { text } else { nil } } }

    /// The rendered bytes, in guarded memory.
    package func render(_ secrets: [String: SecretBytes]) throws -> SecretBytes {
        var total = 0
        for piece in pieces {
            switch piece {
            case .literal(let bytes): total += bytes.count
            case .address(let text): total += secrets[text]?.count ?? 0
            }
        }
        let output = try SecretBytes(zeroedCount: total)
        output.withUnsafeMutableBytes { buffer in
            var offset = 0
            for piece in pieces {
                switch piece {
                case .literal(let bytes):
                    bytes.withUnsafeBytes { if let base = $0.baseAddress, $0.count > 0 { (buffer.baseAddress! + offset).copyMemory(from: base, byteCount: $0.count) } }
                    offset += bytes.count
                case .address(let text):
                    secrets[text]?.withUnsafeBytes { if let base = $0.baseAddress, $0.count > 0 { (buffer.baseAddress! + offset).copyMemory(from: base, byteCount: $0.count) } }
                    offset += secrets[text]?.count ?? 0
                }
            }
        }
        return output
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + needle.count <= bytes.count {
            if bytes[index] == needle[0] && bytes[index + 1] == needle[1] { return index }
            index += 1
        }
        return nil
    }
}
