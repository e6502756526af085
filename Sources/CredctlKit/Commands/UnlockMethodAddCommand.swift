import CredentialVault

struct UnlockMethodAddCommand: Command {
    static let path = ["unlock-method", "add"]
    static let spec = CommandSpec(
        path: path,
        summary: "Add a way to unlock the vault on this device, beside its others.",
        overview: "Add a way to unlock the vault on this device, beside its others: a passphrase (asked twice, or --new-passphrase-file), a key file (--new-key-file FILE, else $XDG_CONFIG_HOME/credctl/key; created with mode 0600 if it does not exist), or the desktop keyring. Unlocks the vault once with a method it has. Only this device changes; nothing on the remote.",
        usage: ["unlock-method add passphrase [--new-passphrase-file FILE]", "unlock-method add keyfile [--new-key-file FILE]", "unlock-method add keyring"],
        options: [NewPassphrase.option, .init(name: "--new-key-file", value: "FILE", help: "The key file to add (created, mode 0600, if it does not exist).")],
        positionals: 1...1,
        examples: ["credctl unlock-method add keyfile", "credctl unlock-method add keyfile --new-key-file /etc/credctl/key", "credctl --key-file ~/.config/credctl/key unlock-method add passphrase"],
        argument: .words(["passphrase", "keyfile", "keyring"]))

    let method: String
    let parsed: ParsedCommand

    init(_ parsed: ParsedCommand) throws {
        method = parsed.positionals[0]
        guard ["passphrase", "keyfile", "keyring"].contains(method) else {
            throw UsageError("'\(method)' is not an unlock method; the methods are passphrase, keyfile and keyring.", command: Self.spec)
        }
        if method != "keyfile" && parsed.value("--new-key-file") != nil { throw UsageError("--new-key-file goes with keyfile.", command: Self.spec) }
        if method != "passphrase" && parsed.value(NewPassphrase.option.name) != nil { throw UsageError("--new-passphrase-file goes with passphrase.", command: Self.spec) }
        self.parsed = parsed
    }

    func run(_ context: Context) throws {
        let vault = try context.openVault()
        guard !vault.unlockMethods.contains(method) else {
            throw CLIError.input("This vault already unlocks with a \(method) on this device.",
                                 hint: method == "passphrase" ? "Change it with: credctl passphrase change" : "Remove it first: credctl unlock-method remove \(method)")
        }
        try context.unlock(vault)
        switch method {
        case "passphrase": try vault.addUnlockMethod(.passphrase(try NewPassphrase.read(parsed)), kdf: context.kdf)
        case "keyfile":
            let key = UnlockKey.keyFile(path: parsed.value("--new-key-file") ?? context.defaultKeyFile)
            try context.prepareKeyFileDirectory(for: key)
            try vault.addUnlockMethod(key, kdf: context.kdf)
        default: try vault.enableKeyringUnlock(kdf: context.kdf)
        }
        Output.out("The vault now also unlocks with this \(method) on this device (it unlocks with: \(vault.unlockMethods.joined(separator: ", "))).\n")
    }
}
