/// What an ssh_config file says about one host alias: every block that applies, in order, with
/// ssh's rule that the first value obtained for a keyword wins (forwards and identity files
/// add up).
public struct SSHConfigHost: Sendable {
    public let alias: String
    /// Where its Host line is.
    public let location: String
    /// Keyword → arguments, first obtained.
    public let settings: [String: [String]]
    /// Keyword → `file:line` of the value taken.
    public let sources: [String: String]
    public let localForwards: [[String]]
    public let remoteForwards: [[String]]
    public let dynamicForwards: [[String]]
    public let identityFiles: [String]

    static let accumulating: Set<String> = ["localforward", "remoteforward", "dynamicforward", "identityfile"]

    public init(alias: String, location: String, in file: SSHConfigFile) {
        self.alias = alias
        self.location = location
        var settings: [String: [String]] = [:], sources: [String: String] = [:]
        var local: [[String]] = [], remote: [[String]] = [], dynamic: [[String]] = [], identities: [String] = []
        for block in file.blocks where block.applies(to: alias) {
            for line in block.lines {
                switch line.keyword {
                case "localforward": local.append(line.arguments)
                case "remoteforward": remote.append(line.arguments)
                case "dynamicforward": dynamic.append(line.arguments)
                case "identityfile": identities += line.arguments.prefix(1)
                default:
                    if settings[line.keyword] == nil {
                        settings[line.keyword] = line.arguments
                        sources[line.keyword] = line.location
                    }
                }
            }
        }
        self.settings = settings
        self.sources = sources
        localForwards = local
        remoteForwards = remote
        dynamicForwards = dynamic
        identityFiles = identities
    }

    public func value(_ keyword: String) -> String? { settings[keyword]?.first }

    /// Every concrete alias of `file`, first Host line first, each once.
    public static func all(in file: SSHConfigFile) -> [(alias: String, block: SSHConfigBlock)] {
        var seen: Set<String> = []
        var result: [(String, SSHConfigBlock)] = []
        for block in file.blocks {
            for name in block.concreteNames where seen.insert(name.lowercased()).inserted {
                result.append((name, block))
            }
        }
        return result
    }
}
