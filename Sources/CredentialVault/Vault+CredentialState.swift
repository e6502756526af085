import SecretTrack

extension Vault {
    /// What this device holds for `reference`, read without unlocking.
    public func credentialState(_ reference: SecretReference) throws(VaultError) -> CredentialState {
        try VaultError.wrapping {
            switch try secrets.state(of: reference.key) {
            case .present: .stored
            case .absent: .notSynced
            case .deleted: .deleted
            case .quarantined: .quarantined
            }
        }
    }
}
