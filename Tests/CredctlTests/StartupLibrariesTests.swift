import Foundation
import XCTest

/// The shared libraries a credctl process holds when it ends: commands that do not use the
/// desktop keyring load neither libsecret nor GLib, GObject or GIO; a keyring command does.
///
/// Each credctl runs under gdb, stopped at its `exit_group` — after everything it loaded, dlopen
/// included, and before anything is unmapped — where gdb lists `/proc/PID/maps` and the dynamic
/// linker's own list of loaded objects. The second is there for a test run as another user than
/// root: credctl makes itself non-dumpable at start, which closes its maps to every other process
/// of that user, its tracer included.
final class StartupLibrariesTests: CredctlTestCase {
    private static let gdb = "/usr/bin/gdb"
    private static let glib = ["libsecret-1.so", "libglib-2.0.so", "libgobject-2.0.so", "libgio-2.0.so"]

    /// What `credctl arguments…` said (`stdout`, `stderr`) and the file names of the shared
    /// objects it held at its exit.
    private func runToExit(_ arguments: String..., file: StaticString = #filePath, line: UInt = #line) throws
        -> (libraries: Set<String>, stdout: String, stderr: String) {
        guard FileManager.default.isExecutableFile(atPath: Self.gdb) else {
            XCTFail("\(Self.gdb) is not installed: make test-deps installs it", file: file, line: line)
            return ([], "", "")
        }
        // gdb's `run` starts credctl through /bin/sh, which sends its output to files: gdb's own
        // output stays apart. The arguments are plain words, quoted for that shell.
        let out = directory + "/gdb-stdout", err = directory + "/gdb-stderr"
        let run = "run " + arguments.map { "'\($0)'" }.joined(separator: " ") + " > '\(out)' 2> '\(err)'"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.gdb)
        process.arguments = ["-batch", "-nx", "-readnever", "-ex", "catch syscall exit_group", "-ex", run,
                             "-ex", "info proc mappings", "-ex", "info sharedlibrary", "-ex", "kill", CredctlRunner.binary]
        process.environment = credctl.environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertTrue(text.contains("Catchpoint 1 (call to syscall exit_group)"), "gdb never stopped credctl at its exit:\n\(text)", file: file, line: line)
        if getuid() == 0 {
            XCTAssertTrue(text.contains("r-xp"), "root reads any process's maps, yet gdb showed none:\n\(text)", file: file, line: line)
        }
        // Both listings end their lines with the object's path; gdb's own messages quote theirs.
        let libraries = Set(text.split(separator: "\n").compactMap { line -> String? in
            guard let path = line.split(separator: " ").last, path.hasPrefix("/"), path.contains(".so") else { return nil }
            return String(path.split(separator: "/").last!)
        })
        XCTAssertTrue(libraries.contains { $0.hasPrefix("libsodium.so") }, "no listing was read:\n\(text)", file: file, line: line)
        return (libraries, (try? String(contentsOfFile: out, encoding: .utf8)) ?? "", (try? String(contentsOfFile: err, encoding: .utf8)) ?? "")
    }

    private func assertNoGLib(_ libraries: Set<String>, _ command: String, file: StaticString = #filePath, line: UInt = #line) {
        let loaded = libraries.filter { library in Self.glib.contains { library.hasPrefix($0) } }
        XCTAssertEqual(loaded, [], "credctl \(command) loaded them", file: file, line: line)
    }

    func testCommandsThatDoNotUseTheKeyringLoadNoGLib() throws {
        try initVault()
        assertStatus(try credctl.run(["host", "add", "web", "--hostname", "web.example", "--password-stdin"], input: Array("pw".utf8)), 0)
        let version = try runToExit("--version")
        XCTAssertTrue(version.stdout.hasPrefix("credctl "), version.stdout)
        assertNoGLib(version.libraries, "--version")
        let list = try runToExit("host", "list")
        XCTAssertTrue(list.stdout.contains("web.example"), list.stdout + list.stderr)
        assertNoGLib(list.libraries, "host list")
        let read = try runToExit("read", "cred://host/web/password")
        XCTAssertEqual(read.stdout, "pw", read.stderr)
        assertNoGLib(read.libraries, "read")
    }

    /// `status` asks the keyring (here there is no session bus, so it answers at once).
    func testAKeyringCommandLoadsLibsecretAndGLib() throws {
        try initVault()
        let status = try runToExit("status")
        XCTAssertTrue(status.stdout.contains("Keyring:     unavailable (No desktop keyring: there is no session bus"), status.stdout + status.stderr)
        for library in Self.glib {
            XCTAssertTrue(status.libraries.contains { $0.hasPrefix(library) }, "\(library) is not loaded: \(status.libraries.sorted())")
        }
    }
}
