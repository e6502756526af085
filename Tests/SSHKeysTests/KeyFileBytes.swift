import KeyFormats
import Sodium

/// Key file bytes made or taken apart by hand, for damage and hostile cases.
enum KeyFileBytes {
    /// Where an encrypted openssh-key-v1 body holds its bcrypt round count: after the magic, the
    /// cipher and KDF names, and the KDF options' length and salt. Empty for any other body.
    static func roundsBytes(_ decoded: [UInt8]) -> Range<Int> {
        guard let (cipher, saltCount) = try? decoded.withUnsafeBytes({ bytes in
            let envelope = try OpenSSHKeyEnvelope(parsing: bytes)
            return (envelope.cipher.name, envelope.salt.count)
        }), cipher != "none" else { return 0..<0 }
        let end = "openssh-key-v1\0".utf8.count + 4 + cipher.utf8.count + 4 + "bcrypt".utf8.count + 4 + 4 + saltCount + 4
        return (end - 4)..<end
    }

    /// SSH wire strings of texts and byte arrays, concatenated.
    static func blob(_ fields: [Any]) -> [UInt8] {
        var writer = SSHWireWriter()
        for field in fields {
            if let text = field as? String { writer.string(text) } else if let bytes = field as? [UInt8] { writer.string(bytes) }
        }
        return writer.bytes
    }

    /// An unencrypted `openssh-key-v1` body holding `section`, padded to 8 bytes.
    static func envelope(publicBlob: [UInt8], section: [UInt8]) -> [UInt8] {
        var padded = section
        var pad: UInt8 = 1
        while padded.count % 8 != 0 { padded.append(pad); pad += 1 }
        var fields = SSHWireWriter()
        fields.string("none")
        fields.string("none")
        fields.string([UInt8]())
        fields.uint32(1)
        fields.string(publicBlob)
        fields.string(padded)
        return Array("openssh-key-v1\0".utf8) + fields.bytes
    }

    /// `bytes` as a PEM block labelled `label`, wrapped at 70 columns like ssh-keygen.
    static func armor(_ bytes: [UInt8], label: String = "OPENSSH PRIVATE KEY") -> [UInt8] {
        let encoded = Array(Base64.encode(bytes))
        let lines = stride(from: 0, to: encoded.count, by: 70).map { String(encoded[$0..<min($0 + 70, encoded.count)]) }
        return Array(("-----BEGIN \(label)-----\n" + lines.joined(separator: "\n") + "\n-----END \(label)-----\n").utf8)
    }
}
