import SSHConfig

/// The `ssh` command line for a resolved host, plus what the user added after `--`.
///
/// The user's words are read as ssh reads its own: leading options (with their arguments) go
/// before the destination, the first other word starts the remote command. The host's settings
/// are given as `-o Keyword=value`, which ssh applies only when nothing earlier on the command
/// line set them, so the user's own `-p`, `-l`, `-J` or `-o` always win.
public struct SSHCommandLine: Equatable, Sendable {
    /// Options of ssh (OpenSSH 9.2's getopt string) that take an argument.
    static let optionsWithArgument = Set("bceilmopBDEFIJLOQRSwW")
    /// Options of ssh that take none.
    static let flags = Set("1246afgknqstvxyACGKMNPTVXY")

    /// One machine on the way: the target or a jump host, with the label it has in the vault
    /// (for messages).
    public struct Hop: Equatable, Sendable {
        public let label: String
        public let hostname: String
        public let port: Int
        public let username: String?

        public init(label: String, hostname: String, port: Int, username: String?) {
            self.label = label
            self.hostname = hostname
            self.port = port
            self.username = username
        }
    }

    public struct Target: Equatable, Sendable {
        public let host: Hop
        /// Each jump host, first hop first.
        public let jumps: [Hop]
        /// `(-L|-R|-D, specification)` of each forward.
        public let forwards: [(flag: String, specification: String)]

        public init(host: Hop, jumps: [Hop], forwards: [(flag: String, specification: String)]) {
            self.host = host
            self.jumps = jumps
            self.forwards = forwards
        }

        public static func == (lhs: Target, rhs: Target) -> Bool {
            lhs.host == rhs.host && lhs.jumps == rhs.jumps
                && lhs.forwards.map { $0.flag + $0.specification } == rhs.forwards.map { $0.flag + $0.specification }
        }
    }

    /// The user's leading options, and the remote command.
    public let userOptions: [String]
    public let command: [String]

    /// Splits the words given after `--`.
    public init(userWords: [String]) throws {
        var options: [String] = []
        var index = 0
        scan: while index < userWords.count {
            let word = userWords[index]
            if word == "--" { index += 1; break }
            guard word.hasPrefix("-"), word.count > 1 else { break }
            options.append(word)
            index += 1
            var letters = Substring(word.dropFirst())
            while let letter = letters.first {
                letters = letters.dropFirst()
                if Self.optionsWithArgument.contains(letter) {
                    if letters.isEmpty {
                        guard index < userWords.count else { throw LaunchError("ssh option -\(letter) needs an argument.", status: 64) }
                        options.append(userWords[index])
                        index += 1
                    }
                    continue scan
                }
                guard Self.flags.contains(letter) else { throw LaunchError("'-\(letter)' is not an ssh option.", status: 64) }
            }
        }
        userOptions = options
        command = Array(userWords[index...])
    }

    /// The whole argument vector, starting with `ssh`.
    ///
    /// Every host name, user name and forward is checked here again, whatever checked it
    /// before (an older vault, a record from an older build): OpenSSH 9.2 pastes a jump host's
    /// user name unquoted into a command `sh -c` runs, and expands `%` tokens, so a value outside
    /// `OpenSSHValue`'s rules is refused (exit status 65) and ssh is never started.
    public func arguments(for target: Target) throws -> [String] {
        try Self.check(target.host, role: "host")
        for jump in target.jumps {
            try Self.check(jump, role: "jump host")
            // ProxyJump becomes a ProxyCommand that ssh %-expands: an IPv6 zone's '%' would be read as a token.
            if jump.hostname.contains("%") {
                throw LaunchError("Jump host '\(jump.label)' cannot be used: its host name has an IPv6 zone ('%'), which ProxyJump would read as a token.", status: 65)
            }
        }
        for forward in target.forwards {
            if let problem = OpenSSHValue.forwardProblem(forward.specification) {
                throw LaunchError("A port forward of '\(target.host.label)' cannot be given to ssh: its specification \(problem).", status: 65)
            }
        }
        var words = ["ssh"] + userOptions
        words += ["-o", "Port=\(target.host.port)"]
        if let username = target.host.username { words += ["-o", "User=\(username)"] }
        if !target.jumps.isEmpty { words += ["-o", "ProxyJump=\(target.jumps.map(Self.jumpSpecification).joined(separator: ","))"] }
        for forward in target.forwards { words += [forward.flag, forward.specification] }
        // `--` so a host name can never be read as an option (host names cannot start with '-' anyway).
        return words + ["--", target.host.hostname] + command
    }

    /// `[user@]host[:port]` as ProxyJump takes it (an IPv6 address in brackets).
    public static func jumpSpecification(_ hop: Hop) -> String {
        let host = hop.hostname.contains(":") ? "[\(hop.hostname)]" : hop.hostname
        return (hop.username.map { "\($0)@" } ?? "") + host + (hop.port == 22 ? "" : ":\(hop.port)")
    }

    private static func check(_ hop: Hop, role: String) throws {
        let why = "stored before credctl checked it, or received from another device; change it with credctl host edit"
        if let problem = OpenSSHValue.hostnameProblem(hop.hostname) {
            throw LaunchError("The \(role) '\(hop.label)' is refused: its host name \(problem) (\(why)).", status: 65)
        }
        if let username = hop.username, let problem = OpenSSHValue.usernameProblem(username) {
            throw LaunchError("The \(role) '\(hop.label)' is refused: its user name \(problem) (\(why)).", status: 65)
        }
        guard (1...65_535).contains(hop.port) else {
            throw LaunchError("The \(role) '\(hop.label)' is refused: its port \(hop.port) is not between 1 and 65535.", status: 65)
        }
    }
}
