import ConfigTrack
import KeyFormats
import Sodium

/// An SSH private key file read for import: its exact bytes, to be sealed and stored, and what
/// can be learned about it without its passphrase.
///
/// Two containers are understood: OpenSSH's own `openssh-key-v1` format, which carries the public
/// key in the clear even when the private part is encrypted, and OpenSSL PEM (PKCS#1, SEC 1,
/// PKCS#8), which does not name the SSH key type, so its public key must come from `FILE.pub`.
/// The private key material is never decrypted, copied out of guarded memory, or put in an error.
public struct PrivateKeyFile: Sendable {
    /// The exact bytes of the file.
    public let body: SecretBytes
    public let keyType: KeyType
    /// The OpenSSH public key line: `TYPE BASE64`, plus ` COMMENT` when a comment is known.
    public let publicKey: String
    /// True when the private key needs a passphrase.
    public let isEncrypted: Bool
    public let format: Format

    /// Reads and parses the private key at `path`.
    ///
    /// The public key comes from the file itself for OpenSSH keys (a `path.pub` beside it must
    /// then hold the same key) and from `path.pub` for PEM keys. Throws `VaultError` with code
    /// `.notFound` when there is no file at `path`, `.invalidInput` when it is not a usable key,
    /// `.storage` when it cannot be read.
    public static func load(path: String) throws -> PrivateKeyFile {
        guard let body = try KeyFileReader.read(path, role: "private key") else {
            throw VaultError(.notFound, "Unable to read private key '\(path)': no such file.",
                             hint: "Check the path; keys usually live in ~/.ssh.")
        }
        let publicText = try KeyFileReader.read(path + ".pub", role: "public key").map { bytes in
            bytes.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
        }
        return try parse(body: body, publicKeyLine: publicText, path: path)
    }

    /// Parses the bytes of a private key file; `publicKeyLine` is the text of its `.pub` file,
    /// if any. Throws `VaultError` with code `.invalidInput` when the bytes are not a usable key.
    public static func parse(body: SecretBytes, publicKeyLine: String?) throws -> PrivateKeyFile {
        try parse(body: body, publicKeyLine: publicKeyLine, path: nil)
    }

    private init(body: SecretBytes, keyType: KeyType, publicKey: String, isEncrypted: Bool, format: Format) {
        self.body = body
        self.keyType = keyType
        self.publicKey = publicKey
        self.isEncrypted = isEncrypted
        self.format = format
    }

    /// `parse` with the file's path, used to name the key and its `.pub` in messages.
    static func parse(body: SecretBytes, publicKeyLine: String?, path: String?) throws -> PrivateKeyFile {
        let source = KeyFileSource(path: path)
        do {
            return try parseKey(body: body, publicKeyLine: publicKeyLine, source: source)
        } catch let defect as KeyFileDefect {
            throw VaultError(.invalidInput, "Unable to import \(source.subject): \(defect.reason).", hint: defect.hint.map(Self.sentence))
        } catch let error as VaultError {
            throw error
        } catch {
            // Only allocation of guarded memory can fail here.
            throw VaultError(.storage, "Unable to import \(source.subject): \(error)")
        }
    }

    private static func parseKey(body: SecretBytes, publicKeyLine: String?, source: KeyFileSource) throws -> PrivateKeyFile {
        guard body.count > 0 else {
            throw KeyFileDefect("the file is empty", hint: "give the private key file, such as ~/.ssh/id_ed25519")
        }
        let looksLikePEM = try body.withUnsafeBytes { bytes in
            try KeyFileSniffer.rejectKnownNonKeys(bytes)
            return PEMArmor.looksLikePEM(bytes)
        }
        guard looksLikePEM else {
            throw KeyFileDefect("it is not an SSH private key", hint: "give an OpenSSH or PEM private key file, such as ~/.ssh/id_ed25519")
        }
        let armor = try body.withUnsafeBytes { try PEMArmor(parsing: $0) }
        if KeyFileSniffer.publicKeyLabels.contains(armor.label) { throw KeyFileSniffer.publicKeyDefect }
        if armor.label == "OPENSSH PRIVATE KEY" {
            return try openSSHKey(body: body, armor: armor, publicKeyLine: publicKeyLine, source: source)
        }
        guard PEMArmor.privateKeyLabels.contains(armor.label) else {
            throw KeyFileDefect("its PEM block is not a kind of private key SSH can use",
                                hint: "give an OpenSSH or PEM private key file, such as ~/.ssh/id_ed25519")
        }
        guard let publicKeyLine else {
            throw KeyFileDefect("a PEM key does not record its public key, and \(source.publicName) is missing", hint: source.publicHint)
        }
        let line = try source.parsePublicKey(publicKeyLine, hint: source.publicHint)
        let mismatch = KeyFileDefect("\(source.publicName) holds a different key", hint: source.publicHint)
        let isEncrypted = try PEMPrivateKey.check(armor, publicKey: line, mismatch: mismatch)
        return PrivateKeyFile(body: body, keyType: line.keyType, publicKey: line.text, isEncrypted: isEncrypted, format: .pem)
    }

    private static func openSSHKey(body: SecretBytes, armor: PEMArmor, publicKeyLine: String?, source: KeyFileSource) throws -> PrivateKeyFile {
        let key = try OpenSSHPrivateKey(decoded: armor.decoded)
        var comment = key.comment
        if let publicKeyLine {
            let line = try source.parsePublicKey(publicKeyLine, hint: source.stalePublicHint)
            guard line.blob == key.publicBlob else {
                throw KeyFileDefect("\(source.publicName) holds a different key", hint: source.stalePublicHint)
            }
            comment = comment ?? line.comment
        }
        let publicKey = PublicKeyLine(keyType: key.keyType, blob: key.publicBlob, comment: comment)
        return PrivateKeyFile(body: body, keyType: key.keyType, publicKey: publicKey.text, isEncrypted: key.isEncrypted, format: .openSSH)
    }

    /// Hints from the parsers are fragments; the user sees them as sentences like every other hint.
    static func sentence(_ fragment: String) -> String {
        guard let first = fragment.first else { return fragment }
        let capitalized = first.uppercased() + fragment.dropFirst()
        return capitalized.hasSuffix(".") || capitalized.hasSuffix(")") ? capitalized : capitalized + "."
    }
}
