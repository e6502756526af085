import CredctlKit
import Glibc

// All logic lives in CredctlKit, where tests can reach it.
var environment: [String: String] = [:]
var entry = environ
while let pointer = entry.pointee {
    let pair = String(cString: pointer)
    if let equals = pair.firstIndex(of: "=") { environment[String(pair[..<equals])] = String(pair[pair.index(after: equals)...]) }
    entry += 1
}
exit(CLI.main(Array(CommandLine.arguments.dropFirst()), environment: environment, endsProcess: true))
