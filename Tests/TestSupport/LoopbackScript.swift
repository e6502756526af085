import Foundation

/// A test's own server, a Python script listening on 127.0.0.1: written to `directory`, started
/// with a free port as its first argument, waited for until it accepts, and stopped (SIGTERM,
/// reaped) when this object goes away — or at exit, at the latest.
final class LoopbackScript: @unchecked Sendable {
    let port: Int
    private let pid: pid_t

    init(_ source: String, named name: String, arguments: [String], directory: String) throws {
        let script = directory + "/\(name).py"
        try source.write(toFile: script, atomically: true, encoding: .utf8)
        port = try Loopback.freePort()
        pid = try FixtureProcesses.spawn(["/usr/bin/python3", script, String(port)] + arguments, log: directory + "/\(name).log")
        var tries = 0
        while !Loopback.accepts(port), tries < 200 {
            usleep(25_000)
            tries += 1
        }
        guard Loopback.accepts(port) else { throw SeaweedFailure("\(name) did not start on port \(port)") }
    }

    deinit {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        FixtureProcesses.unregister(pid)
    }
}
