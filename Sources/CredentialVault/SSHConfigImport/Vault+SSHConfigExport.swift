import ConfigTrack
import Identifiers
import SSHConfig

extension Vault {
    /// Every host as an ssh_config Host block — HostName, Port, User, ProxyJump (the jump
    /// host's own block), forwards — so a user can leave with their hosts. No secret and no key
    /// path is written (keys stay sealed in the vault). A label ssh could not use as a Host
    /// name (white space, `#`, quotes, wildcards, `!`, `,`) is written with those characters
    /// replaced by `-`, and the label itself in a comment above.
    public func exportSSHConfig() throws(VaultError) -> String {
        try VaultError.wrapping {
            let hosts = try config.hosts().sorted { $0.label < $1.label }
            let names = Self.exportNames(hosts)
            let forwards = Dictionary(grouping: try config.forwards(forHost: nil), by: \.hostID)
            var text = "# Hosts exported by credctl export ssh-config: no secrets and no key paths.\n"
            for host in hosts {
                try Self.checkExportable(host, forwards: forwards[host.id] ?? [])
                let name = names[host.id] ?? host.label
                text += "\n"
                if name != host.label { text += "# credctl host: \(CanonicalUUID.printable(host.label))\n" }
                // HostName takes %-tokens, so a literal '%' (an IPv6 zone) is written '%%'.
                text += "Host \(name)\n    HostName \(Self.value(host.hostname.map { $0 == "%" ? "%%" : String($0) }.joined()))\n"
                if host.port != 22 { text += "    Port \(host.port)\n" }
                if let user = host.username { text += "    User \(Self.value(user))\n" }
                if let jump = host.jumpHostID.flatMap({ names[$0] }) { text += "    ProxyJump \(jump)\n" }
                for rule in (forwards[host.id] ?? []).sorted(by: { "\($0.kind.rawValue)\($0.specification)" < "\($1.kind.rawValue)\($1.specification)" }) {
                    text += "    " + Self.forwardLine(rule) + "\n"
                }
            }
            return text
        }
    }

    /// A value as ssh_config reads it back: in double quotes, with `"` and `\` escaped, when it
    /// holds anything ssh would split or treat specially.
    static func value(_ text: String) -> String {
        guard text.contains(where: { " \t\"'#=\\".contains($0) }) else { return text }
        return "\"" + text.map { $0 == "\\" || $0 == "\"" ? "\\" + String($0) : String($0) }.joined() + "\""
    }

    /// Refuses, on its own, a value that is not data to ssh (a line break would start a new
    /// keyword, `%` a token): whatever let it into the vault, it is never written.
    private static func checkExportable(_ host: Host, forwards: [PortForwardRule]) throws {
        let label = CanonicalUUID.printable(host.label)
        let problem = OpenSSHValue.hostnameProblem(host.hostname).map { "its host name \($0)" }
            ?? host.username.flatMap(OpenSSHValue.usernameProblem).map { "its user name \($0)" }
            ?? forwards.lazy.compactMap { OpenSSHValue.forwardProblem($0.specification) }.first.map { "a port forward's specification \($0)" }
        if let problem {
            throw VaultError(.invalidInput, "Host '\(label)' cannot be exported: \(problem); nothing was written.",
                             hint: "Fix it with credctl host edit (or remove the forward), then export again.")
        }
    }

    /// Host names ssh can take, unique, by host id.
    private static func exportNames(_ hosts: [Host]) -> [UUID: String] {
        var names: [UUID: String] = [:], used: Set<String> = []
        for host in hosts {
            let cleaned = String(host.label.map { " \t#\"'*?!,=".contains($0) || $0.isNewline ? "-" : $0 })
            var name = cleaned, suffix = 2
            while !used.insert(name.lowercased()).inserted {
                name = "\(cleaned)-\(suffix)"
                suffix += 1
            }
            names[host.id] = name
        }
        return names
    }

    private static func forwardLine(_ rule: PortForwardRule) -> String {
        let bind = rule.bindAddress.map { ($0.contains(":") ? "[\($0)]" : $0) + ":" } ?? ""
        switch rule.kind {
        case .dynamic: return "DynamicForward \(bind)\(rule.bindPort)"
        case .local, .remote:
            let destination = (rule.destinationHost ?? "").contains(":") ? "[\(rule.destinationHost ?? "")]" : rule.destinationHost ?? ""
            return (rule.kind == .local ? "LocalForward " : "RemoteForward ") + "\(bind)\(rule.bindPort) \(destination):\(rule.destinationPort ?? 0)"
        }
    }
}
