import FuzzSupport
import Launch

/// The words after `credctl ssh HOST --` (split at zero bytes, as argv would be), read as ssh
/// reads its own options, then built into ssh's argument vector with a fixed target. The user's
/// options must lead unchanged, and the destination must come right after the last `--`,
/// followed by the user's remote command unchanged.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSSHCommandLine(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let words = input.isEmpty ? [] : input.restSplitAtZeros()
    guard let line = try? SSHCommandLine(userWords: words) else { return 0 }
    FuzzFixtures.require(line.userOptions.count + line.command.count <= words.count, "ssh's command line holds more words than were given")
    let target = SSHCommandLine.Target(host: .init(label: "web-1", hostname: "web-1.example", port: 2222, username: "deploy"),
                                       jumps: [.init(label: "gate", hostname: "gate.example", port: 22, username: nil)],
                                       forwards: [(flag: "-L", specification: "8080:localhost:80")])
    // A target whose values all hold to OpenSSHValue's rules is never refused.
    guard let arguments = try? line.arguments(for: target) else {
        FuzzFixtures.require(false, "a valid target was refused")
        return 0
    }
    // The user's options come first and may themselves hold a "--" (as an option's argument).
    FuzzFixtures.require(Array(arguments.prefix(1 + line.userOptions.count)) == ["ssh"] + line.userOptions, "the user's options changed on their way to ssh")
    FuzzFixtures.require(Array(arguments.suffix(line.command.count + 2)) == ["--", "web-1.example"] + line.command,
                         "the destination does not follow '--', or the remote command changed on its way to ssh")
    return 0
}
