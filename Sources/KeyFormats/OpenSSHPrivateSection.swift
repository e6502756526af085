/// The plaintext private section of an `openssh-key-v1` key (OpenSSH `PROTOCOL.key` §3): uint32
/// checkint twice, string key type, the type's fields as the ssh-agent protocol encodes them,
/// string comment, then padding 1, 2, 3, … to the cipher's block size.
///
/// Parsing checks everything that can be checked without using the key: equal checkints, the
/// same type and public part as the envelope's public blob, the type's fields all present,
/// and the padding. It borrows the bytes it parses: `fields` and `comment` are views that must
/// stay inside the `withUnsafeBytes` closure that produced them, so no secret is copied.
package struct OpenSSHPrivateSection {
    /// The key type name, e.g. `ssh-ed25519`.
    package let keyType: String
    /// The type's fields in file order (see `layouts`); a `uint8` field is a one-byte view.
    package let fields: [UnsafeRawBufferPointer]
    package let comment: UnsafeRawBufferPointer

    private enum Field { case string, byte }

    /// Each type's fields, and how many of them, after the type name, repeat the public blob.
    /// RSA is the exception: its blob holds e, n, while the section starts n, e.
    private static let layouts: [String: (fields: [Field], publicCount: Int)] = [
        "ssh-ed25519": ([.string, .string], 1),  // pk, seed‖pk
        "ssh-rsa": (Array(repeating: .string, count: 6), 0),  // n, e, d, iqmp, p, q
        "ecdsa-sha2-nistp256": ([.string, .string, .string], 2),  // curve, Q, d
        "ecdsa-sha2-nistp384": ([.string, .string, .string], 2),
        "ecdsa-sha2-nistp521": ([.string, .string, .string], 2),
        "ssh-dss": (Array(repeating: .string, count: 5), 4),  // p, q, g, y, x
        // Security keys: the public part, then flags, key handle, reserved (OpenSSH `PROTOCOL.u2f`).
        "sk-ssh-ed25519@openssh.com": ([.string, .string, .byte, .string, .string], 2),  // pk, application
        "sk-ecdsa-sha2-nistp256@openssh.com": ([.string, .string, .string, .byte, .string, .string], 3),  // curve, Q, application
    ]

    private static let mismatch = KeyFileDefect("its private part does not match its public part")

    /// Parses `section`, which must hold the key of `publicBlob`. `checkFailure` is thrown when
    /// the checkints differ: after decryption that means a wrong passphrase, in a plain key a
    /// corrupt file, so the caller says which.
    package init(parsing section: UnsafeRawBufferPointer, publicBlob: [UInt8], checkFailure: any Error) throws {
        var reader = SSHWireReader(section)
        let check1 = try reader.readUInt32()
        let check2 = try reader.readUInt32()
        guard check1 == check2 else { throw checkFailure }
        let typeStart = reader.offset
        let name = try reader.readName()
        guard let layout = Self.layouts[name] else {
            throw KeyFileDefect("its key type is not supported")
        }
        guard try SSHWireReader.typeName(of: publicBlob) == name else { throw Self.mismatch }
        var fields: [UnsafeRawBufferPointer] = []
        var publicEnd = reader.offset
        for (index, field) in layout.fields.enumerated() {
            switch field {
            case .string: fields.append(try reader.readString())
            case .byte:
                try reader.skip(1)
                fields.append(UnsafeRawBufferPointer(rebasing: section[(reader.offset - 1)..<reader.offset]))
            }
            if index + 1 == layout.publicCount { publicEnd = reader.offset }
        }
        if name == "ssh-ed25519", fields[1].count != 64 {
            throw KeyFileDefect("its Ed25519 private key has the wrong length")
        }
        let repeated: [UInt8]
        if name == "ssh-rsa" {
            var writer = SSHWireWriter()
            writer.string(name)
            writer.string(fields[1])
            writer.string(fields[0])
            repeated = writer.bytes
        } else {
            repeated = Array(section[typeStart..<publicEnd])
        }
        guard repeated == publicBlob else { throw Self.mismatch }
        comment = try reader.readString()
        var expectedPad: UInt8 = 1
        while !reader.isAtEnd {
            guard try reader.readUInt8() == expectedPad else { throw KeyFileDefect("its private part has bad padding (the key is corrupt)") }
            expectedPad &+= 1
        }
        keyType = name
        self.fields = fields
    }
}
