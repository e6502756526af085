import CredentialVault
import Glibc

/// Reads passwords and passphrases from standard input, files and the terminal — never from
/// the command line — straight into guarded memory.
///
/// Trailing-newline policy (documented in the README): exactly one trailing line ending ("\n"
/// or "\r\n") is removed, so `echo` and editors work; every other byte is kept as given,
/// including other white space and bytes that are not UTF-8.
enum SecretInput {
    static let limit = 1 << 20

    /// All of standard input.
    static func standardInput(what: String) throws -> SecretBytes {
        let bytes = try readAll(fd: 0, what: what)
        guard bytes.count > 0 else { throw CLIError.input("The \(what) read from standard input is empty.") }
        return bytes
    }

    /// A whole file, e.g. `--passphrase-file`.
    static func file(_ path: String, what: String) throws -> SecretBytes {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw CLIError.input("Cannot read the \(what) file \(path) (\(errno == ENOENT ? "it does not exist" : "errno \(errno)")).") }
        defer { close(fd) }
        let bytes = try readAll(fd: fd, what: what)
        guard bytes.count > 0 else { throw CLIError.input("The \(what) file \(path) is empty.") }
        return bytes
    }

    /// Asks on the controlling terminal with echo off.
    static func prompt(_ question: String) throws -> SecretBytes {
        let fd = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else {
            throw CLIError(message: "No terminal to ask for the \(question.lowercased()) on.",
                           hint: "Give --passphrase-file FILE or --key-file FILE.", status: ExitStatus.locked)
        }
        defer { close(fd) }
        var text = question + ": "
        text.withUTF8 { _ = write(fd, $0.baseAddress, $0.count) }
        var saved = termios()
        let haveTerminal = tcgetattr(fd, &saved) == 0
        if haveTerminal {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(fd, TCSAFLUSH, &quiet)
        }
        defer {
            if haveTerminal { tcsetattr(fd, TCSAFLUSH, &saved) }
            _ = write(fd, "\n", 1)
        }
        return try readAll(fd: fd, what: question.lowercased(), stopAtNewline: true)
    }

    /// Reads until end of input (or a newline), growing a guarded buffer; strips one line ending.
    static func readAll(fd: Int32, what: String, stopAtNewline: Bool = false) throws -> SecretBytes {
        var buffer = try SecretBytes(zeroedCount: 256)
        var filled = 0
        while true {
            if filled == buffer.count {
                guard buffer.count < limit else { throw CLIError.input("The \(what) is longer than \(limit) bytes.") }
                let bigger = try SecretBytes(zeroedCount: min(buffer.count * 2, limit))
                bigger.withUnsafeMutableBytes { out in buffer.withUnsafeBytes { out.copyMemory(from: $0) } }
                buffer = bigger
            }
            let wanted = stopAtNewline ? 1 : buffer.count - filled
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, wanted) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw CLIError.input("Reading the \(what) failed (errno \(errno)).") }
            if n == 0 { break }
            filled += n
            if stopAtNewline, buffer.withUnsafeBytes({ $0[filled - 1] }) == UInt8(ascii: "\n") { break }
        }
        var end = filled
        buffer.withUnsafeBytes { bytes in
            if end > 0 && bytes[end - 1] == UInt8(ascii: "\n") {
                end -= 1
                if end > 0 && bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            }
        }
        return try buffer.slice(0..<end)
    }
}
