import FoundationEssentials
import Glibc

extension Encodable {
    /// Writes pretty, key-sorted JSON to `path`, creating its directory (mode 0755) if needed.
    ///
    /// Sorted keys keep two runs' files comparable with `diff`.
    func writeJSON(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(self)
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            try FileManager.default.createDirectory(atPath: String(path[..<slash]), withIntermediateDirectories: true)
        }
        guard FileManager.default.createFile(atPath: path, contents: data) else {
            throw BenchError("Unable to write the results to \(path) (errno \(errno)).")
        }
    }
}
