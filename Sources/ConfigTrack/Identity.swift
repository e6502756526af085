import Identifiers
import Replication
import SQLite

/// An SSH key pair: the public half in config, the private half (and its passphrase, if any)
/// on the secret track by reference.
public struct Identity: Sendable, Equatable, Identifiable {
    public let id: UUID
    public var label: String
    public var username: String?
    public var keyType: KeyType
    /// The OpenSSH public key line (`ssh-ed25519 AAAA… comment`).
    public var publicKey: String
    /// Always `identity.<id>.privkey`.
    public var privateKeyRef: SecretReference
    /// `identity.<id>.passphrase` when the key is encrypted and its passphrase is stored.
    public var passphraseRef: SecretReference?
    /// Whether each use of the key must be confirmed first, as `ssh-add -c` asks: any process of
    /// the user can ask credctl's agent to sign, and this way no signature is made unseen.
    public var confirm: Bool
    public internal(set) var version: RecordVersion?

    public init(id: UUID = UUID(), label: String, username: String? = nil, keyType: KeyType, publicKey: String,
                privateKeyRef: SecretReference? = nil, passphraseRef: SecretReference? = nil, confirm: Bool = false) {
        self.id = id
        self.label = label
        self.username = username
        self.keyType = keyType
        self.publicKey = publicKey
        self.privateKeyRef = privateKeyRef ?? .identityPrivateKey(id)
        self.passphraseRef = passphraseRef
        self.confirm = confirm
    }
}

extension Identity: LabeledRecord {
    static let kind = "identity"
    static let table = "identities"
    static let columns = ["label", "username", "key_type", "public_key", "private_key_ref", "passphrase_ref", "confirm"]
    /// The key pair's type, public half and secret references merge as one. Confirmation came
    /// later (format 3): a record from an older build, or one that never asked for it, leaves it
    /// unwritten, and so does not confirm.
    static let fieldGroups = [FieldGroup("label", [0]), FieldGroup("username", [1]), FieldGroup("key", [2, 3, 4, 5]),
                              FieldGroup("confirm", [6], since: 3, unwritten: [.integer(0)])]
    static let selectSQL = makeSelectSQL()
    static let insertSQL = makeInsertSQL()
    static let selectColumnsSQL = makeSelectColumnsSQL()
    static let selectByIDSQL = selectSQL + " WHERE id = ?"

    var columnValues: [SQLBindable] {
        [label, username, keyType.rawValue, publicKey, privateKeyRef.key, passphraseRef?.key, confirm]
    }

    init(row: Row) throws {
        guard let keyType = row.text(3).flatMap(KeyType.init(rawValue:)) else {
            throw ConfigError(.storage, "An identity record has an unknown key type.")
        }
        self.init(id: try Self.uuid(from: row, at: 0), label: row.text(1) ?? "", username: row.text(2), keyType: keyType,
                  publicKey: row.text(4) ?? "", privateKeyRef: try SecretReference(parsing: row.text(5) ?? ""),
                  passphraseRef: try row.text(6).map { try SecretReference(parsing: $0) }, confirm: row.bool(7))
        version = Self.version(from: row, at: 8)
    }
}
