import FoundationEssentials
import TestSupport

/// `credbench sync [--sizes N,N] [--backends directory,s3] [--snapshots with,without] [--output FILE]`:
/// join and one-change sync at each size, on each backend, with and without a snapshot.
enum SyncBenchmarkRun {
    static func main(_ arguments: [String]) throws {
        var sizes = [10_000, 100_000]
        var backends = ["directory", "s3"]
        var modes = ["with", "without"]
        var output = "bench-results/syncbench.json"
        var remaining = arguments[...]
        let usage = "USAGE: credbench sync [--sizes N,N] [--backends directory,s3] [--snapshots with,without] [--output FILE]"
        while let flag = remaining.popFirst() {
            guard let value = remaining.popFirst() else { throw BenchError("\(flag) needs a value.") }
            let list = value.split(separator: ",").map(String.init)
            switch flag {
            case "--sizes": sizes = list.compactMap { Int($0) }
            case "--backends" where list.allSatisfy(["directory", "s3"].contains): backends = list
            case "--snapshots" where list.allSatisfy(["with", "without"].contains): modes = list
            case "--output": output = value
            default: throw BenchError("Unknown option or value '\(flag) \(value)'. \(usage)")
            }
        }
        // One SeaweedFS server for every S3 run, stopped at the end.
        let server = backends.contains("s3") ? try SeaweedServer() : nil
        defer { server?.stop() }
        var results: [SyncResult] = []
        for size in sizes {
            for backend in backends {
                for mode in modes {
                    Console.progress("sync benchmark: \(size) hosts, \(backend), \(mode) snapshot…")
                    results.append(try SyncBenchmark(size: size, server: backend == "s3" ? server : nil, snapshots: mode == "with").run())
                }
            }
        }
        Console.print("hosts    records  backend    snapshot  build s  publish s  compact s  join s  join peak MiB  one-change ms (median, slowest of \(SyncBenchmark.oneChangeRounds))  one-change peak MiB  objects at join")
        for result in results {
            Console.print([String(result.hosts).leftPadded(7), String(result.records).leftPadded(8), result.backend.leftPadded(9),
                           (result.snapshots ? "with" : "without").leftPadded(8), result.buildSeconds.fixed(1).leftPadded(7),
                           result.publishSeconds.fixed(2).leftPadded(9), (result.compactSeconds?.fixed(2) ?? "-").leftPadded(9),
                           result.joinSeconds.fixed(2).leftPadded(6),
                           result.joinPeakMiB.fixed(1).leftPadded(13),
                           (result.oneChangeSyncMilliseconds.fixed(1) + ", " + result.oneChangeSlowestMilliseconds.fixed(1)).leftPadded(36),
                           result.oneChangePeakMiB.fixed(1).leftPadded(19), String(result.remoteObjectsAtJoin).leftPadded(15)].joined(separator: "  "))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(SyncBenchmarkReport(machine: MachineInfo.current(), results: results))
        if let slash = output.lastIndex(of: "/") { try FileManager.default.createDirectory(atPath: String(output[..<slash]), withIntermediateDirectories: true) }
        try data.write(to: URL(fileURLWithPath: output))
        Console.print("results written to \(output)")
    }
}

private extension String {
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
