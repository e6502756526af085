import Glibc
import Sodium

/// The environment handed to a child process. Every entry is kept as `NAME=VALUE` with its
/// terminating NUL in guarded memory, so a secret put here is never copied into a Swift string
/// and is wiped when the environment goes.
public final class ChildEnvironment {
    private var entries: [(name: String, bytes: SecretBytes)] = []

    public init(_ variables: [String: String]) throws {
        for (name, value) in variables.sorted(by: { $0.key < $1.key }) { try set(name, text: value) }
    }

    /// Sets `name` to plain text.
    public func set(_ name: String, text: String) throws {
        try set(name, bytes: Array(text.utf8))
    }

    /// Sets `name` to a secret. Fails for a secret that holds a NUL byte (no environment
    /// variable can carry one) or a name that is not a variable name.
    public func set(_ name: String, secret: SecretBytes) throws {
        guard secret.withUnsafeBytes({ !$0.contains(0) }) else {
            throw LaunchError("The secret for \(name) contains a NUL byte, which an environment variable cannot hold.")
        }
        try store(name, length: secret.count) { destination in
            secret.withUnsafeBytes { source in
                if let base = source.baseAddress, source.count > 0 { destination.copyMemory(from: base, byteCount: source.count) }
            }
        }
    }

    public func remove(_ name: String) { entries.removeAll { $0.name == name } }

    public var names: [String] { entries.map(\.name) }

    private func set(_ name: String, bytes: [UInt8]) throws {
        guard !bytes.contains(0) else { throw LaunchError("The value of \(name) contains a NUL byte.") }
        try store(name, length: bytes.count) { destination in
            bytes.withUnsafeBytes { if let base = $0.baseAddress, $0.count > 0 { destination.copyMemory(from: base, byteCount: $0.count) } }
        }
    }

    private func store(_ name: String, length: Int, _ fill: (UnsafeMutableRawPointer) -> Void) throws {
        guard !name.isEmpty, !name.contains("="), !name.utf8.contains(0) else { throw LaunchError("'\(name)' is not an environment variable name.") }
        let prefix = Array((name + "=").utf8)
        let entry = try SecretBytes(zeroedCount: prefix.count + length + 1)
        entry.withUnsafeMutableBytes { buffer in
            prefix.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: prefix.count) }
            fill(buffer.baseAddress! + prefix.count)
        }
        remove(name)
        entries.append((name, entry))
    }

    /// Calls `body` with a NULL-terminated `envp` array; the pointers are valid only inside.
    public func withEnvp<R>(_ body: ([UnsafeMutablePointer<CChar>?]) throws -> R) rethrows -> R {
        // The guarded blocks do not move while `entries` holds them.
        let pointers = entries.map { entry in
            entry.bytes.withUnsafeBytes { UnsafeMutablePointer(mutating: $0.baseAddress!.assumingMemoryBound(to: CChar.self)) }
        }
        return try withExtendedLifetime(entries) { try body(pointers + [nil]) }
    }
}
