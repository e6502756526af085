/// Why bytes handed in as a private key cannot be used, before the file path is known.
///
/// The parsers below `PrivateKeyFile` throw this; `PrivateKeyFile` turns it into a
/// `VaultError(.invalidInput)` that names the file. `reason` completes the sentence
/// "Unable to import private key 'PATH': …" and never quotes the file's contents.
struct KeyFileDefect: Error {
    let reason: String
    let hint: String?

    init(_ reason: String, hint: String? = nil) {
        self.reason = reason
        self.hint = hint
    }

    static let truncated = KeyFileDefect("the key data is truncated or corrupt")
}
