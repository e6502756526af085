import Identifiers

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
        // Matched on bytes at fixed positions: every config row read parses one or two.
        guard let (field, owner) = Self.match(key) else {
            throw ConfigError(.invalid, "'\(CanonicalUUID.printable(key))' is not a secret reference.",
                              hint: "References look like host.<uuid>.password, identity.<uuid>.privkey or identity.<uuid>.passphrase, with a lowercase UUID.")
        }
        self.init(owner: owner, field: field)
    }

    private static let forms: [(field: Field, prefix: [UInt8], suffix: [UInt8])] = Field.allCases.map {
        ($0, Array(($0.ownerKind + ".").utf8), Array(("." + $0.suffix).utf8))
    }

    private static func match(_ key: String) -> (Field, UUID)? {
        var key = key
        key.makeContiguousUTF8()
        return key.utf8.withContiguousStorageIfAvailable { bytes -> (Field, UUID)? in
            for form in forms where bytes.count == form.prefix.count + 36 + form.suffix.count {
                guard bytes.starts(with: form.prefix), bytes.suffix(form.suffix.count).elementsEqual(form.suffix) else { continue }
                let middle = UnsafeBufferPointer(rebasing: bytes[form.prefix.count..<(form.prefix.count + 36)])
                guard let owner = CanonicalUUID.parse(bytes: middle, lowercaseOnly: true) else { return nil }
                return (form.field, owner)
            }
            return nil
        } ?? nil
    }

    /// The reference key text.
    public var key: String { "\(field.ownerKind).\(CanonicalUUID.text(owner)).\(field.suffix)" }

    public var description: String { key }

    public static func < (lhs: SecretReference, rhs: SecretReference) -> Bool { lhs.key < rhs.key }
}
