import Agent
import Foundation
import XCTest

/// After a command, credctl looks for edits it left (to tell the agent) by opening the vault
/// again — only when an agent's socket is there to be told, and only when the vault's files
/// changed (OpenedVaultsTests): a read never pays for a second open.
final class VaultReopeningTests: CredctlTestCase {
    /// How often `credctl arguments…` opened the vault's `config.sqlite`, as inotify saw it. The
    /// kernel merges an open into the one before it while that one is unread, so this counts
    /// runs of opens: what matters is that one more run means one more look at the vault.
    private func configOpens(_ runner: CredctlRunner, _ arguments: String...) throws -> Int {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        XCTAssertGreaterThanOrEqual(inotify_add_watch(fd, vaultPath, UInt32(IN_OPEN)), 0)
        assertStatus(try runner.run(arguments), 0)
        var opens = 0
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(fd, &buffer, buffer.count)
            guard count > 0 else { break }
            // struct inotify_event: wd, mask, cookie, len (4 bytes each), then len bytes of name.
            var offset = 0
            while offset < count {
                let length = buffer.withUnsafeBytes { Int($0.load(fromByteOffset: offset + 12, as: UInt32.self)) }
                let name = buffer[(offset + 16)..<(offset + 16 + length)].prefix { $0 != 0 }
                if Array(name) == Array("config.sqlite".utf8) { opens += 1 }
                offset += 16 + length
            }
        }
        return opens
    }

    func testAReadOpensTheVaultAgainOnlyWhenAnAgentCouldBeTold() throws {
        try initVault()
        assertStatus(try credctl.run(["host", "add", "web", "--hostname", "web.example", "--password-stdin"], input: Array("pw".utf8)), 0)
        var runner = credctl!
        runner.environment["XDG_RUNTIME_DIR"] = directory + "/run"
        let place = AgentPlace(vaultPath: vaultPath, environment: runner.environment)
        try FileManager.default.createDirectory(atPath: place.directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let alone = try configOpens(runner, "read", "cred://host/web/password")

        // A socket file nothing listens on: a read still opens the vault once; an edit is looked
        // for again (and the agent, not there, is not reached).
        XCTAssertTrue(FileManager.default.createFile(atPath: place.socket, contents: Data()))
        let read = try configOpens(runner, "read", "cred://host/web/password")
        XCTAssertEqual(read, alone, "a read opened the vault again: \(alone) runs of opens alone, \(read) with a socket")
        let edited = try configOpens(runner, "host", "edit", "web", "--port", "2222")
        XCTAssertEqual(edited, alone + 1, "an edit is looked for once more: \(edited) runs of opens")
    }
}
