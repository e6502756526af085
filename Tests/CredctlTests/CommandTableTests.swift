@testable import CredctlKit
import XCTest

/// Dispatch compares each command's `path`; help, completion and the man page read its spec.
final class CommandTableTests: XCTestCase {
    func testEveryCommandIsDispatchedByTheWordsItsSpecShows() {
        for command in CommandTable.all + CommandTable.hidden {
            XCTAssertEqual(command.path, command.spec.path, "\(command)")
            XCTAssertFalse(command.path.isEmpty, "\(command)")
        }
    }

    func testNoTwoCommandsShareAPath() {
        let paths = (CommandTable.all + CommandTable.hidden).map { $0.path }
        XCTAssertEqual(Set(paths).count, paths.count)
    }

    func testTheLongestMatchingPathWins() throws {
        let parser = ArgumentParser(commands: CommandTable.all, hidden: CommandTable.hidden)
        guard case .run(let command, let parsed, _) = try parser.parse(["host", "show", "web-1"]) else { return XCTFail("not a command") }
        XCTAssertEqual(command.path, ["host", "show"])
        XCTAssertEqual(parsed.positionals, ["web-1"])
        guard case .run(let read, _, _) = try parser.parse(["--vault", "/v", "read", "cred://host/a/password"]) else { return XCTFail("not a command") }
        XCTAssertEqual(read.path, ["read"])
    }
}
