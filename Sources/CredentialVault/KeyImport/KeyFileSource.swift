import KeyFormats

/// How messages name a private key file and the public key beside it.
///
/// `path` is nil when bytes are parsed without a file; messages then speak of "the private key"
/// and "the public key line". Only paths are named, never contents.
struct KeyFileSource {
    let path: String?

    /// "private key '/home/me/.ssh/id_rsa'", or "private key".
    var subject: String { path.map { "private key '\($0)'" } ?? "private key" }

    /// "'/home/me/.ssh/id_rsa.pub'", or "the public key line".
    var publicName: String { path.map { "'\($0).pub'" } ?? "the public key line" }

    /// The hint for a PEM key whose public key is missing or unusable.
    var publicHint: String { "put the public key beside it as \(path ?? "FILE").pub" }

    /// The hint for an OpenSSH key whose `.pub` disagrees with it.
    var stalePublicHint: String {
        "remove or regenerate the stale public key: ssh-keygen -y -f \(path ?? "FILE") > \(path ?? "FILE").pub"
    }

    /// Parses the `.pub` text, explaining a failure in terms of the `.pub` file.
    func parsePublicKey(_ text: String, hint: String) throws -> PublicKeyLine {
        do {
            return try PublicKeyLine(parsing: text)
        } catch let defect as KeyFileDefect {
            throw KeyFileDefect("\(publicName) is not a usable public key (\(defect.reason))", hint: hint)
        }
    }
}
