import Glibc

/// An ssh_config file with its `Include`s expanded in place (as ssh reads them: an included
/// file's lines belong where the Include is), then split into blocks.
public struct SSHConfigFile: Sendable {
    /// The settings before the first Host or Match, then one block per Host or Match line.
    public let blocks: [SSHConfigBlock]
    /// Include patterns that matched no file (ssh ignores them too).
    public let missingIncludes: [String]

    static let includeDepthLimit = 16

    /// Reads `path`. Relative Include paths are taken from `~/.ssh` (`home` is `~`).
    public init(path: String, home: String) throws {
        var missing: [String] = []
        let lines = try Self.lines(of: path, home: home, depth: 0, missing: &missing)
        var blocks = [SSHConfigBlock(kind: .global, patterns: [], location: path)]
        for line in lines {
            switch line.keyword {
            case "host": blocks.append(SSHConfigBlock(kind: .host, patterns: line.arguments, location: line.location))
            case "match": blocks.append(SSHConfigBlock(kind: .match, patterns: line.arguments, location: line.location))
            default: blocks[blocks.count - 1].lines.append(line)
            }
        }
        self.blocks = blocks
        missingIncludes = missing
    }

    private static func lines(of path: String, home: String, depth: Int, missing: inout [String]) throws -> [SSHConfigLine] {
        guard depth <= includeDepthLimit else { throw SSHConfigError("\(path): Include nested more than \(includeDepthLimit) deep.") }
        guard let text = readText(path) else { throw SSHConfigError("Cannot read \(path).") }
        var result: [SSHConfigLine] = []
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard let line = try SSHConfigLine(raw, location: "\(path):\(number + 1)") else { continue }
            guard line.keyword == "include" else { result.append(line); continue }
            for pattern in line.arguments {
                let expanded = pattern.hasPrefix("~/") ? home + pattern.dropFirst() : pattern
                let absolute = expanded.hasPrefix("/") ? expanded : home + "/.ssh/" + expanded
                let files = glob(absolute)
                if files.isEmpty { missing.append(pattern) }
                for file in files { result += try lines(of: file, home: home, depth: depth + 1, missing: &missing) }
            }
        }
        return result
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
