import ConfigTrack

/// One hop of a ProxyJump list, `[user@]host[:port]` (an IPv6 address in brackets). ssh reaches
/// the hops of `ProxyJump a,b,c` in order: `a` with its own settings (its own ProxyJump
/// included), then `b` through `a`, `c` through `b`, and the target through `c`; the user and
/// port given here win over the named host's own.
struct SSHConfigJumpHop: Equatable {
    /// The host name or alias, as written.
    let name: String
    let user: String?
    let port: Int?

    /// The hops of a ProxyJump value; nil unless every hop has a name, and a user and port (when
    /// given) that credctl accepts.
    static func parse(_ value: String) -> [SSHConfigJumpHop]? {
        var hops: [SSHConfigJumpHop] = []
        for text in value.split(separator: ",", omittingEmptySubsequences: false) {
            guard let hop = SSHConfigJumpHop(text) else { return nil }
            hops.append(hop)
        }
        return hops
    }

    /// As ProxyJump writes it.
    var text: String {
        (user.map { "\($0)@" } ?? "") + (port != nil && name.contains(":") ? "[\(name)]" : name) + (port.map { ":\($0)" } ?? "")
    }

    private init?(_ text: Substring) {
        var rest = text
        if let at = rest.lastIndex(of: "@") {
            user = String(rest[..<at])
            rest = rest[rest.index(after: at)...]
        } else {
            user = nil
        }
        var portText: Substring?
        if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
            name = String(rest[rest.index(after: rest.startIndex)..<close])
            let after = rest[rest.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else { return nil }
            portText = after.isEmpty ? nil : after.dropFirst()
        } else if let colon = rest.firstIndex(of: ":") {
            name = String(rest[..<colon])
            portText = rest[rest.index(after: colon)...]
        } else {
            name = String(rest)
        }
        if let portText {
            guard let number = Int(portText), (try? ConfigValidation.port(number)) != nil else { return nil }
            port = number
        } else {
            port = nil
        }
        guard !name.isEmpty, user.map({ (try? ConfigValidation.username($0)) != nil }) ?? true else { return nil }
    }
}
