import FoundationEssentials
import Glibc

/// A private directory made with `mkdtemp`, removed with everything in it when released.
///
/// Each vault size gets its own, so no run ever reads a previous run's database or page cache
/// state by name. The corresponding C function is `mkdtemp`.
final class TemporaryDirectory {
    let path: String

    /// Where temporary directories go: `$TMPDIR`, else `/tmp`.
    static var base: String {
        if let value = getenv("TMPDIR"), value.pointee != 0 { return String(cString: value) }
        return "/tmp"
    }

    init(prefix: String, in base: String = TemporaryDirectory.base) throws {
        var template = Array("\(base)/\(prefix).XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw BenchError("Unable to create a temporary directory in \(base) (errno \(errno)).")
        }
        path = String(cString: made)
    }

    deinit {
        // CREDBENCH_KEEP=1 leaves the vaults and remote behind, for profiling a run afterwards.
        if getenv("CREDBENCH_KEEP").map({ String(cString: $0) }) == "1" { return }
        try? FileManager.default.removeItem(atPath: path)
    }
}
