import FuzzSupport
import SSHConfig

/// ssh_config `Host` patterns (`*`, `?`, `!` negation, case ignored) matched against a host
/// alias: a pattern list field (words split on spaces, as on a Host line), then the alias.
///
/// Checked against a plain reference matcher: a pattern without wildcards matches exactly its
/// own text (ignoring case), `*` alone matches everything.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHostPattern(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let patterns = input.text().split(separator: " ").map(String.init)
    let name = String(decoding: input.rest(), as: UTF8.self)
    _ = SSHConfigBlock.list(patterns, matches: name)
    for pattern in patterns.prefix(4) {
        let matched = SSHPattern.matches(pattern, name)
        if pattern == "*" { FuzzFixtures.require(matched, "'*' does not match '\(name)'") }
        if !pattern.contains("*") && !pattern.contains("?") {
            FuzzFixtures.require(matched == (pattern.lowercased() == name.lowercased()), "a pattern without wildcards matched otherwise than equality")
        }
    }
    return 0
}
