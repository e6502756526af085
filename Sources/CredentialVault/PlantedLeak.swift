#if CREDVAULT_PLANTED_LEAK
import Glibc
import Replication
import Sodium
import Synchronization

/// A deliberate leak, compiled only into the test suite's separate build with
/// `-DCREDVAULT_PLANTED_LEAK` (`make test` builds it into `.build/planted-leak`): every secret
/// this process opens is copied, in the clear, into the places the suite's secret scans watch — a
/// temporary file, the environment of the programs `run` and `ssh` start, and an object beside
/// the remote's snapshots — so each scan is shown to catch a real leak. No other build contains
/// this file's code.
public enum PlantedLeak {
    private static let last = Mutex<[UInt8]?>(nil)

    /// The last secret opened, for a child's environment.
    public static var lastSecret: String? { last.withLock { $0.map { String(decoding: $0, as: UTF8.self) } } }

    static func spill(_ secret: SecretBytes, vault: Vault) {
        let bytes = secret.withUnsafeBytes { Array($0) }
        last.withLock { $0 = bytes }
        let directory = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        let path = directory + "/credvault-planted-leak-\(getpid())"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        if descriptor >= 0 {
            _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            close(descriptor)
        }
        if let binding = try? RemoteBinding.load(from: vault.directory), let remote = try? binding.remote() {
            _ = try? remote.createOnly("zones/secrets/\(vault.deviceID)/snap-99999999999999999999-leak.chunk", bytes: bytes)
        }
    }
}
#endif
