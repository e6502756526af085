import Replication
import SecretTrack
import SQLite
import Sodium

extension VaultError {
    /// Translates a track's error into the facade's vocabulary, keeping message and hint.
    public static func from(_ error: any Error) -> VaultError {
        switch error {
        case let error as VaultError:
            return error
        case let error as ConfigError:
            let code: Code = switch error.code {
            case .notFound: .notFound
            case .alreadyExists: .alreadyExists
            case .invalid, .ambiguous: .invalidInput
            case .inUse: .inUse
            case .conflict: .conflict
            case .storage: .storage
            }
            return VaultError(code, error.message, hint: error.hint)
        case let error as SecretError:
            let code: Code = switch error.code {
            case .locked: .locked
            case .unavailable: .unavailable
            case .wrongKey: .wrongKey
            case .absent: .notYetSynced
            case .deleted: .deleted
            case .quarantined: .quarantined
            case .authenticationFailed: .corrupt
            case .invalid: .invalidInput
            case .storage: .storage
            }
            return VaultError(code, error.message, hint: error.hint)
        case let error as ReplicationError:
            let code: Code = switch error.code {
            case .unreachable: .unavailable
            case .accessDenied: .accessDenied
            case .authenticationFailed, .forged, .revokedWriter: .corrupt
            case .unknownSigner: .notYetSynced
            case .nameConflict, .invalidName, .io, .tooLarge, .malformed, .unsupportedFormat: .storage
            }
            return VaultError(code, error.message)
        case let error as SodiumError:
            return VaultError(error.code == .authenticationFailed ? .corrupt : .storage, error.message)
        case let error as SQLiteError:
            return VaultError(.storage, "The vault database failed: \(error).")
        default:
            return VaultError(.storage, "Unexpected failure: \(error).")
        }
    }

    /// Runs `body`, presenting any failure as a `VaultError`.
    static func wrapping<T>(_ body: () throws -> T) throws(VaultError) -> T {
        do {
            return try body()
        } catch {
            throw from(error)
        }
    }
}
