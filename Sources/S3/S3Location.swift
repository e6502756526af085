import Glibc

/// Where a vault's objects live in an S3-compatible store: `s3://BUCKET/PREFIX` at an endpoint,
/// in a region, addressed path-style (`ENDPOINT/BUCKET/KEY`, what MinIO, SeaweedFS, Garage and
/// Ceph expect) or virtual-host style (`BUCKET.HOST/KEY`, AWS's default).
public struct S3Location: Sendable, Equatable, CustomStringConvertible {
    public let bucket: String
    /// Without leading or trailing `/`; empty for the bucket's root.
    public let prefix: String
    /// `scheme://host[:port]` (no port when it is the scheme's default).
    public let endpoint: String
    private let scheme: String
    /// Without brackets, for an IPv6 address.
    private let host: String
    private let port: Int?
    public let region: String
    public let pathStyle: Bool

    public init(url: String, endpoint: String?, region: String?, pathStyle: Bool) throws {
        guard url.hasPrefix("s3://") else { throw S3Error(.failed, "'\(url)' is not an s3://BUCKET/PREFIX address.") }
        let rest = url.dropFirst(5)
        let bucket = String(rest.prefix { $0 != "/" })
        // ASCII only: a fullwidth or accented letter would reach the request's host name, where
        // the HTTP stack's IDN mapping could turn it into another bucket's.
        guard bucket.count >= 3, bucket.count <= 63, bucket.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-" || $0 == ".") }),
              bucket.first?.isLetter == true || bucket.first?.isNumber == true else {
            throw S3Error(.failed, "'\(bucket)' is not a bucket name (3 to 63 lowercase letters, digits, '.' and '-').")
        }
        self.bucket = bucket
        let segments = rest.dropFirst(bucket.count).split(separator: "/")
        // Kept to characters every store and HTTP stack leave alone ('.' and '..' segments
        // would be collapsed on the way, and the signature would no longer match).
        guard segments.allSatisfy({ $0 != "." && $0 != ".." && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) } }) else {
            throw S3Error(.failed, "The prefix in '\(url)' may hold only letters, digits, '-', '_' and '.' between slashes (and no '.' or '..' segment).")
        }
        prefix = segments.joined(separator: "/")
        self.region = region.flatMap { $0.isEmpty ? nil : $0 } ?? "us-east-1"
        let chosen = endpoint ?? "https://s3.\(self.region).amazonaws.com"
        guard let parsed = S3Endpoint.parse(chosen) else {
            throw S3Error(.failed, "'\(chosen)' is not an endpoint URL (http[s]://HOST[:PORT]).")
        }
        let scheme = parsed.scheme, bare = parsed.host
        // HTTP stacks leave a default port out of the Host header, so it is left out of what is signed too.
        let port = parsed.port.flatMap { (scheme == "http" && $0 == 80) || (scheme == "https" && $0 == 443) ? nil : $0 }
        self.scheme = scheme
        self.host = bare
        self.port = port
        self.endpoint = "\(scheme)://\(bare.contains(":") ? "[\(bare)]" : bare)" + (port.map { ":\($0)" } ?? "")
        // A dotted bucket name cannot be a host name under the store's wildcard certificate; an
        // address or localhost has no subdomains at all (BUCKET.127.0.0.1 would go to DNS, and
        // to whoever answers there, while the loopback check below let it go unencrypted).
        self.pathStyle = pathStyle || (scheme == "https" && bucket.contains(".")) || Self.isAddressOrLocalhost(bare)
    }

    public var url: String { "s3://\(bucket)" + (prefix.isEmpty ? "" : "/\(prefix)") }

    /// Plain HTTP to another machine: what crosses the network (signed requests, object names,
    /// sizes and sealed bytes) can be read and held back by anyone on the way. Loopback —
    /// `localhost`, 127.0.0.0/8, `::1` — never leaves this machine.
    public var isInsecureRemote: Bool { scheme == "http" && !Self.isLoopback(host) }

    /// `localhost`, an IPv4 address in 127.0.0.0/8 in its usual dotted form, or `::1` in any
    /// spelling. A name that merely resolves to loopback is not trusted to keep doing so.
    static func isLoopback(_ host: String) -> Bool {
        if host.lowercased() == "localhost" { return true }
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 { return UInt32(bigEndian: v4.s_addr) >> 24 == 127 }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, host, &v6) == 1 else { return false }
        return withUnsafeBytes(of: &v6) { bytes in bytes.dropLast().allSatisfy { $0 == 0 } && bytes.last == 1 }
    }

    /// `localhost`, or an IPv4 or IPv6 address rather than a name.
    static func isAddressOrLocalhost(_ host: String) -> Bool {
        var v4 = in_addr(), v6 = in6_addr()
        return host.lowercased() == "localhost" || inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }

    public var description: String { "\(url) at \(endpoint)" }

    /// The object key of a remote name.
    func key(_ name: String) -> String { prefix.isEmpty ? name : prefix + "/" + name }

    /// The request URL, the Host header it implies, and the encoded path (for signing), for an
    /// object `key` (nil: the bucket itself).
    func address(key: String?, query: [(String, String)]) -> (url: String, host: String, path: String) {
        let name = pathStyle ? (host.contains(":") ? "[\(host)]" : host) : "\(bucket).\(host)"
        let hostHeader = name + (port.map { ":\($0)" } ?? "")
        let objectPath = key.map { "/" + SigV4.encode($0, keepSlash: true) } ?? (pathStyle ? "" : "/")
        let path = pathStyle ? "/\(bucket)" + (key == nil ? "/" : objectPath) : objectPath
        let queryText = query.isEmpty ? "" : "?" + query.map { "\(SigV4.encode($0.0))=\(SigV4.encode($0.1))" }.joined(separator: "&")
        return ("\(scheme)://\(hostHeader)\(path)\(queryText)", hostHeader, path)
    }
}
