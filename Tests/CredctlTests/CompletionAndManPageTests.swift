import Foundation
import XCTest

/// Completion scripts load in real shells and complete real commands; the shipped man page is
/// exactly what `credctl help --man` prints and renders without groff warnings.
final class CompletionAndManPageTests: CredctlTestCase {
    func testBashCompletesCommandsSubcommandsAndOptions() throws {
        func complete(_ words: String) throws -> String {
            try runShell("/bin/bash", """
                source <(credctl completion bash)
                COMP_WORDS=(\(words)); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _credctl; echo "${COMPREPLY[*]}"
                """).output
        }
        XCTAssertEqual(try complete("credctl ''"), "init status host identity group forward resolve read remote sync agent unlock lock device vault recovery-key quarantine conflicts migrate secret unlock-method passphrase ssh run inject import export completion help\n")
        XCTAssertEqual(try complete("credctl ho"), "host\n")
        XCTAssertEqual(try complete("credctl host ''"), "add edit list show rm\n")
        XCTAssertEqual(try complete("credctl --vault /tmp host add web --ho"), "--hostname\n")
        XCTAssertEqual(try complete("credctl host edit web --no-p"), "--no-password\n")
        XCTAssertEqual(try complete("credctl resolve web --re"), "--reveal\n")
    }

    func testZshAndFishLoadTheirScripts() throws {
        let zsh = try runShell("/usr/bin/zsh", "autoload -U compinit && compinit -u -d \(directory)/zcompdump; source <(credctl completion zsh) && echo loaded")
        XCTAssertEqual(zsh.output, "loaded\n", zsh.output)
        let fish = try runShell("/usr/bin/fish", "credctl completion fish | source; and complete -C 'credctl host ad'")
        XCTAssertEqual(fish.status, 0, fish.output)
        XCTAssertTrue(fish.output.hasPrefix("add\t"), fish.output)
        let options = try runShell("/usr/bin/fish", "credctl completion fish | source; and complete -C 'credctl host add web --hostn'")
        XCTAssertTrue(options.output.hasPrefix("--hostname\t"), options.output)
    }

    func testUnknownShellIsAUsageError() throws {
        let result = try credctl.run("completion", "tcsh")
        assertStatus(result, 64)
        XCTAssertTrue(result.stderr.hasPrefix("credctl: error: No completion for 'tcsh'; choose bash, zsh or fish."), result.stderr)
    }

    func testShippedManPageIsCurrentAndRendersCleanly() throws {
        let generated = try credctl.run("help", "--man")
        assertStatus(generated, 0)
        let shipped = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("man/credctl.1")
        XCTAssertEqual(generated.output, try String(contentsOf: shipped, encoding: .utf8), "run `make man` to regenerate man/credctl.1")
        let groff = try runShell("/bin/bash", "groff -man -Tutf8 -ww -z '\(shipped.path)' && echo clean")
        XCTAssertEqual(groff.output, "clean\n", groff.output)
        for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "GLOBAL OPTIONS", "ENVIRONMENT", "EXIT STATUS", "FILES"] {
            XCTAssertTrue(generated.output.contains(".SH \(section)"), section)
        }
    }
}
