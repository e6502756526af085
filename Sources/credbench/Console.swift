import Glibc

/// Writes to standard output and standard error without Foundation.
///
/// Swift 6 treats the C `stdout`/`stderr` globals as not concurrency-safe, so lines go straight
/// to file descriptors 1 and 2; progress goes to stderr so stdout stays the clean table.
enum Console {
    static func print(_ line: String) { write(line + "\n", to: 1) }

    static func progress(_ line: String) { write(line + "\n", to: 2) }

    private static func write(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }
}
