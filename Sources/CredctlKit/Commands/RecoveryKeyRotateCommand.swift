import CredentialVault
import Glibc

struct RecoveryKeyRotateCommand: Command {
    static let path = ["recovery-key", "rotate"]
    static let spec = CommandSpec(
        path: path,
        summary: "Replace the vault's recovery key with a new one, shown once.",
        overview: "Replace the vault's recovery key (one that may have been seen): a new key is shown once (or written to a new 0600 file with --recovery-key-file), and a new epoch starts that the old key is not given; from then on the old key adds no device and opens nothing new.",
        usage: ["recovery-key rotate [--recovery-key-file FILE]"],
        options: [.init(name: "--recovery-key-file", value: "FILE", help: "Write the new recovery key to FILE (a new file, mode 0600) instead of showing it.")],
        positionals: 0...0,
        examples: ["credctl recovery-key rotate", "credctl recovery-key rotate --recovery-key-file /media/usb/credctl-recovery.txt"])

    let parsed: ParsedCommand

    init(_ parsed: ParsedCommand) throws { self.parsed = parsed }

    func run(_ context: Context) throws {
        if let file = parsed.value("--recovery-key-file"), access(file, F_OK) == 0 {
            throw CLIError.input("\(file) exists; a new recovery key goes to a new file, never over another.", hint: "Choose another --recovery-key-file.")
        }
        let vault = try context.unlockedVault()
        _ = try vault.sync()
        let file = parsed.value("--recovery-key-file")
        _ = try vault.rotateRecoveryKey { try RecoveryKeyFile.deliver($0, to: file) }
        _ = try vault.sync()
        Output.out("The vault has a new recovery key; the old one no longer adds a device.\n")
    }
}
