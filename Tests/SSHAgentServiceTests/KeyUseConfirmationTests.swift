import Foundation
import SSHAgentService
import XCTest

/// Confirmation through SSH_ASKPASS, as `ssh-add -c` asks.
final class KeyUseConfirmationTests: XCTestCase {
    private var directory = ""

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "confirm-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: directory) }

    /// An askpass program that records its prompt and environment, then exits with `status`.
    private func askpass(exiting status: Int) -> String {
        let path = directory + "/askpass-\(status)"
        let script = "#!/bin/sh\nprintf '%s\\n' \"$1\" > \"\(directory)/prompt\"\necho \"$SSH_ASKPASS_PROMPT\" > \"\(directory)/mode\"\nexit \(status)\n"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(script.utf8), attributes: [.posixPermissions: 0o755]))
        return path
    }

    func testYesIsStatusZeroAndThePromptNamesTheKey() throws {
        let confirmation = KeyUseConfirmation(environment: ["SSH_ASKPASS": askpass(exiting: 0), "HOME": "/nowhere"])
        XCTAssertTrue(confirmation.confirm(label: "deploy\nAllow everything", fingerprint: "SHA256:abc"))
        let prompt = try String(contentsOfFile: directory + "/prompt", encoding: .utf8)
        XCTAssertEqual(prompt, "Allow use of key deploy?Allow everything?\nKey fingerprint SHA256:abc.\n", "a label cannot add lines to the prompt")
        XCTAssertEqual(try String(contentsOfFile: directory + "/mode", encoding: .utf8), "confirm\n")
    }

    func testAForwardedRequestIsAlwaysAskedAbout() throws {
        let nothing = KeyUseConfirmation(environment: [:])
        XCTAssertTrue(nothing.allows(label: "k", fingerprint: "SHA256:x", confirmRequired: false, forwarded: false))
        XCTAssertFalse(nothing.allows(label: "k", fingerprint: "SHA256:x", confirmRequired: false, forwarded: true))
        let yes = KeyUseConfirmation(environment: ["SSH_ASKPASS": askpass(exiting: 0)])
        XCTAssertTrue(yes.allows(label: "k", fingerprint: "SHA256:x", confirmRequired: false, forwarded: true))
        XCTAssertTrue(try String(contentsOfFile: directory + "/prompt", encoding: .utf8).contains("agent forwarding"))
    }

    func testAnyOtherAnswerOrNothingThatCanAskIsNo() {
        XCTAssertFalse(KeyUseConfirmation(environment: ["SSH_ASKPASS": askpass(exiting: 1)]).confirm(label: "k", fingerprint: "SHA256:x"))
        XCTAssertFalse(KeyUseConfirmation(environment: ["SSH_ASKPASS": directory + "/missing"]).confirm(label: "k", fingerprint: "SHA256:x"))
        let nothing = KeyUseConfirmation(environment: [:])
        XCTAssertFalse(nothing.confirm(label: "k", fingerprint: "SHA256:x"))
    }
}
