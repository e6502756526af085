import Glibc

/// An S3 endpoint as given on the command line: `http[s]://HOST[:PORT]`, optionally with one
/// trailing `/`. HOST is a name (ASCII letters, digits, `-`, `.`, `_`), an IPv4 address, or an
/// IPv6 address in brackets (as `inet_pton` reads it: no zone). Nothing else is accepted — no user information, path, query or fragment,
/// no empty port — since every byte of it ends up in what is signed and where requests go.
struct S3Endpoint: Equatable {
    let scheme: String
    /// Without brackets, for an IPv6 address.
    let host: String
    let port: Int?

    static func parse(_ text: String) -> S3Endpoint? {
        let scheme: String
        if text.hasPrefix("https://") { scheme = "https" } else if text.hasPrefix("http://") { scheme = "http" } else { return nil }
        var authority = text[text.index(text.startIndex, offsetBy: scheme.count + 3)...]
        if authority.hasSuffix("/") { authority = authority.dropLast() }
        let host: Substring, portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else { return nil }
            portText = after.isEmpty ? nil : after.dropFirst()
            var address = in6_addr()
            guard host.allSatisfy(\.isASCII), inet_pton(AF_INET6, String(host), &address) == 1 else { return nil }
        } else {
            let parts = authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            host = parts[0]
            portText = parts.count == 2 ? parts[1] : nil
            guard !host.isEmpty, host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "." || $0 == "_") }) else { return nil }
        }
        var port: Int? = nil
        if let portText {
            guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(portText),
                  (1...65_535).contains(number) else { return nil }
            port = number
        }
        return S3Endpoint(scheme: scheme, host: String(host), port: port)
    }
}
