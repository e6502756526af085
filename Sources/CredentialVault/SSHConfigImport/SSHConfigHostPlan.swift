import ConfigTrack
import Identifiers
import SSHConfig

/// One ssh_config host name turned into what the vault stores, before anything is written: the
/// host's fields, its forwards, the key file to import, its ProxyJump hops, and the problems —
/// what the file says for it that the vault cannot hold.
///
/// A problem is a setting credctl imports whose value it cannot take (HostName, Port, User,
/// IdentityFile, the forwards, ProxyJump), or a setting that runs something (`executing`),
/// which is never run nor imported. Every other keyword (ServerAliveInterval, ForwardAgent, …)
/// is left to the user's own ssh_config and ignored without a word: it does not change which
/// machine is reached, as whom, or with which key.
package struct SSHConfigHostPlan {
    /// Keywords whose value ssh runs or loads: a command, a program or a library. `none` is
    /// ssh's way of saying "not set" for each of them.
    static let executing = [
        "proxycommand": "ProxyCommand", "localcommand": "LocalCommand", "knownhostscommand": "KnownHostsCommand",
        "remotecommand": "RemoteCommand", "pkcs11provider": "PKCS11Provider", "securitykeyprovider": "SecurityKeyProvider",
    ]

    let alias: String
    var hostname = ""
    var port = 22
    var username: String?
    /// The ProxyJump hops, first hop first; empty for a direct connection.
    var hops: [SSHConfigJumpHop] = []
    var forwards: [(kind: ForwardKind, specification: String)] = []
    var identityFile: String?
    /// What the file says for this host that is not imported.
    var problems: [String] = []
    /// Why the host cannot be imported at all (also one of the problems).
    var refusal: String?

    package init(_ host: SSHConfigHost, home: String, localUser: String) {
        alias = host.alias
        for (keyword, name) in Self.executing.sorted(by: { $0.value < $1.value }) {
            if let value = host.value(keyword), value.lowercased() != "none" { problems.append("\(name) not imported (never run)") }
        }
        let tokens = SSHConfigTokens(values: ["h": host.alias, "%": "%"])
        guard let name = tokens.expand(host.value("hostname") ?? host.alias), let valid = try? ConfigValidation.hostname(name) else {
            refuse("HostName '\(host.value("hostname") ?? host.alias)' is not a host name credctl can use")
            return
        }
        hostname = valid
        if let text = host.value("port") {
            guard let number = Int(text), (try? ConfigValidation.port(number)) != nil else {
                refuse("Port '\(text)' is not a port number")
                return
            }
            port = number
        }
        if let user = host.value("user") {
            if let expanded = SSHConfigTokens(values: ["%": "%", "u": localUser]).expand(user), (try? ConfigValidation.username(expanded)) != nil {
                username = expanded
            } else {
                problems.append("User '\(user)' not imported")
            }
        }
        if let proxy = host.value("proxyjump"), proxy.lowercased() != "none" {
            if let hops = SSHConfigJumpHop.parse(proxy) {
                self.hops = hops
            } else {
                problems.append("ProxyJump \(proxy) not linked: each hop must be [user@]host[:port] with a valid user and port")
            }
        }
        collectForwards(host)
        if let file = host.identityFiles.first, file.lowercased() != "none" {
            let keyTokens = SSHConfigTokens(values: ["%": "%", "d": home, "u": localUser, "h": hostname, "r": username ?? localUser])
            if let expanded = keyTokens.expand(file.hasPrefix("~/") ? home + file.dropFirst() : file) {
                identityFile = expanded
            } else {
                problems.append("IdentityFile '\(file)' not imported")
            }
            if host.identityFiles.count > 1 { problems.append("only the first IdentityFile imported (a host has one identity)") }
        }
    }

    private mutating func refuse(_ reason: String) {
        refusal = reason
        problems.append(reason)
    }

    private mutating func collectForwards(_ host: SSHConfigHost) {
        for (kind, list, name) in [(ForwardKind.local, host.localForwards, "LocalForward"), (.remote, host.remoteForwards, "RemoteForward"),
                                   (.dynamic, host.dynamicForwards, "DynamicForward")] {
            for arguments in list {
                let specification = arguments.joined(separator: ":")
                if (try? ForwardSpecification.parse(specification, kind: kind, hostID: UUID())) != nil {
                    forwards.append((kind, specification))
                } else {
                    problems.append("\(name) \(arguments.joined(separator: " ")) not imported")
                }
            }
        }
    }

    var endpoint: String { (username.map { "\($0)@" } ?? "") + hostname + ":\(port)" }
}
