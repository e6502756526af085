import Glibc

/// The process's memory footprint.
///
/// Two peaks are kept because they differ under `swift run`: Linux carries `ru_maxrss` across
/// `execve`, so a benchmark started by `swift run` (which execs it) reports SwiftPM's own peak
/// (~117 MiB here). `VmHWM` in `/proc/self/status` belongs to the current address space only,
/// so it is the benchmark's real high-water mark. Both never go down. The corresponding C
/// function is `getrusage`.
enum ResourceUsage {
    /// Peak resident set size of this program's address space (`VmHWM`), in MiB; falls back to
    /// `ru_maxrss` if `/proc` is unavailable.
    static func peakResidentMiB() -> Double {
        statusMiB("VmHWM:") ?? maxResidentMiB()
    }

    /// `getrusage(RUSAGE_SELF).ru_maxrss` in MiB (Linux reports KiB); includes pre-exec peaks.
    static func maxResidentMiB() -> Double {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
        return Double(usage.ru_maxrss) / 1024
    }

    /// Current resident set size (`VmRSS`), in MiB; 0 if `/proc` is unavailable.
    static func currentResidentMiB() -> Double {
        statusMiB("VmRSS:") ?? 0
    }

    /// A `kB` line of `/proc/PROCESS/status` (this process unless another pid is named), in MiB;
    /// nil once that process is gone.
    static func statusMiB(_ name: String, process: String = "self") -> Double? {
        guard let text = MachineInfo.readFile("/proc/\(process)/status"),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix(name) }),
              let kibibytes = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap({ Double($0) })
        else { return nil }
        return kibibytes / 1024
    }
}
