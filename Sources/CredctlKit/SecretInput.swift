import CredentialVault
import Glibc
import SystemErrors

/// Reads passwords and passphrases from standard input, files and the terminal — never from
/// the command line — straight into guarded memory.
///
/// Trailing-newline policy (documented in the README): exactly one trailing line ending ("\n"
/// or "\r\n") is removed, so `echo` and editors work; every other byte is kept as given,
/// including other white space and bytes that are not UTF-8.
enum SecretInput {
    static let limit = 1 << 20

    /// All of standard input. When standard input is a terminal, the secret is typed with echo
    /// off instead of being shown on the screen.
    static func standardInput(what: String) throws -> SecretBytes {
        let bytes = isatty(0) == 1 ? try TerminalPrompt.ask(what.prefix(1).uppercased() + what.dropFirst()) : try readAll(fd: 0, what: what)
        guard bytes.count > 0 else { throw CLIError.input("The \(what) read from standard input is empty.") }
        return bytes
    }

    /// A whole file, e.g. `--passphrase-file`. A file that cannot be read leaves the vault
    /// locked; one that another user owns or that other users can read or write is refused, as
    /// a key file is. The checks are made on the opened descriptor and the passphrase is read
    /// through it. A link is followed (`<(pass show …)` is a link to a pipe, whose mode is 0600):
    /// what is checked is what it led to, and that is what is read.
    static func file(_ path: String, what: String) throws -> SecretBytes {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw CLIError(message: "Cannot read the \(what) file \(path) (\(errno == ENOENT ? "it does not exist" : SystemError.describe(errno))).",
                           hint: nil, status: ExitStatus.locked)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_uid == getuid() else {
            throw CLIError.input("The \(what) file \(path) belongs to another user.", hint: "Use a file you own (mode 600).")
        }
        guard info.st_mode & 0o077 == 0 else {
            throw CLIError.input("The \(what) file \(path) is accessible by other users (mode \(String(info.st_mode & 0o777, radix: 8))).",
                                 hint: "Run: chmod 600 \(path)")
        }
        let bytes = try readAll(fd: fd, what: what)
        guard bytes.count > 0 else { throw CLIError.input("The \(what) file \(path) is empty.") }
        return bytes
    }

    /// Reads until end of input (or a newline), growing a guarded buffer; strips one line ending.
    static func readAll(fd: Int32, what: String, stopAtNewline: Bool = false) throws -> SecretBytes {
        var buffer = try SecretBytes(zeroedCount: 256)
        var filled = 0
        while true {
            if filled == buffer.count {
                if buffer.count == limit + 2 {
                    // Full at the cap (the limit plus a "\r\n" to strip): only end of input is fine.
                    var probe: UInt8 = 0
                    guard read(fd, &probe, 1) == 0 else { throw CLIError.input("The \(what) is longer than \(limit) bytes.") }
                    break
                }
                let bigger = try SecretBytes(zeroedCount: min(buffer.count * 2, limit + 2))
                bigger.withUnsafeMutableBytes { out in buffer.withUnsafeBytes { out.copyMemory(from: $0) } }
                buffer = bigger
            }
            let wanted = stopAtNewline ? 1 : buffer.count - filled
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, wanted) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw CLIError.input("Reading the \(what) failed: \(SystemError.describe(errno)).") }
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
        guard end <= limit else { throw CLIError.input("The \(what) is longer than \(limit) bytes.") }
        return try buffer.slice(0..<end)
    }
}
