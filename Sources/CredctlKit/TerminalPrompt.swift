import CredentialVault
import Glibc

/// Asks for a secret on the controlling terminal with echo off, and makes sure echo comes back
/// even when the user presses Ctrl-C at the prompt.
enum TerminalPrompt {
    // The settings to restore from the signal handler (which cannot capture context).
    nonisolated(unsafe) private static var saved = termios()
    nonisolated(unsafe) private static var savedDescriptor: Int32 = -1

    static func ask(_ question: String) throws -> SecretBytes {
        guard let answer = try ask(prompt: question + ": ", echo: false, what: question.lowercased()) else {
            throw CLIError(message: "No terminal to ask for the \(question.lowercased()) on.",
                           hint: "Give --passphrase-file FILE or --key-file FILE.", status: ExitStatus.locked)
        }
        return answer
    }

    /// Writes `prompt` exactly and reads one line, with echo only when `echo` (a yes/no
    /// question); nil when there is no controlling terminal.
    static func ask(prompt: String, echo: Bool, what: String) throws -> SecretBytes? {
        let fd = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var text = prompt
        text.withUTF8 { _ = write(fd, $0.baseAddress, $0.count) }
        let quiet = !echo && disableEcho(fd)
        defer {
            if quiet {
                restoreEcho()
                _ = write(fd, "\n", 1)
            }
        }
        return try SecretInput.readAll(fd: fd, what: what, stopAtNewline: true)
    }

    private static func disableEcho(_ fd: Int32) -> Bool {
        guard tcgetattr(fd, &saved) == 0 else { return false }
        savedDescriptor = fd
        for signalNumber in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] {
            signal(signalNumber) { received in
                // Echo back on, then die of the same signal as if nothing had been caught.
                TerminalPrompt.restoreEcho()
                signal(received, SIG_DFL)
                raise(received)
            }
        }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(fd, TCSAFLUSH, &quiet)
        return true
    }

    private static func restoreEcho() {
        guard savedDescriptor >= 0 else { return }
        tcsetattr(savedDescriptor, TCSAFLUSH, &saved)
        savedDescriptor = -1
        for signalNumber in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] { signal(signalNumber, SIG_DFL) }
    }
}
