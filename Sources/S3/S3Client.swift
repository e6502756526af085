import Glibc
import Sodium

/// Signed requests to one bucket, retried with exponential backoff and jitter when the store
/// fails (5xx, a dropped connection, a timeout); 4xx answers become `S3Error`s that say what to
/// fix (bad credentials, no such bucket, access denied).
final class S3Client: Sendable {
    struct Response {
        let status: Int
        let body: [UInt8]
        /// The `<Code>` of an S3 error document, if the body is one.
        var errorCode: String? { S3XML.values("Code", in: body).first }
    }

    let location: S3Location
    private let signer: SigV4
    private let credentials: S3Credentials
    private let timeoutSeconds: Int
    static let attempts = 5

    /// How long one request may take: `CREDCTL_S3_TIMEOUT_SECONDS` (1…600), else 15.
    static var defaultTimeoutSeconds: Int {
        guard let text = getenv("CREDCTL_S3_TIMEOUT_SECONDS").map({ String(cString: $0) }), let seconds = Int(text), (1...600).contains(seconds) else { return 15 }
        return seconds
    }

    init(location: S3Location, credentials: S3Credentials, timeoutSeconds: Int = S3Client.defaultTimeoutSeconds) {
        self.location = location
        self.credentials = credentials
        self.timeoutSeconds = timeoutSeconds
        signer = SigV4(credentials: credentials, region: location.region)
    }

    /// Sends a request, retrying failures of the store; returns any answer below 500.
    func send(_ method: String, key: String?, query: [(String, String)] = [], body: [UInt8] = [], headers: [String: String] = [:]) throws -> Response {
        var delay = 0.1
        var lastProblem = ""
        for attempt in 1...Self.attempts {
            do {
                let response = try sendOnce(method, key: key, query: query, body: body, headers: headers)
                // 501 (a feature the store lacks) will not change; 429 and RequestTimeout will.
                let transient = response.status >= 500 && response.status != 501 || response.status == 429 || response.errorCode == "RequestTimeout"
                if !transient { return response }
                lastProblem = "HTTP \(response.status)" + (response.errorCode.map { " \($0)" } ?? "")
            } catch let error as S3Error where error.code == .unreachable {
                lastProblem = error.message
            }
            if attempt < Self.attempts {
                usleep(UInt32((delay + Double.random(in: 0...delay)) * 1_000_000))
                delay = min(delay * 2, 2)
            }
        }
        throw S3Error(.unreachable, "The S3 store at \(location.endpoint) keeps failing (\(lastProblem)) after \(Self.attempts) attempts.")
    }

    private func sendOnce(_ method: String, key: String?, query: [(String, String)], body: [UInt8], headers: [String: String]) throws -> Response {
        let (url, host, path) = location.address(key: key, query: query)
        let payloadHash = SHA256.hex(SHA256.hash(body))
        let amzDate = Self.amzDate()
        var signed = headers.merging(["host": host, "x-amz-date": amzDate, "x-amz-content-sha256": payloadHash]) { $1 }
        if let token = credentials.sessionToken { signed["x-amz-security-token"] = token }
        // curl derives the Host header from the URL exactly as it was signed.
        var sent = signed.filter { $0.key != "host" }
        sent["Authorization"] = try signer.authorization(method: method, path: path, query: query, headers: signed, payloadHash: payloadHash, amzDate: amzDate)
        do {
            let (status, bytes) = try CurlTransport.perform(method, url: url, headers: sent, body: body, timeoutSeconds: timeoutSeconds)
            return Response(status: status, body: bytes)
        } catch let error as S3Error where error.code == .unreachable {
            throw S3Error(.unreachable, "Cannot reach the S3 store at \(location.endpoint): \(error.message).")
        }
    }

    /// Turns a 4xx answer into the error a user can act on.
    func failure(_ response: Response, doing action: String) -> S3Error {
        let code = response.errorCode ?? "HTTP \(response.status)"
        switch (response.status, response.errorCode) {
        case (_, "NoSuchBucket"):
            return S3Error(.noSuchBucket, "The bucket '\(location.bucket)' does not exist at \(location.endpoint).")
        case (_, "AuthorizationHeaderMalformed"):
            return S3Error(.credentials, "The S3 store expects another region than \(location.region) for \(location.bucket) (AuthorizationHeaderMalformed); give the bucket's region with --region.")
        case (_, "RequestTimeTooSkewed"):
            return S3Error(.failed, "The S3 store refused a request because this machine's clock is too far off (RequestTimeTooSkewed); set the clock right.")
        case (_, "InvalidAccessKeyId"), (_, "SignatureDoesNotMatch"), (_, "InvalidToken"), (_, "ExpiredToken"), (401, _):
            return S3Error(.credentials, "The S3 store refused the credentials (\(code)) when asked to \(action); check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or the profile).")
        case (403, _):
            return S3Error(.accessDenied, "The S3 store denied access (\(code)) when asked to \(action) in \(location.url).")
        default:
            return S3Error(.failed, "The S3 store answered \(code) when asked to \(action) in \(location.url).")
        }
    }

    private static func amzDate() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))T\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))Z"
    }
}
