import Foundation

/// A proxy on 127.0.0.1 in front of a real S3 server (SeaweedFS) that passes every request
/// through unchanged — headers included, so signatures still verify — except those a test has
/// told it to spoil: answer 500, 503, 429 (with `Retry-After`), 501 or 409 instead; hang; reset
/// the connection halfway through the body; or cut a listing short without a continuation token.
/// Python's http.server, started by the test and stopped at exit.
public final class FaultyS3Proxy: @unchecked Sendable {
    public enum Fault: String, Encodable { case status500 = "500", status503 = "503", status429 = "429", status501 = "501", status409 = "409", hang, reset, truncate }
    /// Which requests a fault spoils: listings, object reads, object writes, or any.
    public enum Target: String, Encodable { case list, get, put, any }

    private let server: LoopbackScript

    public init(upstream: String, directory: String) throws {
        server = try LoopbackScript(Self.script, named: "faulty-s3", arguments: [upstream], directory: directory)
    }

    public var endpoint: String { "http://127.0.0.1:\(server.port)" }

    /// Spoils the next `times` requests of `target` with `fault` (replacing any plan before).
    public func inject(_ fault: Fault, on target: Target, times: Int) throws {
        try control("POST", body: try JSONEncoder().encode(["fault": fault.rawValue, "target": target.rawValue, "times": String(times)]))
    }

    /// How many requests were spoiled since the last `inject`.
    public func spoiled() throws -> Int {
        Int(String(decoding: try control("GET", body: Data()), as: UTF8.self)) ?? -1
    }

    @discardableResult
    private func control(_ method: String, body: Data) throws -> Data {
        let process = Process(), output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", "import sys, urllib.request; r = urllib.request.Request(sys.argv[1], data=sys.stdin.buffer.read() or None, method=sys.argv[2]); sys.stdout.buffer.write(urllib.request.urlopen(r).read())",
                             endpoint + "/__faults", method]
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        try input.fileHandleForWriting.write(contentsOf: body)
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return data
    }

    private static let script = #"""
        import http.client, http.server, json, socket, sys, threading, time
        port, upstream = int(sys.argv[1]), sys.argv[2].split("//")[1]
        lock = threading.Lock()
        plan = {"fault": None, "target": "any", "times": 0, "spoiled": 0}

        def kind(method, path):
            if method == "GET" and "list-type=2" in path: return "list"
            return {"GET": "get", "PUT": "put"}.get(method, "other")

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            def log_message(self, *args):
                pass
            def reply(self, status, body=b"", headers=()):
                self.send_response(status)
                for name, value in headers: self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            def handle_one(self):
                length = int(self.headers.get("Content-Length", "0"))
                body = self.rfile.read(length) if length else b""
                if self.path.startswith("/__faults"):
                    with lock:
                        if self.command == "POST":
                            request = json.loads(body)
                            plan.update(fault=request["fault"], target=request["target"], times=int(request["times"]), spoiled=0)
                        answer = str(plan["spoiled"]).encode()
                    return self.reply(200, answer)
                fault = None
                with lock:
                    if plan["times"] > 0 and plan["target"] in ("any", kind(self.command, self.path)):
                        plan["times"] -= 1
                        plan["spoiled"] += 1
                        fault = plan["fault"]
                error = lambda code: ('<?xml version="1.0" encoding="UTF-8"?><Error><Code>%s</Code><Message>injected</Message></Error>' % code).encode()
                if fault in ("500", "503"):
                    return self.reply(int(fault), error("InternalError" if fault == "500" else "ServiceUnavailable"))
                if fault == "429":
                    return self.reply(429, error("SlowDown"), [("Retry-After", "1")])
                if fault == "501":
                    return self.reply(501, error("NotImplemented"))
                if fault == "409":
                    return self.reply(409, error("OperationAborted"))
                if fault == "hang":
                    time.sleep(30)
                    self.close_connection = True
                    return
                connection = http.client.HTTPConnection(upstream, timeout=30)
                headers = {name: value for name, value in self.headers.items()}
                connection.request(self.command, self.path, body=body, headers=headers)
                response = connection.getresponse()
                data = response.read()
                passed = [(n, v) for n, v in response.getheaders() if n.lower() not in ("content-length", "transfer-encoding", "connection")]
                if fault == "truncate" and b"<IsTruncated>false</IsTruncated>" in data:
                    data = data.replace(b"<IsTruncated>false</IsTruncated>", b"<IsTruncated>true</IsTruncated>")
                if fault == "reset":
                    self.send_response(response.status)
                    for name, value in passed: self.send_header(name, value)
                    self.send_header("Content-Length", str(len(data) + 100))
                    self.end_headers()
                    self.wfile.write(data[: len(data) // 2])
                    self.wfile.flush()
                    self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
                    self.close_connection = True
                    return
                self.reply(response.status, data, passed)
            do_GET = do_PUT = do_POST = do_DELETE = do_HEAD = handle_one

        http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()
        """#
}
