import Foundation
import XCTest

/// The completion scripts offer the vault's labels and addresses where a command takes them,
/// in bash, zsh and fish for real, read through the hidden `credctl __complete`: labels with
/// spaces, quotes, `$(…)`, colons and any Unicode come back as the shell must insert them, and
/// nothing in a label is ever run.
final class CompletionLabelTests: CredctlTestCase {
    /// Every awkward thing a label may hold; the last would create `pwned` if it were ever run.
    private let hosts = ["web 1", "web-2", "café ☕", "db:prod", "it's $(touch pwned)"]

    override func setUpWithError() throws {
        try super.setUpWithError()
        try initVault()
        for label in hosts {
            assertStatus(try credctl.run(["host", "add", label, "--hostname", "h.example", "--password-stdin"], input: Array("pw".utf8)), 0)
        }
        assertStatus(try credctl.run("group", "add", "prod eu"), 0)
        let key = try makeKey(at: directory + "/id_ed25519")
        assertStatus(try credctl.run("identity", "add", "laptop key", "--private-key", key), 0)
    }

    override func tearDownWithError() throws {
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/pwned"), "a label was run as a command")
        try super.tearDownWithError()
    }

    // MARK: The hidden listing

    func testTheHiddenListingPrintsOneLabelOrAddressPerLine() throws {
        var locked = credctl!
        // No key file: the listing never unlocks, so it needs none.
        locked.environment["CREDCTL_KEY_FILE"] = nil
        let config = try Data(contentsOf: URL(fileURLWithPath: vaultPath + "/config.sqlite"))
        let expected = [
            "hosts": "café ☕\ndb:prod\nit's $(touch pwned)\nweb 1\nweb-2\n",
            "identities": "laptop key\n",
            "groups": "prod eu\n",
            "addresses": "cred://host/café ☕/password\ncred://host/db:prod/password\ncred://host/it's $(touch pwned)/password\n"
                + "cred://host/web 1/password\ncred://host/web-2/password\ncred://identity/laptop key/privkey\n",
        ]
        for (listing, lines) in expected {
            let result = try locked.run("__complete", listing)
            assertStatus(result, 0)
            XCTAssertEqual(result.output, lines, listing)
            XCTAssertEqual(result.stderr, "")
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: vaultPath + "/config.sqlite")), config, "the listing wrote to the vault")
    }

    func testTheHiddenListingIsSilentWithoutAVault() throws {
        let missing = directory + "/no-vault"
        for arguments in [["__complete", "hosts"], ["--vault", missing, "__complete", "groups"]] {
            let result = try CredctlRunner(vault: missing, keyFile: nil).run(arguments)
            assertStatus(result, 0)
            XCTAssertEqual(result.output, "")
            XCTAssertEqual(result.stderr, "")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing))
    }

    func testTheHiddenListingIsInNoListAndNoSuggestion() throws {
        XCTAssertFalse(try credctl.run("help").output.contains("__complete"))
        XCTAssertFalse(try credctl.run("help", "--man").output.contains("__complete"))
        XCTAssertEqual(try bash("credctl __"), [])
        XCTAssertEqual(try zsh("credctl __"), [])
        XCTAssertEqual(try fish("credctl __"), [])
        let typo = try credctl.run("__complet", "hosts")
        assertStatus(typo, 64)
        XCTAssertTrue(typo.stderr.hasPrefix("credctl: error: Unknown command '__complet'.\n"), typo.stderr)
    }

    // MARK: bash

    /// What bash's completion function offers with the cursor at the end of `line` (as bash
    /// sets COMP_LINE and COMP_POINT), each reply followed by the words the shell reads from it
    /// once it is inserted: `web\ 1 => <web 1>`.
    private func bash(_ line: String, environment: [String: String] = [:]) throws -> [String] {
        let result = try runShell("/bin/bash", """
            source <(credctl completion bash)
            COMP_LINE=\(shellQuoted(line)); COMP_POINT=${#COMP_LINE}
            read -ra COMP_WORDS <<< "$COMP_LINE"; COMP_CWORD=${#COMP_WORDS[@]}
            _credctl
            for reply in "${COMPREPLY[@]}"; do eval "set -- $reply"; printf '%s => ' "$reply"; printf '<%s>' "$@"; echo; done
            """, environment: environment)
        XCTAssertEqual(result.status, 0, result.output)
        return result.output.split(separator: "\n").map(String.init)
    }

    func testBashCompletesHostLabelsEscapedForTheShell() throws {
        XCTAssertEqual(try bash("credctl host show "), [
            #"café\ ☕ => <café ☕>"#, "db:prod => <db:prod>", #"it\'s\ \$\(touch\ pwned\) => <it's $(touch pwned)>"#,
            #"web\ 1 => <web 1>"#, "web-2 => <web-2>",
        ])
        XCTAssertEqual(try bash("credctl ssh we"), [#"web\ 1 => <web 1>"#, "web-2 => <web-2>"])
        XCTAssertEqual(try bash(#"credctl resolve web\ "#), [#"web\ 1 => <web 1>"#])
        // Inside an open quote the label goes in as it is (bash closes the quote).
        XCTAssertEqual(try bash("credctl forward add 'web "), ["web 1 => <web><1>"])
        XCTAssertEqual(try bash("credctl host rm caf", environment: ["LANG": "C"]), [#"café\ ☕ => <café ☕>"#])
        // bash replaces only what follows the last ':' of the word.
        XCTAssertEqual(try bash("credctl host edit db:p"), ["prod => <prod>"])
    }

    func testBashCompletesIdentitiesGroupsAddressesAndJumpHosts() throws {
        XCTAssertEqual(try bash("credctl identity rm "), [#"laptop\ key => <laptop key>"#])
        XCTAssertEqual(try bash("credctl identity edit la"), [#"laptop\ key => <laptop key>"#])
        XCTAssertEqual(try bash("credctl host add x --identity l"), [#"laptop\ key => <laptop key>"#])
        XCTAssertEqual(try bash("credctl group rm "), [#"prod\ eu => <prod eu>"#])
        XCTAssertEqual(try bash("credctl host list --group p"), [#"prod\ eu => <prod eu>"#])
        XCTAssertEqual(try bash("credctl group add eu --parent "), [#"prod\ eu => <prod eu>"#])
        XCTAssertEqual(try bash("credctl host edit x --jump web-"), ["web-2 => <web-2>"])
        XCTAssertEqual(try bash("credctl read cred://host/web"), [#"//host/web\ 1/password => <//host/web 1/password>"#, "//host/web-2/password => <//host/web-2/password>"])
        XCTAssertEqual(try bash("credctl read cred://identity/"), [#"//identity/laptop\ key/privkey => <//identity/laptop key/privkey>"#])
        // After the label, nothing more is a label.
        XCTAssertEqual(try bash("credctl host show web-2 "), [])
    }

    func testBashCompletesTheCompletionCommandAndFixedValues() throws {
        XCTAssertEqual(try bash("credctl completion "), ["bash => <bash>", "zsh => <zsh>", "fish => <fish>"])
        XCTAssertEqual(try bash("credctl completion f"), ["fish => <fish>"])
        XCTAssertEqual(try bash("credctl host add x --auth p"), ["password => <password>", "publickey => <publickey>"])
        XCTAssertEqual(try bash("credctl sync --zone "), ["config => <config>", "secrets => <secrets>"])
        XCTAssertEqual(try bash("credctl help host sh"), ["show => <show>"])
    }

    func testBashTakesLabelsFromTheVaultNamedOnTheLine() throws {
        let other = CredctlRunner(vault: directory + "/other", keyFile: directory + "/other.key")
        assertStatus(try other.run("init"), 0)
        assertStatus(try other.run("host", "add", "elsewhere", "--hostname", "h.example"), 0)
        XCTAssertEqual(try bash("credctl --vault \(directory)/other host show "), ["elsewhere => <elsewhere>"])
        XCTAssertEqual(try bash("credctl host show --vault=\(directory)/other e"), ["elsewhere => <elsewhere>"])
        XCTAssertEqual(try bash("credctl --vault ~/other host show "), ["elsewhere => <elsewhere>"])
        XCTAssertEqual(try bash("credctl --vault \(directory)/none host show "), [])
    }

    // MARK: zsh and fish

    /// What zsh's completion offers for `line`: the bash function run through zsh's own
    /// `compgen` emulation, unquoted once as zsh's `_bash_complete` does before inserting.
    private func zsh(_ line: String) throws -> [String] {
        let result = try runShell("/usr/bin/zsh", """
            autoload -U compinit && compinit -u -d \(directory)/zcompdump
            source <(credctl completion zsh)
            COMP_LINE=\(shellQuoted(line)); COMP_POINT=${#COMP_LINE}
            print -rl -- "${(Q@)${(@f)"$(compgen -F _credctl)"}}"
            """)
        XCTAssertEqual(result.status, 0, result.output)
        return result.output.split(separator: "\n").map(String.init)
    }

    func testZshCompletesLabelsAndWords() throws {
        XCTAssertEqual(try zsh("credctl host show "), hosts.sorted())
        XCTAssertEqual(try zsh("credctl host add x --group "), ["prod eu"])
        XCTAssertEqual(try zsh("credctl identity show la"), ["laptop key"])
        XCTAssertEqual(try zsh("credctl read cred://host/db"), ["cred://host/db:prod/password"])
        XCTAssertEqual(try zsh("credctl completion z"), ["zsh"])
    }

    /// What fish offers for `line`: `complete -C`, fish's own completion engine.
    private func fish(_ line: String) throws -> [String] {
        let result = try runShell("/usr/bin/fish", "credctl completion fish | source; and complete -C \(shellQuoted(line))")
        XCTAssertEqual(result.status, 0, result.output)
        return result.output.split(separator: "\n").map { String($0.split(separator: "\t", maxSplits: 1)[0]) }
    }

    func testFishCompletesLabelsAndWords() throws {
        XCTAssertEqual(try fish("credctl host show "), hosts.sorted())
        XCTAssertEqual(try fish("credctl ssh web"), ["web 1", "web-2"])
        XCTAssertEqual(try fish("credctl host add x --jump caf"), ["café ☕"])
        XCTAssertEqual(try fish("credctl identity rm "), ["laptop key"])
        XCTAssertEqual(try fish("credctl identity edit "), ["laptop key"])
        XCTAssertEqual(try fish("credctl group rm "), ["prod eu"])
        XCTAssertEqual(try fish("credctl read cred://identity/"), ["cred://identity/laptop key/privkey"])
        XCTAssertEqual(try fish("credctl completion "), ["bash", "fish", "zsh"])
        XCTAssertEqual(try fish("credctl --vault \(directory)/none host show "), [])
    }
}
