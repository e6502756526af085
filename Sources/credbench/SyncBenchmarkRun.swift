import FoundationEssentials

/// `credbench sync [--sizes N,N] [--output FILE]`: join and one-change sync at each size.
enum SyncBenchmarkRun {
    static func main(_ arguments: [String]) throws {
        var sizes = [10_000, 100_000]
        var output = "bench-results/syncbench.json"
        var remaining = arguments[...]
        while let flag = remaining.popFirst() {
            guard let value = remaining.popFirst() else { throw BenchError("\(flag) needs a value.") }
            switch flag {
            case "--sizes": sizes = value.split(separator: ",").compactMap { Int($0) }
            case "--output": output = value
            default: throw BenchError("Unknown option '\(flag)'. USAGE: credbench sync [--sizes N,N] [--output FILE]")
            }
        }
        var results: [SyncResult] = []
        for size in sizes {
            Console.progress("sync benchmark: \(size) hosts…")
            results.append(try SyncBenchmark(size: size).run())
        }
        Console.print("hosts    records  build s  publish s  join s  join peak MiB  one-change ms (median, slowest of \(SyncBenchmark.oneChangeRounds))  one-change peak MiB  remote objects")
        for result in results {
            Console.print([String(result.hosts).leftPadded(7), String(result.records).leftPadded(8), result.buildSeconds.fixed(1).leftPadded(7),
                           result.publishSeconds.fixed(2).leftPadded(9), result.joinSeconds.fixed(2).leftPadded(6),
                           result.joinPeakMiB.fixed(1).leftPadded(13),
                           (result.oneChangeSyncMilliseconds.fixed(1) + ", " + result.oneChangeSlowestMilliseconds.fixed(1)).leftPadded(36),
                           result.oneChangePeakMiB.fixed(1).leftPadded(19), String(result.remoteObjects).leftPadded(14)].joined(separator: "  "))
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
