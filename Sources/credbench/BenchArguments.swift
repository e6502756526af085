/// The `--flag value` pairs of a command line, in order: every credbench option takes a value.
enum BenchArguments {
    /// The pairs of `arguments`; nil when help (`--help`, `-h`) was asked for, before any check.
    static func pairs(_ arguments: [String]) throws -> [(flag: String, value: String)]? {
        if arguments.contains("--help") || arguments.contains("-h") { return nil }
        var pairs: [(flag: String, value: String)] = []
        var remaining = arguments[...]
        while let flag = remaining.popFirst() {
            guard let value = remaining.popFirst() else { throw BenchError("\(flag) needs a value.") }
            pairs.append((flag, value))
        }
        return pairs
    }
}
