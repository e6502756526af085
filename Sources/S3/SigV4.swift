import Sodium

/// AWS Signature Version 4 for S3 requests: the canonical request, the string to sign, and the
/// signing key chain (HMAC-SHA-256, every intermediate key in guarded memory).
struct SigV4 {
    let credentials: S3Credentials
    let region: String
    static let service = "s3"
    static let emptyPayloadHash = SHA256.hex(SHA256.hash([]))

    /// The `Authorization` header for a request. `path` is the URI path as sent (already
    /// encoded), `query` the decoded query parameters, `headers` every header to sign (names in
    /// any case; `host`, `x-amz-date` and `x-amz-content-sha256` must be among them).
    func authorization(method: String, path: String, query: [(String, String)], headers: [String: String], payloadHash: String,
                       amzDate: String) throws -> String {
        let lowered = Dictionary(headers.map { ($0.key.lowercased(), $0.value.trimmingSpaces) }, uniquingKeysWith: { _, last in last })
        let names = lowered.keys.sorted()
        let canonicalHeaders = names.map { "\($0):\(lowered[$0]!)\n" }.joined()
        let signedHeaders = names.joined(separator: ";")
        let canonicalQuery = query.map { (Self.encode($0.0), Self.encode($0.1)) }.sorted { $0 < $1 }.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
        let canonicalRequest = [method, path, canonicalQuery, canonicalHeaders, signedHeaders, payloadHash].joined(separator: "\n")
        let day = String(amzDate.prefix(8))
        let scope = "\(day)/\(region)/\(Self.service)/aws4_request"
        let stringToSign = ["AWS4-HMAC-SHA256", amzDate, scope, SHA256.hex(SHA256.hash(Array(canonicalRequest.utf8)))].joined(separator: "\n")
        var key = try SecretBytes(copying: Array("AWS4".utf8)).appending(credentials.secretAccessKey)
        for part in [day, region, Self.service, "aws4_request"] { key = try SHA256.hmac(Array(part.utf8), key: key) }
        let signature = try SHA256.hmac(Array(stringToSign.utf8), key: key).withUnsafeBytes { SHA256.hex($0) }
        return "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(scope),SignedHeaders=\(signedHeaders),Signature=\(signature)"
    }

    /// RFC 3986 percent-encoding of everything but unreserved characters (`/` too, as SigV4
    /// wants in query values); with `keepSlash`, for URI paths.
    static func encode(_ text: String, keepSlash: Bool = false) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, 0x2D, 0x2E, 0x5F, 0x7E: result.append(Character(UnicodeScalar(byte)))
            case 0x2F where keepSlash: result.append("/")
            default: result += "%" + String(byte, radix: 16, uppercase: true).leftPadded
            }
        }
        return result
    }
}

extension String {
    var trimmingSpaces: String {
        let characters = Array(self)
        guard let first = characters.firstIndex(where: { $0 != " " && $0 != "\t" }),
              let last = characters.lastIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
        return String(characters[first...last])
    }

    fileprivate var leftPadded: String { count < 2 ? "0" + self : self }
}
