import CCurl
import Glibc

/// One HTTP request through libcurl (opened on first use, see `ccurl.h`), synchronously on the
/// calling thread.
enum CurlTransport {
    /// The status code and body. `headers` are sent as given; a PUT sends `body` as it is, with
    /// no `Expect: 100-continue` round trip.
    /// A response body larger than this is refused: no object this build writes comes near it
    /// (the directory remote refuses the same size), and a listing page is far smaller.
    static let maximumResponseBytes = 64 << 20

    static func perform(_ method: String, url: String, headers: [String: String], body: [UInt8], timeoutSeconds: Int,
                        maximumResponseBytes: Int = maximumResponseBytes) throws -> (status: Int, body: [UInt8]) {
        var lines = headers.sorted { $0.key < $1.key }.map { strdup("\($0.key): \($0.value)") }
        if method == "PUT" { lines.append(strdup("Content-Type: application/octet-stream")) }
        defer { lines.forEach { free($0) } }
        var status = 0
        var response: UnsafeMutablePointer<UInt8>?
        var length = 0
        var error = [CChar](repeating: 0, count: 512)
        let code = lines.map { UnsafePointer($0) }.withUnsafeBufferPointer { headerLines in
            body.withUnsafeBufferPointer { bytes in
                ccurl_perform(method, url, headerLines.baseAddress, headerLines.count, method == "PUT" ? (bytes.baseAddress ?? UnsafePointer(bitPattern: 1)) : nil,
                              bytes.count, timeoutSeconds, maximumResponseBytes, &status, &response, &length, &error, error.count)
            }
        }
        if code == CCURL_TOO_LARGE {
            throw S3Error(.tooLarge, "The S3 store at \(url.prefix { $0 != "?" }) sent a response larger than \(maximumResponseBytes >> 20) MiB; it was refused.")
        }
        guard code == 0 else {
            throw S3Error(.unreachable, String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        defer { ccurl_free(response) }
        return (status, response.map { Array(UnsafeBufferPointer(start: $0, count: length)) } ?? [])
    }
}
