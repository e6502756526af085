/// The human-readable summary printed to standard output.
///
/// Columns are right-aligned and fixed-precision so two runs can be compared by eye or `diff`.
struct ResultsTable {
    let report: BenchmarkReport

    func lines() -> [String] {
        let machine = report.machine
        var out = ["credbench — \(machine.date) — \(machine.cpuModel), \(machine.cores) cores, \(machine.architecture), Linux \(machine.kernel)",
                   "resolve (incl. releasing the returned password): \(report.iterations) random labels per size after \(report.warmupIterations) warm-up resolves; warm = again after resolving every host once; temp dir \(machine.temporaryDirectory)", "seal/open: best of \(SealBenchmark.rounds) rounds; x = SealedBox time / raw libsodium time",
                   ""]
        out += Self.render(["hosts", "build s", "inserts/s", "reopen ms", "db MiB", "p50 µs", "p90 µs", "p99 µs", "p99.9 µs", "max µs",
                       "ops/s", "warm p50", "warm p99", "miss p50", "miss p99", "peak MiB", "maxrss MiB"],
                      report.results.map { result in
                          [String(result.hosts), result.buildSeconds.fixed(1), result.insertsPerSecond.fixed(0),
                           result.reopenMilliseconds.fixed(2), result.databaseMiB.fixed(1),
                           result.resolve.p50Microseconds.fixed(1), result.resolve.p90Microseconds.fixed(1),
                           result.resolve.p99Microseconds.fixed(1), result.resolve.p999Microseconds.fixed(1),
                           result.resolve.maxMicroseconds.fixed(0), result.resolve.opsPerSecond.fixed(0),
                           result.steadyResolve.p50Microseconds.fixed(1), result.steadyResolve.p99Microseconds.fixed(1),
                           result.notFound.p50Microseconds.fixed(1), result.notFound.p99Microseconds.fixed(1),
                           result.peakResidentMiB.fixed(1), result.ruMaxRSSMiB.fixed(1)]
                      })
        out.append("")
        out += Self.render(["payload", "seal ops/s", "seal MB/s", "raw enc ops/s", "raw enc MB/s", "seal x",
                       "open ops/s", "open MB/s", "raw dec ops/s", "raw dec MB/s", "open x"],
                      report.seal.map { row in
                          [Self.bytes(row.payloadBytes),
                           row.sealedBoxSeal.opsPerSecond.fixed(0), row.sealedBoxSeal.megabytesPerSecond.fixed(1),
                           row.rawEncrypt.opsPerSecond.fixed(0), row.rawEncrypt.megabytesPerSecond.fixed(1), row.sealOverhead.fixed(2),
                           row.sealedBoxOpen.opsPerSecond.fixed(0), row.sealedBoxOpen.megabytesPerSecond.fixed(1),
                           row.rawDecrypt.opsPerSecond.fixed(0), row.rawDecrypt.megabytesPerSecond.fixed(1), row.openOverhead.fixed(2)]
                      })
        out.append("")
        if let largest = report.results.max(by: { $0.hosts < $1.hosts }) {
            let verdict = report.targetMet ? "MET" : "NOT MET"
            out.append("target: resolve p99 ≤ \(report.targetP99Microseconds.fixed(0)) µs at \(largest.hosts) hosts: \(largest.steadyResolve.p99Microseconds.fixed(1)) µs in the steady state (\(largest.resolve.p99Microseconds.fixed(1)) µs right after reopening) — \(verdict)")
        }
        return out
    }

    private static func bytes(_ count: Int) -> String {
        count >= 1_024 ? "\(count / 1_024) KiB" : "\(count) B"
    }

    /// Right-aligns every column to its widest cell (the other subcommands' tables use it too).
    static func render(_ header: [String], _ rows: [[String]]) -> [String] {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.indices.map { String(repeating: " ", count: widths[$0] - row[$0].count) + row[$0] }.joined(separator: "  ")
        }
    }
}
