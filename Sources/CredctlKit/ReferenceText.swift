/// Facts every form of the documentation shares (help index, man page, README).
enum ReferenceText {
    static let environment: [(name: String, meaning: String)] = [
        ("CREDCTL_VAULT", "The vault directory when --vault is not given."),
        ("CREDCTL_KEY_FILE", "The key file when --key-file is not given."),
        ("CREDCTL_PASSPHRASE_FILE", "The passphrase file when --passphrase-file is not given."),
        ("XDG_DATA_HOME", "The default vault is $XDG_DATA_HOME/credctl (else ~/.local/share/credctl)."),
        ("CREDCTL_S3_TIMEOUT_SECONDS", "How long one S3 request may take before it is retried (1 to 600; default 15)."),
        ("CREDCTL_INSECURE_FAST_KDF", "1 makes init use the cheapest Argon2id parameters. For test suites only."),
    ]

    static let exitStatuses: [(status: Int32, meaning: String)] = [
        (ExitStatus.success, "Success."),
        (ExitStatus.failure, "Any other failure."),
        (ExitStatus.usage, "Usage error: unknown command or option (the nearest known ones are suggested), a command group without its subcommand (its commands are listed), missing argument, a secret refused on a terminal."),
        (ExitStatus.dataError, "Bad input data: malformed key file, invalid label, invalid reference, duplicate label."),
        (ExitStatus.notFound, "Not found: no such vault, host, identity or reference; also no credential configured, and deleted."),
        (ExitStatus.unavailable, "A needed service is unavailable (remote, keyring)."),
        (ExitStatus.notYetSynced, "Credentials have not synced to this device yet; try again later."),
        (ExitStatus.locked, "Locked, wrong passphrase or wrong key file."),
    ]

    static let secretInput = "Secrets are never command-line arguments: they come from standard input (--password-stdin, --passphrase-stdin), a file, or a prompt. Exactly one trailing line ending (\\n or \\r\\n) is removed from what is read; every other byte is kept."
}
