import Glibc

/// A failed system call said in words: `EACCES` is "permission denied", `EROFS` "read-only file
/// system" — never a bare number a user has to look up.
public enum SystemError {
    /// The C library's description of `code`, starting lowercase to sit inside a sentence.
    public static func describe(_ code: Int32) -> String {
        let text = String(cString: strerror(code))
        guard let first = text.first else { return "error \(code)" }
        // "Permission denied" → "permission denied"; keep an acronym ("I/O error") as it is.
        let second = text.dropFirst().first
        return second.map { $0.isUppercase || $0 == "/" } == true ? text : first.lowercased() + String(text.dropFirst())
    }
}
