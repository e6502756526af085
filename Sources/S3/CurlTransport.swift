import CCurl
import Glibc
import Sodium

/// One HTTP request through libcurl, synchronously on the calling thread.
enum CurlTransport {
    private static let initialized: Bool = { curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK }()

    /// Collects the response body; curl calls back on this thread only.
    private final class Collector {
        var bytes: [UInt8] = []
    }

    /// The status code and body. `headers` are sent as given (name: value); for a body, the
    /// bytes go as they are, with no `Expect: 100-continue` round trip.
    static func perform(_ method: String, url: String, headers: [String: String], body: [UInt8], timeoutSeconds: Int) throws -> (status: Int, body: [UInt8]) {
        guard initialized, let handle = curl_easy_init() else { throw S3Error(.unreachable, "libcurl could not start a request.") }
        defer { curl_easy_cleanup(handle) }
        var list: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(list) }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { list = curl_slist_append(list, "\(name): \(value)") }
        list = curl_slist_append(list, "Expect:")
        if method == "PUT" { list = curl_slist_append(list, "Content-Type: application/octet-stream") }
        let collector = Collector()
        var errorText = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        let code: CURLcode = withExtendedLifetime(collector) {
            ccurl_setopt_string(handle, CURLOPT_URL, url)
            ccurl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, method)
            ccurl_setopt_slist(handle, CURLOPT_HTTPHEADER, list)
            ccurl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
            ccurl_setopt_long(handle, CURLOPT_TIMEOUT, timeoutSeconds)
            ccurl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT, min(timeoutSeconds, 10))
            ccurl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0)
            ccurl_setopt_pointer(handle, CURLOPT_WRITEDATA, Unmanaged.passUnretained(collector).toOpaque())
            ccurl_setopt_write(handle) { data, size, count, context in
                guard let data, let context else { return 0 }
                let collector = Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue()
                collector.bytes.append(contentsOf: UnsafeRawBufferPointer(start: data, count: size * count))
                return size * count
            }
            return errorText.withUnsafeMutableBufferPointer { errorBuffer in
                ccurl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer.baseAddress)
                return body.withUnsafeBytes { bytes in
                    if method == "PUT" {
                        ccurl_setopt_long(handle, CURLOPT_POSTFIELDSIZE, bytes.count)
                        ccurl_setopt_pointer(handle, CURLOPT_POSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!))
                    }
                    return curl_easy_perform(handle)
                }
            }
        }
        guard code == CURLE_OK else {
            let detail = String(decoding: errorText.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw S3Error(.unreachable, detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail)
        }
        var status = 0
        ccurl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        return (status, collector.bytes)
    }
}
