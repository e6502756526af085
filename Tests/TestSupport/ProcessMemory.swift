import Foundation

/// A process's mapped memory, read through /proc/PID/mem: what a key scan searches when it must
/// show a key is nowhere in another program, not just absent from its environment and files.
/// Needs ptrace access to the process (root, for a program that made itself non-dumpable as ssh
/// does); `readable` says whether it was granted.
public enum ProcessMemory {
    /// Whether this process may read `pid`'s memory.
    public static func readable(_ pid: Int32) -> Bool {
        let fd = open("/proc/\(pid)/mem", O_RDONLY)
        guard fd >= 0 else { return false }
        close(fd)
        return true
    }

    /// The first of `secrets` (in any form `SecretScan.forms` lists) found in `pid`'s readable
    /// mappings, or nil.
    public static func find(_ secrets: [[UInt8]], in pid: Int32) -> String? {
        guard let maps = try? String(contentsOfFile: "/proc/\(pid)/maps", encoding: .utf8) else { return nil }
        let fd = open("/proc/\(pid)/mem", O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        let needles = SecretScan.needles(secrets)
        for line in maps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 2, fields[1].hasPrefix("r"), !line.hasSuffix("[vvar]"), !line.hasSuffix("[vsyscall]") else { continue }
            let bounds = fields[0].split(separator: "-").compactMap { UInt64($0, radix: 16) }
            guard bounds.count == 2, bounds[1] > bounds[0], bounds[1] - bounds[0] <= 1 << 30 else { continue }
            var region = [UInt8](repeating: 0, count: Int(bounds[1] - bounds[0]))
            let n = region.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(bounds[0])) }
            guard n > 0 else { continue }
            if let found = SecretScan.find(needles, in: Array(region[..<n])) { return "\(found) in \(fields.last ?? "")" }
        }
        return nil
    }
}
