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

    public struct Target: Equatable, Sendable {
        public let hostname: String
        public let port: Int
        public let username: String?
        /// `[user@]host[:port]` of each jump host, first hop first.
        public let jumps: [String]
        /// `(-L|-R|-D, specification)` of each forward.
        public let forwards: [(flag: String, specification: String)]

        public init(hostname: String, port: Int, username: String?, jumps: [String], forwards: [(flag: String, specification: String)]) {
            self.hostname = hostname
            self.port = port
            self.username = username
            self.jumps = jumps
            self.forwards = forwards
        }

        public static func == (lhs: Target, rhs: Target) -> Bool {
            lhs.hostname == rhs.hostname && lhs.port == rhs.port && lhs.username == rhs.username && lhs.jumps == rhs.jumps
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
    public func arguments(for target: Target) -> [String] {
        var words = ["ssh"] + userOptions
        words += ["-o", "Port=\(target.port)"]
        if let username = target.username { words += ["-o", "User=\(username)"] }
        if !target.jumps.isEmpty { words += ["-o", "ProxyJump=\(target.jumps.joined(separator: ","))"] }
        for forward in target.forwards { words += [forward.flag, forward.specification] }
        // `--` so a host name can never be read as an option (host names cannot start with '-' anyway).
        return words + ["--", target.hostname] + command
    }

    /// `[user@]host[:port]` as ProxyJump takes it (an IPv6 address in brackets).
    public static func jumpSpecification(hostname: String, port: Int, username: String?) -> String {
        let host = hostname.contains(":") ? "[\(hostname)]" : hostname
        return (username.map { "\($0)@" } ?? "") + host + (port == 22 ? "" : ":\(port)")
    }
}
