import FoundationEssentials

/// `credbench cli-report --results DIR --floor NAME --reference NAME [--target T]... [--output FILE]`:
/// the table and JSON of `make bench-cli` from what scripts/bench-cli.sh left in `DIR`.
///
/// `DIR` holds, in the order of their file names, hyperfine `--export-json` files of each command
/// (`NN.json`, or `NN-ROUND.json` for each round it was timed in) or a command left out
/// (`NN.skip`: its name, then the reason), and `notes.txt`.
/// The rows are named by the script; a target names two of them:
/// `"NAME / OVER <= BOUND"` or `"NAME / OVER >= BOUND"`, on medians.
enum CLIReportRun {
    static let usage = """
        USAGE: credbench cli-report --results DIR --floor NAME --reference NAME [--target 'NAME / OVER <= BOUND']... [--output FILE]

        OPTIONS:
          --results DIR      hyperfine exports (NN.json or NN-ROUND.json), commands left out (NN.skip) and notes.txt
          --floor NAME       The row of the first ratio column
          --reference NAME   The row of the second ratio column
          --target T         A bound on one median over another, checked and printed (repeatable)
          --output FILE      Where to write the JSON (default bench-results/cli.json)
          --help             Show this help
        """

    static func main(_ arguments: [String]) throws {
        guard let pairs = try BenchArguments.pairs(arguments) else { return Console.print(usage) }
        var results = "", floor = "", reference = "", output = "bench-results/cli.json"
        var targets: [String] = []
        for (flag, value) in pairs {
            switch flag {
            case "--results": results = value
            case "--floor": floor = value
            case "--reference": reference = value
            case "--target": targets.append(value)
            case "--output": output = value
            default: throw BenchError("Unknown option '\(flag)'.\n\(usage)")
            }
        }
        guard !results.isEmpty, !floor.isEmpty, !reference.isEmpty else { throw BenchError("--results, --floor and --reference are required.\n\(usage)") }

        var rows = try loadRows(results)
        var medians: [String: Double] = [:]
        for row in rows { medians[row.name] = row.result?.median }
        for index in rows.indices {
            rows[index].medianOverFloor = ratio(rows[index].result?.median, medians[floor])
            rows[index].medianOverReference = ratio(rows[index].result?.median, medians[reference])
        }
        var checks: [CLITarget] = []
        for text in targets {
            let (name, over, atMost, bound) = try parseTarget(text)
            checks.append(CLITarget(name: name, over: over, atMost: atMost, bound: bound, ratio: ratio(medians[name], medians[over])))
        }
        let notes = MachineInfo.readFile(results + "/notes.txt")?.split(separator: "\n").map(String.init) ?? []
        let report = CLIBenchmarkReport(machine: MachineInfo.current(), floor: floor, reference: reference, notes: notes, rows: rows, targets: checks)
        lines(report).forEach(Console.print)
        try report.writeJSON(to: output)
        Console.print("results written to \(output)")
    }

    /// The rows in file name order, without their ratios. A row timed in several rounds
    /// (`NN-ROUND.json`) is one row, its samples pooled.
    private static func loadRows(_ directory: String) throws -> [CLIRow] {
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        let rounds = Dictionary(grouping: files.filter { $0.hasSuffix(".json") }) { $0.prefix { $0 != "-" && $0 != "." } }
        return try files.compactMap { file in
            let path = directory + "/" + file
            if file.hasSuffix(".json") {
                let row = file.prefix { $0 != "-" && $0 != "." }
                guard rounds[row]?.first == file else { return nil }
                let results = try (rounds[row] ?? []).map { round in
                    guard let result = try HyperfineResult.load(directory + "/" + round).first else { throw BenchError("\(directory)/\(round) holds no result.") }
                    return result
                }
                guard Set(results.map(\.command)).count == 1, let result = HyperfineResult.pooled(results) else {
                    throw BenchError("The rounds of row \(row) in \(directory) do not name one command.")
                }
                return CLIRow(name: result.command, result: result, skipped: nil)
            }
            guard file.hasSuffix(".skip") else { return nil }
            let parts = (MachineInfo.readFile(path) ?? "").split(separator: "\n", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { throw BenchError("\(path) must hold a name and a reason, one line each.") }
            return CLIRow(name: parts[0], result: nil, skipped: parts[1].trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    private static func ratio(_ value: Double?, _ over: Double?) -> Double? {
        guard let value, let over, over > 0 else { return nil }
        return value / over
    }

    /// `NAME / OVER <= BOUND` (or `>=`).
    private static func parseTarget(_ text: String) throws -> (String, String, Bool, Double) {
        let atMost = text.contains("<=")
        let sides = text.components(separatedBy: atMost ? "<=" : ">=")
        let names = sides[0].components(separatedBy: " / ")
        guard sides.count == 2, names.count == 2, let bound = Double(sides[1].trimmingCharacters(in: .whitespaces)) else {
            throw BenchError("A target reads 'NAME / OVER <= BOUND' or 'NAME / OVER >= BOUND', not '\(text)'.")
        }
        return (names[0].trimmingCharacters(in: .whitespaces), names[1].trimmingCharacters(in: .whitespaces), atMost, bound)
    }

    private static func lines(_ report: CLIBenchmarkReport) -> [String] {
        let machine = report.machine
        var out = ["credbench cli — \(machine.date) — \(machine.cpuModel), \(machine.cores) cores, \(machine.architecture), Linux \(machine.kernel)",
                   "whole processes under hyperfine (no shell, output to /dev/null); ms; × floor = median over '\(report.floor)', × ref = median over '\(report.reference)'"]
        out += report.notes.map { "  " + $0 }
        out.append("")
        let milliseconds = { (seconds: Double) in (seconds * 1_000).fixed(2) }
        out += ResultsTable.render(["command", "runs", "mean", "± σ", "median", "min", "max", "user+sys", "× floor", "× ref"], report.rows.map { row in
            guard let result = row.result else { return [row.name] + Array(repeating: "–", count: 9) }
            return [row.name, String(result.times.count), milliseconds(result.mean), result.stddev.map(milliseconds) ?? "–", milliseconds(result.median),
                    milliseconds(result.min), milliseconds(result.max), milliseconds(result.user + result.system),
                    row.medianOverFloor.map { $0.fixed(2) } ?? "–", row.medianOverReference.map { $0.fixed(2) } ?? "–"]
        })
        out += report.rows.compactMap { row in row.skipped.map { "left out: \(row.name) — \($0)" } }
        out.append("")
        out += report.targets.map(\.line)
        return out
    }
}
