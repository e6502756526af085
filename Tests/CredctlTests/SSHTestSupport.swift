import Foundation
import Synchronization

/// A TCP echo server on 127.0.0.1 for one connection: what it reads, it writes back.
final class EchoServer: @unchecked Sendable {
    private let listener: Int32
    private let served = Mutex(false)
    /// Whether a connection through the tunnel reached this server and was answered.
    var wasServed: Bool { served.withLock { $0 } }

    init(port: Int) throws {
        listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in(sin_family: sa_family_t(AF_INET), sin_port: UInt16(port).bigEndian, sin_addr: in_addr(s_addr: inet_addr("127.0.0.1")), sin_zero: (0, 0, 0, 0, 0, 0, 0, 0))
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard bound == 0, listen(listener, 4) == 0 else { throw HeadlessKeyring.FixtureFailure("echo server could not listen on \(port)") }
        DispatchQueue.global().async { [self] in
            while true {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { return }
                var buffer = [UInt8](repeating: 0, count: 4_096)
                let n = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
                if n > 0 {
                    // Marked before the answer goes out: whoever reads the answer then sees it.
                    served.withLock { $0 = true }
                    _ = buffer.withUnsafeBytes { send(connection, $0.baseAddress, n, 0) }
                }
                close(connection)
            }
        }
    }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    /// Sends `message` to 127.0.0.1:`port` and returns what comes back, or nil if nothing does.
    static func roundTrip(port: Int, message: String) -> String? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in(sin_family: sa_family_t(AF_INET), sin_port: UInt16(port).bigEndian, sin_addr: in_addr(s_addr: inet_addr("127.0.0.1")), sin_zero: (0, 0, 0, 0, 0, 0, 0, 0))
        let connected = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard connected == 0 else { return nil }
        let bytes = Array(message.utf8)
        guard bytes.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, 0) }) == bytes.count else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4_096)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        return n > 0 ? String(decoding: buffer[..<n], as: UTF8.self) : nil
    }
}

/// Every process's arguments and, where readable, environment, from /proc.
struct ProcessTable {
    struct Entry {
        let pid: Int
        let arguments: [String]
        let environment: String?
        var commandLine: String { arguments.joined(separator: " ") }
    }

    static func snapshot() throws -> [Entry] {
        try FileManager.default.contentsOfDirectory(atPath: "/proc").compactMap(Int.init).compactMap { pid in
            guard let cmdline = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"), !cmdline.isEmpty else { return nil }
            let arguments = cmdline.split(separator: 0, omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) }
            let environment = FileManager.default.contents(atPath: "/proc/\(pid)/environ").map { String(decoding: $0.map { $0 == 0 ? 0x0A : $0 }, as: UTF8.self) }
            return Entry(pid: pid, arguments: arguments, environment: environment)
        }
    }
}

/// The regular files under a directory, with their contents.
enum FileScan {
    static func files(under root: String) -> [(path: String, contents: String)] {
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        var found: [(String, String)] = []
        while let relative = walker.nextObject() as? String {
            let path = root + "/" + relative
            var info = stat()
            guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, let data = FileManager.default.contents(atPath: path) else { continue }
            found.append((path, String(decoding: data, as: UTF8.self)))
        }
        return found
    }
}
