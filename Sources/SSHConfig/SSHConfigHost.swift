/// What an ssh_config file says about one host alias: every block that applies, in order, with
/// ssh's rule that the first value obtained for a keyword wins (forwards and identity files
/// add up). ProxyJump and ProxyCommand compete for one place: whichever comes first, the other
/// is ignored, as ssh_config(5) says.
public struct SSHConfigHost: Sendable {
    public let alias: String
    /// Keyword → arguments, first obtained.
    public let settings: [String: [String]]
    public let localForwards: [[String]]
    public let remoteForwards: [[String]]
    public let dynamicForwards: [[String]]
    public let identityFiles: [String]

    public init(alias: String, in file: SSHConfigFile) {
        self.alias = alias
        var settings: [String: [String]] = [:]
        var local: [[String]] = [], remote: [[String]] = [], dynamic: [[String]] = [], identities: [String] = []
        for block in file.blocks where block.applies(to: alias) {
            for line in block.lines {
                switch line.keyword {
                case "localforward": local.append(line.arguments)
                case "remoteforward": remote.append(line.arguments)
                case "dynamicforward": dynamic.append(line.arguments)
                case "identityfile": identities += line.arguments.prefix(1)
                case "proxyjump", "proxycommand":
                    if settings["proxyjump"] == nil && settings["proxycommand"] == nil { settings[line.keyword] = line.arguments }
                default: if settings[line.keyword] == nil { settings[line.keyword] = line.arguments }
                }
            }
        }
        self.settings = settings
        localForwards = local
        remoteForwards = remote
        dynamicForwards = dynamic
        identityFiles = identities
    }

    public func value(_ keyword: String) -> String? { settings[keyword]?.first }
}
