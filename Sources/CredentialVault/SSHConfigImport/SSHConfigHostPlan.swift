import ConfigTrack
import FoundationEssentials
import SSHConfig

/// One ssh_config Host turned into what the vault stores, before anything is written: the
/// host's fields, its forwards, the key file to import, the jump host's name, and notes on what
/// was left out. Nothing that executes (ProxyCommand, LocalCommand, KnownHostsCommand) is
/// ever run or imported.
package struct SSHConfigHostPlan {
    static let executing = ["proxycommand": "ProxyCommand", "localcommand": "LocalCommand", "knownhostscommand": "KnownHostsCommand"]

    let alias: String
    var hostname = ""
    var port = 22
    var username: String?
    /// The jump host's name, and the user and port the ProxyJump gives for it, if any.
    var jump: (host: String, user: String?, port: Int?)?
    var forwards: [(kind: ForwardKind, specification: String)] = []
    var identityFile: String?
    var notes: [String] = []
    /// Why the host cannot be imported at all.
    var refusal: String?

    package init(_ host: SSHConfigHost, home: String, localUser: String) {
        alias = host.alias
        for (keyword, name) in Self.executing where host.settings[keyword] != nil {
            notes.append("\(name) not imported (never run)")
        }
        let tokens = SSHConfigTokens(values: ["h": host.alias, "%": "%"])
        guard let name = tokens.expand(host.value("hostname") ?? host.alias), let valid = try? ConfigValidation.hostname(name) else {
            refusal = "HostName '\(host.value("hostname") ?? host.alias)' is not a host name credctl can use"
            return
        }
        hostname = valid
        if let text = host.value("port") {
            guard let number = Int(text), (try? ConfigValidation.port(number)) != nil else { refusal = "Port '\(text)' is not a port number"; return }
            port = number
        }
        if let user = host.value("user") {
            if let expanded = SSHConfigTokens(values: ["%": "%", "u": localUser]).expand(user), (try? ConfigValidation.username(expanded)) != nil {
                username = expanded
            } else {
                notes.append("User '\(user)' not imported")
            }
        }
        if let proxy = host.value("proxyjump"), proxy.lowercased() != "none" {
            if proxy.contains(",") {
                notes.append("ProxyJump with several hops not linked")
            } else {
                jump = Self.parseJump(proxy)
            }
        }
        collectForwards(host)
        if let file = host.identityFiles.first, file.lowercased() != "none" {
            let keyTokens = SSHConfigTokens(values: ["%": "%", "d": home, "u": localUser, "h": hostname, "r": username ?? localUser])
            if let expanded = keyTokens.expand(file.hasPrefix("~/") ? home + file.dropFirst() : file) {
                identityFile = expanded
            } else {
                notes.append("IdentityFile '\(file)' not imported")
            }
            if host.identityFiles.count > 1 { notes.append("only the first IdentityFile imported") }
        }
    }

    private mutating func collectForwards(_ host: SSHConfigHost) {
        for (kind, list, name) in [(ForwardKind.local, host.localForwards, "LocalForward"), (.remote, host.remoteForwards, "RemoteForward"),
                                   (.dynamic, host.dynamicForwards, "DynamicForward")] {
            for arguments in list {
                let specification = arguments.joined(separator: ":")
                if (try? ForwardSpecification.parse(specification, kind: kind, hostID: UUID())) != nil {
                    forwards.append((kind, specification))
                } else {
                    notes.append("\(name) \(arguments.joined(separator: " ")) not imported")
                }
            }
        }
    }

    /// `[user@]host[:port]` (an IPv6 address in brackets).
    static func parseJump(_ jump: String) -> (host: String, user: String?, port: Int?) {
        var rest = Substring(jump)
        var user: String?
        if let at = rest.lastIndex(of: "@") {
            user = String(rest[..<at])
            rest = rest[rest.index(after: at)...]
        }
        var host = rest
        var port: Int?
        if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
            host = rest[rest.index(after: rest.startIndex)..<close]
            rest = rest[rest.index(after: close)...]
            if rest.hasPrefix(":") { port = Int(rest.dropFirst()) }
        } else if let colon = rest.firstIndex(of: ":") {
            host = rest[..<colon]
            port = Int(rest[rest.index(after: colon)...])
        }
        return (String(host), user, port)
    }

    var endpoint: String { (username.map { "\($0)@" } ?? "") + hostname + ":\(port)" }
}
