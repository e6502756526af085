import CredentialVault
import SSHKeys

/// Opens an identity's private key in this process, for `credctl ssh` without an unlocked
/// agent: with its stored passphrase, else one asked on the terminal when there is one.
enum SSHKeyOpening {
    static func open(_ key: SSHCredentialPlan.Key, vault: Vault, context: Context) throws -> OpenedSSHKeys.Entry {
        let identity = key.identity
        let (body, passphrase) = try key.material(from: vault)
        guard let blob = identity.publicKeyBlob else {
            throw CLIError(message: "The public key of identity '\(identity.label)' is not a key credctl can use.", hint: nil, status: ExitStatus.dataError)
        }
        do {
            return OpenedSSHKeys.Entry(key: try SSHSigningKey(privateKey: body, passphrase: passphrase, publicBlob: blob), identity: identity)
        } catch let error where error.kind == .passphraseNeeded && context.promptPossible {
            let asked = try TerminalPrompt.ask("Passphrase for identity '\(identity.label)'")
            do {
                return OpenedSSHKeys.Entry(key: try SSHSigningKey(privateKey: body, passphrase: asked, publicBlob: blob), identity: identity)
            } catch {
                throw failure(error, identity)
            }
        } catch {
            throw failure(error, identity)
        }
    }

    private static func failure(_ error: SSHKeyError, _ identity: Identity) -> CLIError {
        let status = switch error.kind {
        case .wrongPassphrase, .passphraseNeeded: ExitStatus.locked
        case .unavailable: ExitStatus.unavailable
        default: ExitStatus.dataError
        }
        let hint: String? = switch error.kind {
        case .wrongPassphrase, .passphraseNeeded: "Store its passphrase with: credctl identity add (see credctl help identity add), or run from a terminal to be asked."
        default: nil
        }
        return CLIError(message: "Unable to open the private key of identity '\(identity.label)': \(error.message)", hint: hint, status: status)
    }
}
