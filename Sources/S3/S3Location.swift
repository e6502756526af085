import Foundation

/// Where a vault's objects live in an S3-compatible store: `s3://BUCKET/PREFIX` at an endpoint,
/// in a region, addressed path-style (`ENDPOINT/BUCKET/KEY`, what MinIO, SeaweedFS, Garage and
/// Ceph expect) or virtual-host style (`BUCKET.HOST/KEY`, AWS's default).
public struct S3Location: Sendable, Equatable, CustomStringConvertible {
    public let bucket: String
    /// Without leading or trailing `/`; empty for the bucket's root.
    public let prefix: String
    /// `scheme://host[:port]`.
    public let endpoint: String
    public let region: String
    public let pathStyle: Bool

    public init(url: String, endpoint: String?, region: String?, pathStyle: Bool) throws {
        guard url.hasPrefix("s3://") else { throw S3Error(.failed, "'\(url)' is not an s3://BUCKET/PREFIX address.") }
        let rest = url.dropFirst(5)
        let bucket = String(rest.prefix { $0 != "/" })
        guard bucket.count >= 3, bucket.count <= 63, bucket.allSatisfy({ $0.isLowercase || $0.isNumber || $0 == "-" || $0 == "." }), bucket.first?.isLetter == true || bucket.first?.isNumber == true else {
            throw S3Error(.failed, "'\(bucket)' is not a bucket name (3 to 63 lowercase letters, digits, '.' and '-').")
        }
        self.bucket = bucket
        prefix = rest.dropFirst(bucket.count).split(separator: "/").joined(separator: "/")
        self.region = region.flatMap { $0.isEmpty ? nil : $0 } ?? "us-east-1"
        let chosen = endpoint ?? "https://s3.\(self.region).amazonaws.com"
        guard let parsed = URL(string: chosen), let scheme = parsed.scheme, scheme == "http" || scheme == "https", let host = parsed.host, !host.isEmpty,
              parsed.path.isEmpty || parsed.path == "/", parsed.query == nil else {
            throw S3Error(.failed, "'\(chosen)' is not an endpoint URL (http[s]://HOST[:PORT]).")
        }
        self.endpoint = "\(scheme)://\(host.contains(":") ? "[\(host)]" : host)" + (parsed.port.map { ":\($0)" } ?? "")
        self.pathStyle = pathStyle
    }

    public var url: String { "s3://\(bucket)" + (prefix.isEmpty ? "" : "/\(prefix)") }

    public var description: String { "\(url) at \(endpoint)" }

    /// The object key of a remote name.
    func key(_ name: String) -> String { prefix.isEmpty ? name : prefix + "/" + name }

    /// The request URL, the Host header it implies, and the encoded path (for signing), for an
    /// object `key` (nil: the bucket itself).
    func address(key: String?, query: [(String, String)]) -> (url: URL, host: String, path: String) {
        let parsed = URL(string: endpoint)!
        let port = parsed.port.map { ":\($0)" } ?? ""
        let host = (pathStyle ? parsed.host! : "\(bucket).\(parsed.host!)") + port
        let objectPath = key.map { "/" + SigV4.encode($0, keepSlash: true) } ?? (pathStyle ? "" : "/")
        let path = pathStyle ? "/\(bucket)" + (key == nil ? "/" : objectPath) : objectPath
        let queryText = query.isEmpty ? "" : "?" + query.map { "\(SigV4.encode($0.0))=\(SigV4.encode($0.1))" }.joined(separator: "&")
        return (URL(string: "\(parsed.scheme!)://\(host)\(path)\(queryText)")!, host, path)
    }
}
