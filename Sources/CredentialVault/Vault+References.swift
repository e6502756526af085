
extension Vault {
    /// Turns what a user writes for a secret into its reference: a reference key
    /// (`host.<uuid>.password`) or a `cred://` address — `cred://host/LABEL/password`,
    /// `cred://identity/LABEL/privkey`, `cred://identity/LABEL/passphrase`. A label may itself
    /// contain `/`; the kind is the first segment and the field the last.
    public func reference(for text: String) throws(VaultError) -> SecretReference {
        let scheme = "cred://"
        guard text.hasPrefix(scheme) else {
            return try VaultError.wrapping { try SecretReference(parsing: text) }
        }
        let path = text.dropFirst(scheme.count)
        guard let firstSlash = path.firstIndex(of: "/"), let lastSlash = path.lastIndex(of: "/"), firstSlash < lastSlash else {
            throw VaultError(.invalidInput, "'\(CanonicalUUID.printable(text))' is not a credential address.",
                             hint: "Write cred://host/LABEL/password, cred://identity/LABEL/privkey or cred://identity/LABEL/passphrase.")
        }
        let kind = path[..<firstSlash]
        let label = String(path[path.index(after: firstSlash)..<lastSlash])
        let field = path[path.index(after: lastSlash)...]
        guard !label.isEmpty else {
            throw VaultError(.invalidInput, "'\(CanonicalUUID.printable(text))' names no label.", hint: "Write cred://host/LABEL/password.")
        }
        switch (kind, field) {
        case ("host", "password"):
            return .hostPassword(try host(label).id)
        case ("identity", "privkey"):
            return .identityPrivateKey(try identity(label).id)
        case ("identity", "passphrase"):
            return .identityPassphrase(try identity(label).id)
        default:
            throw VaultError(.invalidInput, "'\(CanonicalUUID.printable(text))' names no kind of secret this vault keeps.",
                             hint: "Write cred://host/LABEL/password, cred://identity/LABEL/privkey or cred://identity/LABEL/passphrase.")
        }
    }
}
