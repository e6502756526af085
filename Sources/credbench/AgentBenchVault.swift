import CredentialVault
import FoundationEssentials
import Glibc

/// The vault `credbench agent` reads: one host with a stored password among plain hosts, that
/// unlocks with a passphrase and with a key file — so one vault reads all three ways.
///
/// The passphrase slot uses the recommended Argon2id parameters (64 MiB, 3 passes), not the
/// test-suite ones: what a passphrase read and an agent unlock cost is the point. Hosts go in
/// through the facade, one transaction each (it has no bulk insert). Every commit is an fsync,
/// about 3 ms on a virtual disk, so 100k hosts would take minutes: the vault is built in a
/// directory on tmpfs (`/dev/shm`) where an fsync costs nothing, and after each `grow` copied,
/// closed, to `path` beside the key files, where everything is measured. It grows in place, so
/// the memory rows at 1k, 10k and 100k hosts cost one build of 100k hosts.
final class AgentBenchVault {
    /// The measured copy.
    let path: String
    let passphraseFile: String
    let keyFile: String
    /// The address every `credctl read` is given.
    let reference = "cred://host/\(AgentBenchVault.passwordLabel)/password"
    private(set) var hosts = 0
    /// Creation and every `grow` so far, copies included.
    private(set) var buildSeconds = 0.0
    private let buildPath: String

    private static let passwordLabel = "with-password"

    /// Creates the vault in `buildDirectory` with its one password host, and its passphrase
    /// (random, never printed) and key file in `directory`, both mode 0600; then copies it.
    init(in directory: String, building buildDirectory: String) throws {
        path = directory + "/vault"
        buildPath = buildDirectory + "/vault"
        passphraseFile = directory + "/passphrase"
        keyFile = directory + "/vault.key"
        let start = MonotonicClock.now()
        // Base64 text: a passphrase file loses one line ending, so it must not end in one.
        let passphrase = try Base64.encodeSecret(try SecretBytes.random(count: 24))
        try passphrase.write(toNewPrivateFile: passphraseFile)
        do {
            let vault = try Vault.create(at: buildPath, key: .passphrase(passphrase), kdf: .recommended())
            try vault.addUnlockMethod(.keyFile(path: keyFile))
            try vault.addHost(Host(label: Self.passwordLabel, hostname: "10.0.0.1", username: "bench", authMethod: .password),
                              password: try Base64.encodeSecret(try SecretBytes.random(count: 18)))
        }
        hosts = 1
        try publish()
        buildSeconds = MonotonicClock.seconds(since: start)
    }

    /// Adds plain hosts (no secret) until the vault holds `size`, and copies it.
    func grow(to size: Int) throws {
        guard size > hosts else { return }
        let start = MonotonicClock.now()
        do {
            let vault = try Vault.open(at: buildPath)
            for index in (hosts - 1)..<(size - 1) {
                try vault.addHost(Host(label: VaultBenchmark.label(index), hostname: "h\(index).example", username: "bench"))
                if (index + 1) % 20_000 == 0 {
                    Console.progress("  \(index + 2) hosts (\((Double(index + 2 - hosts) / MonotonicClock.seconds(since: start)).fixed(0)) added/s)")
                }
            }
        }
        hosts = size
        try publish()
        buildSeconds += MonotonicClock.seconds(since: start)
    }

    /// Replaces the measured copy with the built vault. Its handle is closed (the last close
    /// empties the WAL) and no agent runs between sizes, so the copy is whole.
    private func publish() throws {
        if access(path, F_OK) == 0 { try FileManager.default.removeItem(atPath: path) }
        try FileManager.default.copyItem(atPath: buildPath, toPath: path)
    }
}
