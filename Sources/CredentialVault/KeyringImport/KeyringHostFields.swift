import ConfigTrack

/// The host a keyring item's attributes describe. Conventions differ between programs, so a
/// few common names are accepted: `server`, `host` or `hostname` for the host (libsecret's
/// network-password schema uses `server`), `user`, `username` or `login` for the user, `port`,
/// and `protocol`, which must be SSH's (`ssh`, `sftp`, `scp`) — or, when the user picked the
/// items with attributes of their own, may be absent.
struct KeyringHostFields: Equatable {
    let hostname: String
    let port: Int
    let username: String?

    static let hostnameAttributes = ["server", "host", "hostname"]
    static let userAttributes = ["user", "username", "login"]
    static let sshProtocols: Set<String> = ["ssh", "sftp", "scp"]

    /// The fields, or why the item does not describe an SSH host.
    static func parse(_ attributes: [String: String], requireProtocol: Bool) -> Result<KeyringHostFields, Skip> {
        guard let rawHost = hostnameAttributes.lazy.compactMap({ attributes[$0] }).first(where: { !$0.isEmpty }) else {
            return .failure(Skip("no server, host or hostname attribute"))
        }
        if let scheme = attributes["protocol"], !sshProtocols.contains(scheme.lowercased()) {
            return .failure(Skip("protocol '\(scheme)' is not SSH"))
        }
        if requireProtocol && attributes["protocol"] == nil {
            return .failure(Skip("no protocol attribute saying it is SSH (choose such items with --attribute)"))
        }
        var port = 22
        if let text = attributes["port"], !text.isEmpty {
            guard let number = Int(text), (try? ConfigValidation.port(number)) != nil else { return .failure(Skip("port '\(text)' is not a port number")) }
            port = number
        }
        let user = userAttributes.lazy.compactMap { attributes[$0] }.first { !$0.isEmpty }
        do {
            let hostname = try ConfigValidation.hostname(rawHost)
            if let user { try ConfigValidation.username(user) }
            return .success(KeyringHostFields(hostname: hostname, port: port, username: user))
        } catch {
            return .failure(Skip((error as? ConfigError)?.message ?? "\(error)"))
        }
    }

    /// Whether `host` is this one: same host name (letter case aside), port and user.
    func matches(_ host: Host) -> Bool {
        host.hostname.lowercased() == hostname.lowercased() && host.port == port && host.username == username
    }

    var endpoint: String { (username.map { "\($0)@" } ?? "") + hostname + ":\(port)" }

    struct Skip: Error, Equatable {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }
}
