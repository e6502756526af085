import FoundationEssentials

/// The name of a secret body on the secret track: `host.<uuid>.password`,
/// `identity.<uuid>.privkey` or `identity.<uuid>.passphrase`.
///
/// This is the only way a config record mentions a secret. Parsing is strict: the owner id must
/// be a canonical lowercase UUID and the field must belong to the owner's kind.
public struct SecretReference: Hashable, Sendable, CustomStringConvertible, Comparable {
    public enum Field: String, Sendable, CaseIterable {
        case hostPassword
        case identityPrivateKey
        case identityPassphrase

        var ownerKind: String { self == .hostPassword ? "host" : "identity" }
        var suffix: String {
            switch self {
            case .hostPassword: "password"
            case .identityPrivateKey: "privkey"
            case .identityPassphrase: "passphrase"
            }
        }
    }

    public let owner: UUID
    public let field: Field

    public init(owner: UUID, field: Field) {
        self.owner = owner
        self.field = field
    }

    public static func hostPassword(_ host: UUID) -> SecretReference { SecretReference(owner: host, field: .hostPassword) }
    public static func identityPrivateKey(_ identity: UUID) -> SecretReference { SecretReference(owner: identity, field: .identityPrivateKey) }
    public static func identityPassphrase(_ identity: UUID) -> SecretReference { SecretReference(owner: identity, field: .identityPassphrase) }

    /// Parses a reference key, rejecting anything that is not exactly canonical.
    public init(parsing key: String) throws {
        let parts = key.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3,
              let field = Field.allCases.first(where: { $0.ownerKind == parts[0] && $0.suffix == parts[2] }),
              let owner = CanonicalUUID.parse(String(parts[1]))
        else {
            throw ConfigError(.invalid, "'\(CanonicalUUID.printable(key))' is not a secret reference.",
                              hint: "References look like host.<uuid>.password, identity.<uuid>.privkey or identity.<uuid>.passphrase, with a lowercase UUID.")
        }
        self.init(owner: owner, field: field)
    }

    /// The reference key text.
    public var key: String { "\(field.ownerKind).\(CanonicalUUID.text(owner)).\(field.suffix)" }

    public var description: String { key }

    public static func < (lhs: SecretReference, rhs: SecretReference) -> Bool { lhs.key < rhs.key }
}
