import Glibc

/// Where the numbers were measured: results are meaningless without the machine beside them.
struct MachineInfo: Codable {
    let architecture: String
    let kernel: String
    let cpuModel: String
    let cores: Int
    /// UTC, ISO 8601.
    let date: String
    /// The file system type under the temporary directory: fsync cost decides insert rates.
    let temporaryDirectory: String

    static func current() -> MachineInfo {
        var names = utsname()
        uname(&names)
        let cpu = readFile("/proc/cpuinfo")?
            .split(separator: "\n")
            .first { $0.hasPrefix("model name") }
            .flatMap { $0.split(separator: ":", maxSplits: 1).last }
            .map { String($0.drop { $0 == " " || $0 == "\t" }) } ?? "unknown"
        return MachineInfo(architecture: field(&names.machine), kernel: field(&names.release),
                           cpuModel: cpu, cores: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))),
                           date: utcNow(), temporaryDirectory: TemporaryDirectory.base)
    }

    /// The whole text file at `path`, or nil. Plain `read(2)`: `/proc` files report size 0.
    static func readFile(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func field<T>(_ tuple: inout T) -> String {
        withUnsafeBytes(of: &tuple) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    private static func utcNow() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%SZ", &parts)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
