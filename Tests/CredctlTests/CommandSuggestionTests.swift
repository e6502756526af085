import XCTest

/// The first hour at the command line: a mistyped command or option is answered with the
/// nearest known ones, a command group alone lists its commands, and the command list shows
/// every command's summary whole.
final class CommandSuggestionTests: CredctlTestCase {
    private func assertUsageError(_ arguments: [String], _ firstLine: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let result = try credctl.run(arguments)
        assertStatus(result, 64, file: file, line: line)
        XCTAssertEqual(result.output, "", file: file, line: line)
        XCTAssertEqual(result.stderr.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init), firstLine,
                       "\(arguments)", file: file, line: line)
    }

    func testAMistypedCommandGetsTheNearestCommands() throws {
        try assertUsageError(["host", "lst"], "credctl: error: Unknown command 'host lst'; did you mean `host list`?")
        try assertUsageError(["host", "ls"], "credctl: error: Unknown command 'host ls'; did you mean `host list`?")
        try assertUsageError(["hots", "list"], "credctl: error: Unknown command 'hots'; did you mean `host list`?")
        try assertUsageError(["sycn"], "credctl: error: Unknown command 'sycn'; did you mean `sync`?")
        try assertUsageError(["idenity", "show", "laptop"], "credctl: error: Unknown command 'idenity'; did you mean `identity show`?")
        try assertUsageError(["unlock-method", "rm", "keyring"], "credctl: error: Unknown command 'unlock-method rm'; did you mean `unlock-method remove`?")
        try assertUsageError(["im"], "credctl: error: Unknown command 'im'; did you mean `import`?")
        try assertUsageError(["frobnicate"], "credctl: error: Unknown command 'frobnicate'.")
        try assertUsageError(["help", "hots"], "credctl: error: No help for 'hots': there is no such command; did you mean `host`?")
        let sync = try credctl.run("sycn")
        XCTAssertEqual(sync.stderr, "credctl: error: Unknown command 'sycn'; did you mean `sync`?\ncredctl: hint: see 'credctl help'.\n")
    }

    func testAMistypedOptionGetsTheNearestOption() throws {
        try assertUsageError(["host", "add", "web", "--hostnme", "h.example"], "credctl: error: Unknown option --hostnme for 'host add'; did you mean `--hostname`?")
        try assertUsageError(["resolve", "web", "--revael"], "credctl: error: Unknown option --revael for 'resolve'; did you mean `--reveal`?")
        try assertUsageError(["--vualt", "/tmp/v", "status"], "credctl: error: Unknown option --vualt; did you mean `--vault`?")
        try assertUsageError(["host", "list", "--bogus"], "credctl: error: Unknown option --bogus for 'host list'.")
    }

    private let hostCommands = """
          host add   Add a host.
          host edit  Change a host.
          host list  List hosts, by label.
          host show  Show one host (never its password).
          host rm    Remove a host, its port forwards and its stored password.

        """

    func testAGroupAloneListsItsCommandsAsAUsageError() throws {
        let result = try credctl.run("host")
        assertStatus(result, 64)
        XCTAssertEqual(result.output, "")
        XCTAssertEqual(result.stderr, "credctl: error: 'host' needs a subcommand.\nCommands:\n" + hostCommands + "credctl: hint: see 'credctl help host'.\n")
        let unknown = try credctl.run("host", "frobnicate")
        assertStatus(unknown, 64)
        XCTAssertEqual(unknown.stderr, "credctl: error: Unknown command 'host frobnicate'.\nCommands:\n" + hostCommands + "credctl: hint: see 'credctl help host'.\n")
    }

    func testHelpForAGroupListsItsCommands() throws {
        let result = try credctl.run("help", "host")
        assertStatus(result, 0)
        XCTAssertTrue(result.output.contains("USAGE:\n  credctl [--vault DIR] [--passphrase-file FILE | --key-file FILE] host COMMAND [OPTIONS]\n"), result.output)
        XCTAssertTrue(result.output.contains("COMMANDS:\n" + hostCommands), result.output)
        XCTAssertEqual(try credctl.run("host", "--help").output, result.output)
    }

    func testEverySummaryIsAWholePhraseOnOneLine() throws {
        let index = try credctl.run("help").output
        let commands = index.components(separatedBy: "COMMANDS:\n")[1].components(separatedBy: "\n\n")[0].split(separator: "\n")
        XCTAssertGreaterThanOrEqual(commands.count, 48, "every visible command")
        for line in commands {
            XCTAssertTrue(line.hasSuffix("."), "\(line)")
            XCTAssertLessThanOrEqual(line.count, 96, "\(line)")
        }
        // A dot inside a path or a template is not the end of the summary.
        XCTAssertTrue(index.contains("  inject                Render a template, replacing each {{ cred://… }} with its secret.\n"))
        XCTAssertTrue(index.contains("  import ssh-config     Import the Host blocks of an ssh_config file (default ~/.ssh/config).\n"))
        let fish = try credctl.run("completion", "fish").output
        XCTAssertTrue(fish.contains("-a 'ssh-config' -d 'Import the Host blocks of an ssh_config file (default ~/.ssh/config).'"), fish)
        XCTAssertTrue(fish.contains("-a 'inject' -d 'Render a template, replacing each {{ cred://… }} with its secret.'"), fish)
        // The man page carries each overview in full.
        XCTAssertTrue(try credctl.run("help", "--man").output.contains("Import the Host blocks of an ssh_config file (default ~/.ssh/config, its Include lines followed) as hosts."))
    }
}
