import Foundation

/// Runs credctl on a real pseudo-terminal (its controlling terminal, so it prompts there), typing
/// what a person would once each expected prompt has appeared, and reports its exit status, what
/// the terminal showed, and whether the terminal echoes again afterwards. The driver is Python's
/// `pty`/`termios` (the test's own code, written to a temporary file).
struct TerminalSession {
    enum Step: Encodable {
        /// Wait (at most 30 s) until the terminal has shown this text.
        case expect(String)
        /// Type this (`\u{3}` is Ctrl-C).
        case type(String)

        func encode(to encoder: Encoder) throws {
            var container = encoder.unkeyedContainer()
            switch self {
            case .expect(let text): try container.encode("expect"); try container.encode(text)
            case .type(let text): try container.encode("type"); try container.encode(text)
            }
        }
    }

    struct Result {
        /// The exit status, or minus the signal that ended it.
        let status: Int32
        let shown: String
        let echoesAfterwards: Bool
    }

    static func run(_ arguments: [String], steps: [Step], environment: [String: String], directory: String) throws -> Result {
        let driver = directory + "/pty-driver.py"
        try script.write(toFile: driver, atomically: true, encoding: .utf8)
        let process = Process(), output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [driver, String(decoding: try JSONEncoder().encode(steps), as: UTF8.self), CredctlRunner.binary] + arguments
        process.environment = environment
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard let report = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let status = report["status"] as? Int, let shown = report["shown"] as? String, let echo = report["echo"] as? Bool else {
            throw CocoaError(.coderReadCorrupt)
        }
        return Result(status: Int32(status), shown: shown, echoesAfterwards: echo)
    }

    private static let script = #"""
        import fcntl, json, os, select, subprocess, sys, termios, time
        steps, argv = json.loads(sys.argv[1]), sys.argv[2:]
        master, slave = os.openpty()
        def controlling():
            os.setsid()
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)
        child = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, preexec_fn=controlling, close_fds=True)
        shown = b""
        def pump(timeout):
            global shown
            ready, _, _ = select.select([master], [], [], timeout)
            if ready:
                try:
                    shown += os.read(master, 65536)
                except OSError:
                    pass
        for kind, text in steps:
            if kind == "expect":
                deadline = time.time() + 30
                while text.encode() not in shown and time.time() < deadline and child.poll() is None:
                    pump(0.05)
                pump(0.05)
            else:
                time.sleep(0.1)
                os.write(master, text.encode())
        status = child.wait(timeout=60)
        pump(0.2)
        echo = bool(termios.tcgetattr(slave)[3] & termios.ECHO)
        print(json.dumps({"status": status, "shown": shown.decode("utf-8", "replace"), "echo": echo}))
        """#
}
