import Glibc

/// An ssh_config file split into blocks, its `Include`s followed as ssh follows them: an
/// included file's first lines belong to the block the Include is in, its Host blocks apply only
/// within that block's Host patterns (never within a Match), and the enclosing block goes on
/// after the Include.
public struct SSHConfigFile: Sendable {
    /// The settings before the first Host or Match, then one block per Host or Match line.
    public let blocks: [SSHConfigBlock]
    /// Include patterns that matched no file (ssh ignores them too).
    public let missingIncludes: [String]

    static let includeDepthLimit = 16

    /// Reads `path`. Relative Include paths are taken from `~/.ssh` (`home` is `~`).
    public init(path: String, home: String) throws {
        var reader = Reader(home: home, blocks: [SSHConfigBlock(kind: .global, patterns: [], location: path)])
        try reader.read(path, depth: 0)
        blocks = reader.blocks
        missingIncludes = reader.missing
    }

    private struct Reader {
        let home: String
        var blocks: [SSHConfigBlock]
        var missing: [String] = []
        var guards: [[String]] = []
        var inert = false

        mutating func read(_ path: String, depth: Int) throws {
            guard depth <= includeDepthLimit else { throw SSHConfigError("\(path): Include nested more than \(includeDepthLimit) deep.") }
            guard let text = readText(path) else { throw SSHConfigError("Cannot read \(path).") }
            for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                guard let line = try SSHConfigLine(raw, location: "\(path):\(number + 1)") else { continue }
                switch line.keyword {
                case "host": blocks.append(SSHConfigBlock(kind: .host, patterns: line.arguments, location: line.location, guards: guards, inert: inert))
                case "match": blocks.append(SSHConfigBlock(kind: .match, patterns: line.arguments, location: line.location, guards: guards, inert: inert))
                case "include": try include(line, depth: depth)
                default: blocks[blocks.count - 1].lines.append(line)
                }
            }
        }

        private mutating func include(_ line: SSHConfigLine, depth: Int) throws {
            let enclosing = blocks[blocks.count - 1]
            let saved = (guards, inert)
            if enclosing.kind == .host { guards = enclosing.guards + [enclosing.patterns] }
            if enclosing.kind == .match { inert = true }
            for pattern in line.arguments {
                let expanded = pattern.hasPrefix("~/") ? home + pattern.dropFirst() : pattern
                let files = glob(expanded.hasPrefix("/") ? expanded : home + "/.ssh/" + expanded)
                if files.isEmpty { missing.append(pattern) }
                for file in files {
                    blocks.append(enclosing.continuation(at: file))
                    try read(file, depth: depth + 1)
                }
            }
            (guards, inert) = saved
            blocks.append(enclosing.continuation(at: line.location))
        }
    }

    static func readText(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            bytes += chunk[..<n]
            guard bytes.count <= 4 << 20 else { return nil }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The files matching a shell pattern, sorted (as glob(3) returns them).
    static func glob(_ pattern: String) -> [String] {
        var results = glob_t()
        defer { globfree(&results) }
        guard Glibc.glob(pattern, 0, nil, &results) == 0 else { return [] }
        return (0..<Int(results.gl_pathc)).compactMap { results.gl_pathv[$0].map { String(cString: $0) } }
    }
}
