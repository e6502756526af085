import Foundation
import S3
import Sodium

/// An S3 endpoint on 127.0.0.1 that misbehaves as a hostile or broken store would: every
/// listing says it is truncated (with a new continuation token each time, or always the same
/// one), and every object read answers with a body larger than any object credctl writes
/// (`vault.json` excepted, when given, so a vault can be bound to it). Python's http.server,
/// started by the test and stopped at exit.
public final class HostileS3Server: @unchecked Sendable {
    /// `endless`: a new continuation token every page; `repeating`: the same one; `finite`: one
    /// page of two objects, each claiming a size of `Int64.max`.
    public enum Listing: String { case endless, repeating, finite }

    private let server: LoopbackScript

    public init(listing: Listing, bodyBytes: Int, vaultJSON: [UInt8]? = nil, directory: String) throws {
        let vault = directory + "/hostile-vault.json"
        FileManager.default.createFile(atPath: vault, contents: Data(vaultJSON ?? []))
        server = try LoopbackScript(Self.script, named: "hostile-s3", arguments: [listing.rawValue, String(bodyBytes), vault], directory: directory)
    }

    public var endpoint: String { "http://127.0.0.1:\(server.port)" }

    public func location(prefix: String = "team") throws -> S3Location {
        try S3Location(url: "s3://bucket/\(prefix)", endpoint: endpoint, region: "us-east-1", pathStyle: true)
    }

    public func credentials() throws -> S3Credentials {
        S3Credentials(accessKeyID: "hostile", secretAccessKey: try SecretBytes(utf8: "hostile-secret"))
    }

    private static let script = #"""
        import http.server, sys
        port, listing, body_bytes, vault_path = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4]
        vault = open(vault_path, "rb").read()
        pages = [0]

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            def log_message(self, *args):
                pass
            def answer(self, status, body, length=None):
                self.send_response(status)
                self.send_header("Content-Length", str(len(body) if length is None else length))
                self.end_headers()
                return body
            def do_GET(self):
                if "list-type=2" in self.path:
                    pages[0] += 1
                    token = "same" if listing == "repeating" else "page-%d" % pages[0]
                    entry = '<Contents><Key>team/zones/config/d/%020d.batch</Key><Size>9223372036854775807</Size></Contents>'
                    if listing == "finite":
                        xml = ('<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><IsTruncated>false</IsTruncated>'
                               + entry % 1 + entry % 2 + '</ListBucketResult>')
                    else:
                        xml = ('<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><IsTruncated>true</IsTruncated>' + entry % pages[0]
                               + '<NextContinuationToken>%s</NextContinuationToken></ListBucketResult>' % token)
                    self.wfile.write(self.answer(200, xml.encode()))
                elif self.path.endswith("/vault.json") and vault:
                    self.wfile.write(self.answer(200, vault))
                else:
                    self.answer(200, b"", body_bytes)
                    chunk = b"x" * 65536
                    sent = 0
                    try:
                        while sent < body_bytes:
                            self.wfile.write(chunk[: body_bytes - sent])
                            sent += len(chunk)
                    except (BrokenPipeError, ConnectionResetError):
                        pass
            def do_PUT(self):
                length = int(self.headers.get("Content-Length", "0"))
                self.rfile.read(length)
                self.wfile.write(self.answer(200, b""))
            def do_DELETE(self):
                self.wfile.write(self.answer(204, b""))

        http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()
        """#
}
