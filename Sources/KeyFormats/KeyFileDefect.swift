/// Why bytes handed in as a key file cannot be used, before the caller says what the file is.
///
/// The key format readers throw this; each caller turns it into its own module's error, naming
/// the file where it knows one: `PrivateKeyFile` a `VaultError(.invalidInput)`, `SSHSigningKey`
/// an `SSHKeyError(.malformed)`. `reason` completes a sentence such as "Unable to import private
/// key 'PATH': …" and never quotes the file's contents.
package struct KeyFileDefect: Error {
    package let reason: String
    package let hint: String?

    package init(_ reason: String, hint: String? = nil) {
        self.reason = reason
        self.hint = hint
    }

    package static let truncated = KeyFileDefect("the key data is truncated or corrupt")
}
