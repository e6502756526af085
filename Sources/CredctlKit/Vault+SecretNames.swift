import CredentialVault

extension Vault {
    /// A secret as people know it: "password of host 'web'", "private key of identity 'deploy'";
    /// "password of a removed host" once the record is gone; the reference itself if it is not
    /// one. Never opens anything.
    func describeSecret(_ reference: String) -> String {
        guard let parsed = try? SecretReference(parsing: reference) else { return reference }
        switch parsed.field {
        case .hostPassword:
            return (try? host(id: parsed.owner)).flatMap { $0 }.map { "password of host '\($0.label)'" } ?? "password of a removed host"
        case .identityPrivateKey, .identityPassphrase:
            let what = parsed.field == .identityPrivateKey ? "private key" : "key passphrase"
            return (try? identity(id: parsed.owner)).flatMap { $0 }.map { "\(what) of identity '\($0.label)'" } ?? "\(what) of a removed identity"
        }
    }
}
