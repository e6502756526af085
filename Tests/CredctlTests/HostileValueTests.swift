import Foundation
import SQLite
import XCTest

/// Hostile user names, host names and forwards reach the real OpenSSH client only as data,
/// whichever way they arrive: typed, imported from an ssh_config file, or received by sync from
/// another device (or left in the vault by an older build). Each payload would create a marker
/// file if anything ran it; the first test shows that it does when handed to ssh directly.
final class HostileValueTests: TwoDeviceTestCase {
    private var marker: String { directory + "/PWNED" }
    /// What OpenSSH 9.2 pastes unquoted into the `sh -c` it runs for a ProxyJump.
    private var userPayload: String { "x$IFS-oProxyCommand=touch\\$IFS\(marker)" }
    private var hostPayload: String { "h$(touch${IFS}\(marker))" }
    /// Options that keep the real ssh from waiting on anything.
    private let quick = ["-F", "/dev/null", "-o", "BatchMode=yes", "-o", "ConnectTimeout=2", "-o", "StrictHostKeyChecking=no"]

    override func setUpWithError() throws {
        try super.setUpWithError()
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ssh") else { throw XCTSkip("the OpenSSH client is not installed") }
    }

    private func assertNothingRan(_ context: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(FileManager.default.fileExists(atPath: marker), "a payload ran: \(context)", file: file, line: line)
    }

    /// `credctl ssh LABEL` with the real ssh; its status (ssh fails to connect: nothing listens).
    private func connect(_ runner: CredctlRunner, _ label: String) throws -> CredctlRunner.Result {
        try runner.run(["ssh", label, "--"] + quick + ["true"])
    }

    func testThePayloadRunsWhenHandedToOpenSSHDirectly() throws {
        let ssh = Process()
        ssh.executableURL = URL(fileURLWithPath: "/usr/bin/ssh")
        ssh.arguments = quick + ["-o", "ProxyJump=\(userPayload)@jump.invalid", "target.invalid", "true"]
        ssh.standardError = FileHandle.nullDevice
        try ssh.run()
        ssh.waitUntilExit()
        XCTAssertTrue(FileManager.default.fileExists(atPath: marker), "the control: this OpenSSH runs a ProxyJump user name as a command")
    }

    func testTypedHostileValuesAreRefusedAndNothingRuns() throws {
        assertStatus(try a.run("host", "add", "jump", "--hostname", "jump.invalid", "--user", userPayload), 65)
        assertStatus(try a.run("host", "add", "jump", "--hostname", hostPayload), 65)
        assertStatus(try a.run("host", "add", "jump", "--hostname", "jump.invalid"), 0)
        assertStatus(try a.run("host", "edit", "jump", "--user", userPayload), 65)
        assertStatus(try a.run("host", "edit", "jump", "--user", "%u"), 65)
        assertStatus(try a.run("host", "add", "target", "--hostname", "target.invalid", "--jump", "jump", "--user", "a;touch \(marker)"), 65)
        assertStatus(try a.run("host", "add", "target", "--hostname", "target.invalid", "--jump", "jump"), 0)
        assertStatus(try a.run("forward", "add", "target", "--local", "8080:$(touch \(marker)):80"), 65)
        assertStatus(try a.run("forward", "add", "target", "--local", "8080:db\nProxyCommand touch \(marker):80"), 65)
        let result = try connect(a, "target")
        XCTAssertEqual(result.status, 255, "ssh itself ran and failed to connect: \(result.stderr)")
        assertNothingRan("typed values")
    }

    func testImportedHostileValuesAreNotImportedAndTheExportReadsBackClean() throws {
        let config = directory + "/ssh_config"
        try """
            Host jump
                HostName jump.invalid
                User \(userPayload)
            Host evil
                HostName \(hostPayload)
            Host target
                HostName target.invalid
                User %u$(touch${IFS}\(marker))
                ProxyJump jump
                LocalForward 8080 $(touch${IFS}\(marker)):80
                LocalForward 8081 db.internal:5432
            """.write(toFile: config, atomically: true, encoding: .utf8)
        // Each hostile value is a problem of its host: nothing is imported, then only the rest.
        assertStatus(try a.run("import", "ssh-config", config), 65)
        XCTAssertEqual(try a.run("host", "list", "--json").output.contains("target"), false)
        let imported = try a.run("import", "ssh-config", config, "--skip-unsupported")
        assertStatus(imported, 0)
        XCTAssertEqual(try a.run("host", "list", "--json").output.contains("evil"), false, "a hostile HostName refuses the host")
        let show = try a.run("host", "show", "jump", "--json").output
        XCTAssertFalse(show.contains("IFS"), show)
        XCTAssertEqual(try connect(a, "target").status, 255)
        assertNothingRan("credctl ssh after import")

        let exported = directory + "/exported"
        assertStatus(try a.run("export", "ssh-config", "-o", exported), 0)
        let readBack = try Self.sshG(config: exported, host: "target")
        XCTAssertTrue(readBack.contains("hostname target.invalid"), readBack)
        XCTAssertTrue(readBack.contains("proxyjump jump"), readBack)
        XCTAssertTrue(readBack.contains("localforward 8081 [db.internal]:5432"), readBack)
        XCTAssertFalse(readBack.contains("proxycommand"), readBack)
        XCTAssertFalse(readBack.contains("IFS") || readBack.contains("touch"), readBack)
        assertNothingRan("ssh -G on the exported file")
    }

    func testValuesReceivedBySyncAreQuarantinedAndAnOlderVaultsAreRefusedAtConnectTime() throws {
        assertStatus(try a.run("host", "add", "jump", "--hostname", "jump.invalid", "--user", "ops"), 0)
        assertStatus(try a.run("host", "add", "target", "--hostname", "target.invalid", "--jump", "jump"), 0)
        assertStatus(try a.run("forward", "add", "target", "--local", "8080:db.internal:80"), 0)
        // An older build, or a device skipping the checks, wrote these values; they sync as they are.
        let database = try Connection(path: directory + "/a/config.sqlite")
        try database.run("UPDATE hosts SET username = ? WHERE label = 'jump'", [userPayload])
        try database.run("UPDATE hosts SET hostname = ? WHERE label = 'target'", [hostPayload])
        try database.run("UPDATE port_forwards SET destination_host = ?", ["db\n    ProxyCommand touch \(marker)"])

        let refused = try connect(a, "target")
        assertStatus(refused, 65)
        XCTAssertTrue(refused.stderr.contains("The host 'target' is refused: its host name may contain only"), refused.stderr)
        let status = try a.run("status").output
        XCTAssertTrue(status.contains("Invalid:     3 records break rules credctl now checks"), status)
        XCTAssertTrue(status.contains("host 'jump': The user name"), status)
        let json = try a.run("status", "--json").output
        XCTAssertTrue(json.contains("\"invalid_records\": [") && json.contains("\"kind\": \"forward\""), json)
        let export = try a.run("export", "ssh-config", "-o", directory + "/exported")
        assertStatus(export, 65)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/exported"))
        assertNothingRan("the older vault")

        assertStatus(try a.run("sync"), 0)
        try join()
        let quarantine = try b.run("quarantine", "list").output
        XCTAssertTrue(quarantine.contains("invalid host: The user name"), quarantine)
        XCTAssertTrue(quarantine.contains("invalid host: The hostname"), quarantine)
        XCTAssertTrue(quarantine.contains("invalid forward: The destination host"), quarantine)
        XCTAssertEqual(try b.run("host", "list", "--json").output.contains("jump.invalid"), false)
        assertStatus(try connect(b, "target"), 66)
        assertNothingRan("the device that received them")
    }

    /// `ssh -G`: the settings ssh would use for `host` with `config`, as ssh prints them.
    static func sshG(config: String, host: String) throws -> String {
        let ssh = Process(), output = Pipe()
        ssh.executableURL = URL(fileURLWithPath: "/usr/bin/ssh")
        ssh.arguments = ["-G", "-F", config, host]
        ssh.standardOutput = output
        ssh.standardError = FileHandle.nullDevice
        try ssh.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        ssh.waitUntilExit()
        return text
    }
}
