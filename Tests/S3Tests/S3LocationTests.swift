@testable import S3
import XCTest

final class S3LocationTests: XCTestCase {
    private func address(_ endpoint: String?, bucket: String = "vault", pathStyle: Bool = false, key: String? = "zones/a b") throws -> (String, String, String) {
        let location = try S3Location(url: "s3://\(bucket)/team/one", endpoint: endpoint, region: "eu-west-1", pathStyle: pathStyle)
        return location.address(key: key.map(location.key), query: [("prefix", "a/b")])
    }

    func testAddressesForEveryEndpointForm() throws {
        XCTAssertEqual(try address(nil).1, "vault.s3.eu-west-1.amazonaws.com")
        XCTAssertEqual(try address(nil).2, "/team/one/zones/a%20b")
        XCTAssertEqual(try address("http://127.0.0.1:8333", pathStyle: true).0, "http://127.0.0.1:8333/vault/team/one/zones/a%20b?prefix=a%2Fb")
        // A default port is not part of the Host header, so it is not signed either.
        XCTAssertEqual(try address("https://minio.example:443", pathStyle: true).1, "minio.example")
        XCTAssertEqual(try address("http://minio.example:80", pathStyle: true).1, "minio.example")
        // IPv6 endpoints keep their brackets.
        XCTAssertEqual(try address("http://[::1]:8333", pathStyle: true).1, "[::1]:8333")
        XCTAssertEqual(try address("http://[::1]:8333", pathStyle: true).0, "http://[::1]:8333/vault/team/one/zones/a%20b?prefix=a%2Fb")
        // A dotted bucket over https is addressed path-style (no wildcard certificate covers it).
        XCTAssertEqual(try address(nil, bucket: "my.vault").1, "s3.eu-west-1.amazonaws.com")
        XCTAssertEqual(try address(nil, key: nil).2, "/")
        XCTAssertEqual(try address("http://127.0.0.1:8333", pathStyle: true, key: nil).2, "/vault/")
    }

    func testPrefixesAndEndpointsStoresWouldMangleAreRefused() {
        XCTAssertThrowsError(try S3Location(url: "s3://vault/a/../b", endpoint: nil, region: nil, pathStyle: false))
        XCTAssertThrowsError(try S3Location(url: "s3://vault/a b", endpoint: nil, region: nil, pathStyle: false))
        XCTAssertThrowsError(try S3Location(url: "s3://Vault/x", endpoint: nil, region: nil, pathStyle: false))
        XCTAssertThrowsError(try S3Location(url: "s3://vault/x", endpoint: "ftp://host", region: nil, pathStyle: false))
        XCTAssertThrowsError(try S3Location(url: "s3://vault/x", endpoint: "http://host/path", region: nil, pathStyle: false))
    }

    /// Exactly http[s]://HOST[:PORT] with an optional trailing slash: every byte of the endpoint
    /// is signed and decides where requests go, so nothing else is read into it.
    func testEndpointsAreReadStrictly() {
        let accepted: [(String, S3Endpoint)] = [
            ("http://127.0.0.1:8333", S3Endpoint(scheme: "http", host: "127.0.0.1", port: 8333)),
            ("https://s3.eu-west-1.amazonaws.com/", S3Endpoint(scheme: "https", host: "s3.eu-west-1.amazonaws.com", port: nil)),
            ("https://minio_1.internal:9000", S3Endpoint(scheme: "https", host: "minio_1.internal", port: 9000)),
            ("http://[::1]:8333", S3Endpoint(scheme: "http", host: "::1", port: 8333)),
            ("http://[fe80::1]", S3Endpoint(scheme: "http", host: "fe80::1", port: nil)),
            ("http://host:65535", S3Endpoint(scheme: "http", host: "host", port: 65535)),
        ]
        for (text, endpoint) in accepted { XCTAssertEqual(S3Endpoint.parse(text), endpoint, text) }
        let refused = ["", "host:80", "ftp://host", "HTTP://host", "http://", "http:///", "http://host/path", "http://host//", "http://host?x=1",
                       "http://host#frag", "http://user@host", "http://user:pass@host:80", "http://host:", "http://host:0", "http://host:65536",
                       "http://host:+80", "http://host:8a", "http://host:123456", "http://ho st", "http://h\u{e9}st", "http://host\u{0}",
                       "http://[::1", "http://[::1]x", "http://[]", "http://[host]", "http://[::1]:", "http://host:80:81", " http://host"]
        for text in refused { XCTAssertNil(S3Endpoint.parse(text), text.debugDescription) }
        // IPv6 as inet_pton reads it, in ASCII: no zone, no fullwidth digit, no stray colon.
        for text in ["http://[:]", "http://[1.2.3.4:]", "http://[::\u{ff11}]", "http://[\u{ff21}\u{ff22}::1]:80", "http://[fe80::1%eth0]",
                     "http://[fe80::1%25eth0]", "http://[1:2:3:4:5:6:7:8:9]", "http://[12345::1]"] {
            XCTAssertNil(S3Endpoint.parse(text), text.debugDescription)
        }
        XCTAssertEqual(S3Endpoint.parse("http://[::ffff:127.0.0.1]:80"), S3Endpoint(scheme: "http", host: "::ffff:127.0.0.1", port: 80))
    }

    /// A bucket is ASCII: a fullwidth or accented letter would reach the host name, where the
    /// HTTP stack's IDN mapping could make it another bucket's.
    func testBucketNamesAreASCII() {
        for bucket in ["\u{ff56}\u{ff41}\u{ff55}\u{ff4c}\u{ff54}", "v\u{e9}ult", "vault\u{2170}", "vault\u{bd}"] {
            XCTAssertThrowsError(try S3Location(url: "s3://\(bucket)/x", endpoint: nil, region: nil, pathStyle: false), bucket)
        }
    }

    /// An address or localhost has no subdomains: such an endpoint is addressed path-style even
    /// when not asked, so requests go where the loopback check looked (not to BUCKET.127.0.0.1 in DNS).
    func testAnAddressOrLocalhostIsAddressedPathStyle() throws {
        XCTAssertEqual(try address("http://127.0.0.1:8333").1, "127.0.0.1:8333")
        XCTAssertEqual(try address("http://127.0.0.1:8333").0, "http://127.0.0.1:8333/vault/team/one/zones/a%20b?prefix=a%2Fb")
        XCTAssertEqual(try address("http://localhost:9000").1, "localhost:9000")
        XCTAssertEqual(try address("http://[::1]:8333").1, "[::1]:8333")
        XCTAssertEqual(try address("https://10.1.2.3").1, "10.1.2.3")
        XCTAssertEqual(try address("https://minio.example").1, "vault.minio.example", "a name keeps virtual-host style")
    }

    func testListingsDecodeNamedAndNumericEntities() {
        let body = Array("<ListBucketResult><Contents><Key>a&#39;b&amp;c&#x9;d&lt;</Key><Size>7</Size></Contents><Key>&bogus;</Key></ListBucketResult>".utf8)
        XCTAssertEqual(S3XML.values("Key", in: body), ["a'b&c\td<", "&bogus;"])
        XCTAssertEqual(S3XML.values("Size", in: body), ["7"])
    }

    /// Plain HTTP is insecure unless it stays on this machine; https never is.
    func testOnlyLoopbackHTTPIsSecure() throws {
        for host in ["localhost", "LocalHost", "127.0.0.1", "127.255.3.9", "[::1]", "[0:0:0:0:0:0:0:1]"] {
            XCTAssertFalse(try S3Location(url: "s3://vault/x", endpoint: "http://\(host):8333", region: nil, pathStyle: true).isInsecureRemote, host)
        }
        for host in ["10.0.0.1", "128.0.0.1", "0.0.0.0", "127.example.com", "localhost.example.com", "[::2]", "[::ffff:127.0.0.1]", "s3.example"] {
            XCTAssertTrue(try S3Location(url: "s3://vault/x", endpoint: "http://\(host):8333", region: nil, pathStyle: true).isInsecureRemote, host)
            XCTAssertFalse(try S3Location(url: "s3://vault/x", endpoint: "https://\(host):8333", region: nil, pathStyle: true).isInsecureRemote, host)
        }
        XCTAssertFalse(try S3Location(url: "s3://vault/x", endpoint: nil, region: nil, pathStyle: false).isInsecureRemote, "AWS over https")
    }
}
