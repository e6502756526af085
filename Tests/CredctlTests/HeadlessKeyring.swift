import Foundation
import TestSupport
import XCTest

/// A private session bus, started by the test itself, optionally with an unlocked
/// gnome-keyring on it (headless: no display, no prompt). The bus has no service directories,
/// so nothing is ever started by bus activation behind the test's back.
final class HeadlessKeyring {
    /// A fixture that did not come up fails the test: `make test` installs everything it needs.
    struct FixtureFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    let directory: String
    let address: String
    private let bus: Process
    private var silentProvider: Process?

    /// The environment a client needs: this bus, and a home and data directory of its own.
    var environment: [String: String] {
        ["DBUS_SESSION_BUS_ADDRESS": address, "XDG_DATA_HOME": directory + "/data", "XDG_RUNTIME_DIR": directory + "/runtime", "HOME": directory]
    }

    /// One keyring for the in-process calls: GLib keeps one session-bus connection per process,
    /// so this process's `DBUS_SESSION_BUS_ADDRESS` is set to it, once.
    nonisolated(unsafe) private static var sharedKeyring: HeadlessKeyring?

    static func shared() throws -> HeadlessKeyring {
        if let sharedKeyring { return sharedKeyring }
        let keyring = try HeadlessKeyring(provider: .gnomeKeyring)
        setenv("DBUS_SESSION_BUS_ADDRESS", keyring.address, 1)
        sharedKeyring = keyring
        // Its bus and daemon stop when the test process ends.
        atexit { HeadlessKeyring.sharedKeyring = nil }
        return keyring
    }

    /// An environment in which credctl cannot load libsecret, as on a machine without it: a file
    /// dlopen rejects, made in `directory`, comes first on LD_LIBRARY_PATH (a missing library
    /// and a broken one fail the same dlopen). Returns the environment and that file's path.
    static func withoutLibsecret(in directory: String) throws -> (environment: [String: String], library: String) {
        let broken = directory + "/no-libsecret"
        try FileManager.default.createDirectory(atPath: broken, withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: broken + "/libsecret-1.so.0", contents: Data()) else { throw FixtureFailure("cannot write \(broken)") }
        return (["LD_LIBRARY_PATH": broken], broken + "/libsecret-1.so.0")
    }

    /// What answers to the Secret Service name on the bus.
    enum Provider {
        /// Nothing: the name has no owner.
        case none
        /// gnome-keyring, with an unlocked `login` collection.
        case gnomeKeyring
        /// A process that owns the name and never answers a call (`dbus-test-tool black-hole`).
        case silent
    }

    /// Starts the bus and the provider.
    init(provider: Provider) throws {
        var template = Array((NSTemporaryDirectory() as NSString).appendingPathComponent("keyring-XXXXXX").utf8CString)
        directory = String(cString: try XCTUnwrap(mkdtemp(&template)))
        for sub in ["/data", "/runtime"] { try FileManager.default.createDirectory(atPath: directory + sub, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700]) }
        let config = directory + "/bus.conf"
        try """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig><type>session</type><listen>unix:dir=\(directory)</listen>
            <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy></busconfig>
            """.write(toFile: config, atomically: true, encoding: .utf8)
        // In the foreground, as this process's child: its first line of output is the address.
        let bus = Process()
        bus.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        bus.arguments = ["--config-file=\(config)", "--nofork", "--print-address=1"]
        let output = Pipe()
        bus.standardOutput = output
        bus.standardError = FileHandle.nullDevice
        try bus.run()
        FixtureProcesses.register(bus.processIdentifier)
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        guard let first = String(decoding: line, as: UTF8.self).split(separator: "\n").first, first.hasPrefix("unix:") else {
            bus.terminate()
            throw FixtureFailure("dbus-daemon did not start")
        }
        address = String(first)
        self.bus = bus
        switch provider {
        case .none: break
        case .gnomeKeyring: try startKeyring()
        case .silent: silentProvider = try startSilentProvider()
        }
    }

    deinit {
        if let silentProvider {
            silentProvider.terminate()
            silentProvider.waitUntilExit()
            FixtureProcesses.unregister(silentProvider.processIdentifier)
        }
        bus.terminate()
        bus.waitUntilExit()
        FixtureProcesses.unregister(bus.processIdentifier)
        // gnome-keyring-daemon leaves with its bus; its files go with the directory.
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func startKeyring() throws {
        // posix_spawn and waitpid: the daemon forks and its parent exits at once, which
        // Foundation's Process does not always notice.
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw FixtureFailure("pipe failed") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[0], 0)
        posix_spawn_file_actions_addclose(&actions, fds[1])
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let words: [String] = ["/usr/bin/gnome-keyring-daemon", "--unlock", "--components=secrets"]
        let arguments: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        let variables: [UnsafeMutablePointer<CChar>?] = environment.merging(["PATH": "/usr/bin:/bin"]) { $1 }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (arguments + variables).forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, "/usr/bin/gnome-keyring-daemon", &actions, nil, arguments, variables) == 0 else { throw FixtureFailure("gnome-keyring-daemon did not start") }
        close(fds[0])
        let password = Array("headless test keyring".utf8)
        _ = password.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }
        close(fds[1])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // Ready only once the name has an owner and the default alias names the login collection.
        for _ in 0..<200 {
            if let alias = try? send("/org/freedesktop/secrets", "org.freedesktop.Secret.Service.ReadAlias", ["string:default"], destination: "org.freedesktop.secrets"),
               alias.contains("/org/freedesktop/secrets/collection/login") { return }
            usleep(25_000)
        }
        throw FixtureFailure("gnome-keyring-daemon did not come up on the private bus")
    }

    private func startSilentProvider() throws -> Process {
        let hole = Process()
        hole.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-test-tool")
        hole.arguments = ["black-hole", "--session", "--name=org.freedesktop.secrets"]
        hole.environment = environment.merging(["PATH": "/usr/bin:/bin"]) { $1 }
        hole.standardOutput = FileHandle.nullDevice
        hole.standardError = FileHandle.nullDevice
        try hole.run()
        FixtureProcesses.register(hole.processIdentifier)
        // Ready once the name has an owner (the bus itself answers this).
        for _ in 0..<200 {
            if let owner = try? send("/org/freedesktop/DBus", "org.freedesktop.DBus.NameHasOwner", ["string:org.freedesktop.secrets"], destination: "org.freedesktop.DBus"),
               owner.contains("boolean true") { return hole }
            usleep(25_000)
        }
        hole.terminate()
        throw FixtureFailure("dbus-test-tool black-hole did not take the Secret Service name")
    }

    /// Locks the login collection (gnome-keyring locks without a prompt).
    func lockLogin() throws {
        _ = try send("/org/freedesktop/secrets", "org.freedesktop.Secret.Service.Lock", ["array:objpath:/org/freedesktop/secrets/collection/login"],
                     destination: "org.freedesktop.secrets")
    }

    /// One D-Bus method call with `dbus-send` on this bus; its printed reply.
    func send(_ path: String, _ method: String, _ arguments: [String], destination: String) throws -> String {
        try Self.run("/usr/bin/dbus-send", ["--bus=\(address)", "--print-reply", "--dest=\(destination)", path, method] + arguments, environment: environment)
    }

    private static func run(_ executable: String, _ arguments: [String], environment: [String: String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment.merging(["PATH": "/usr/bin:/bin"]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
