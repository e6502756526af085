import CredentialVault
import Membership

/// `--recovery-key-file F`: where a new remote's recovery key is written (a new 0600 file; an
/// existing F is refused, so no key is ever overwritten), or where a device joining with the
/// recovery key reads it from (its printed form; case, dashes and white space do not matter).
enum RecoveryKeyFile {
    static let option = CommandSpec.Option(name: "--recovery-key-file", value: "FILE",
                                           help: "Creating a remote: write its recovery key to FILE (a new file, mode 0600) instead of showing it. Joining: join with the recovery key in FILE, with no other device.")

    static func read(_ path: String) throws -> RecoveryKey {
        let text = try SecretInput.file(path, what: "recovery key")
        do {
            return try RecoveryKey(parsing: text)
        } catch let error as MembershipError {
            throw CLIError.input("\(path): \(error.message)", hint: "The recovery key is the 28 letters and digits shown when the remote was created.")
        }
    }

    /// Writes or shows the recovery key of a remote just created.
    /// `besideJSON`: standard output carries a JSON document, so the words go to standard error
    /// (and the key too, when no file is given).
    static func deliver(_ key: RecoveryKey, to path: String?, besideJSON: Bool = false) throws {
        func say(_ text: String) { if besideJSON { Output.err(text) } else { Output.out(text) } }
        if let path {
            try PrivateOutputFile.write(try key.printable(), to: path, replace: false)
            say("The recovery key is in \(path) (mode 0600). Keep it offline: with it, a device joins this vault without any other.\n")
            return
        }
        say("Recovery key (shown once; keep it offline: with it, a device joins this vault without any other):\n")
        if besideJSON { Output.secretToStandardError(try key.printable()) } else { Output.secret(try key.printable()) }
    }
}
