import CredentialVault

/// The documented exit statuses (sysexits style).
public enum ExitStatus {
    public static let success: Int32 = 0
    public static let failure: Int32 = 1
    public static let usage: Int32 = 64
    public static let dataError: Int32 = 65
    public static let notFound: Int32 = 66
    public static let unavailable: Int32 = 69
    public static let notYetSynced: Int32 = 75
    public static let locked: Int32 = 77

    /// The status for a facade error code.
    static func status(for code: VaultError.Code) -> Int32 {
        switch code {
        case .notFound, .noCredential, .deleted, .noVault, .noRemote: notFound
        case .notYetSynced: notYetSynced
        case .locked, .wrongKey, .accessDenied, .revoked: locked
        case .unavailable: unavailable
        case .invalidInput, .alreadyExists: dataError
        case .inUse, .conflict, .quarantined, .corrupt, .storage: failure
        }
    }
}
