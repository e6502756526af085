import Identifiers
import Glibc
import Replication
import SecretTrack
import Sodium
import Synchronization

/// A vault directory: the config track and the secret track, written in a safe order.
///
/// Writes put a new secret body before the config that references it, and remove the config
/// reference before the body, so a crash between the two leaves either an unreferenced body
/// (harmless, collectable) or a reference whose body is missing (reported as not yet synced) —
/// never a reference to a wrong body. Config reads never need the vault unlocked.
public final class Vault: Sendable {
    public let directory: VaultDirectory
    let config: ConfigStore
    let secrets: SecretStore
    private let source = Mutex<(any SecretSource)?>(nil)

    /// Where bodies come from while this vault is locked (the agent); nil: nowhere, so opening one
    /// needs an unlock.
    public var secretSource: (any SecretSource)? {
        get { source.withLock { $0 } }
        set { source.withLock { $0 = newValue } }
    }

    private init(directory: VaultDirectory, config: ConfigStore, secrets: SecretStore) {
        self.directory = directory
        self.config = config
        self.secrets = secrets
    }

    /// Creates a new vault in `path` (made 0700 if needed) that unlocks with `key`, and returns
    /// it unlocked. Refuses a directory that already holds a vault or part of one. `backend`
    /// says where its secrets' sealed bodies are kept.
    public static func create(at path: String, key: UnlockKey, kdf: KDFParameters = .recommended(),
                              backend: SecretBackend = .sqlite) throws(VaultError) -> Vault {
        try create(at: path, key: key, kdf: kdf, backend: backend, deviceID: nil)
    }

    /// `create` with this device's id chosen by the caller (a new random one when nil): seeded
    /// tests give their devices ids that sort the same in every run, so a run replays exactly.
    static func create(at path: String, key: UnlockKey, kdf: KDFParameters, backend: SecretBackend, deviceID: String?) throws(VaultError) -> Vault {
        let directory = VaultDirectory(path: path)
        return try VaultError.wrapping {
            try directory.prepare()
            return try directory.withExclusiveLock { try createLocked(directory, key: key, kdf: kdf, backend: backend, adopting: nil, deviceID: deviceID) }
        }
    }

    /// Creates the vault files; `adopting` gives the vault id and vault key of a remote to join.
    static func createLocked(_ directory: VaultDirectory, key: UnlockKey, kdf: KDFParameters, backend: SecretBackend,
                             adopting remote: RemoteVaultKeys?, deviceID chosen: String?) throws -> Vault {
        try discardInterruptedCreation(in: directory)
        for file in [directory.configPath, directory.secretsPath] where VaultDirectory.exists(file) {
            throw VaultError(.alreadyExists, "\(directory.path) already holds a vault (\(file) exists).",
                             hint: "Use that vault, or choose an empty directory with --vault.")
        }
        let provider = try keyProvider(for: key, creating: true)
        let deviceID = chosen ?? CanonicalUUID.text(UUID())
        let vaultID = remote?.vaultID ?? CanonicalUUID.text(UUID())
        // Secrets first: a config database alone would look like a vault with no keys.
        let secrets = try SecretStore.create(at: directory.secretsPath, storeID: vaultID, deviceID: deviceID, provider: provider, kdf: kdf,
                                             vaultKey: remote?.vaultKey, backend: backend, externalBodies: KeyringBodyStore())
        Failpoint.hit("init.after-secrets")
        let config = try ConfigStore.create(at: directory.configPath, deviceID: deviceID)
        return Vault(directory: directory, config: config, secrets: secrets)
    }

    /// A `create` killed part way leaves files that protect nothing: a secrets database whose
    /// identity was never committed, or one holding keys and no items with no finished config
    /// database beside it, and a config database whose device id was never committed. A new
    /// `create` replaces them; a secrets database that holds any item is never discarded.
    private static func discardInterruptedCreation(in directory: VaultDirectory) throws {
        if VaultDirectory.exists(directory.configPath), try ConfigStore.isInitialised(at: directory.configPath) { return }
        if VaultDirectory.exists(directory.secretsPath), try SecretStore.isInitialised(at: directory.secretsPath) {
            guard try SecretStore.open(at: directory.secretsPath).items().isEmpty else { return }
        }
        for path in [directory.secretsPath, directory.configPath] {
            for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
        }
    }

    /// Opens the vault in `path`, locked. Listing and reading config works without unlocking.
    public static func open(at path: String) throws(VaultError) -> Vault {
        let directory = VaultDirectory(path: path)
        guard VaultDirectory.exists(directory.configPath), VaultDirectory.exists(directory.secretsPath) else {
            throw VaultError(.noVault, "There is no vault in \(path).", hint: "Create one with: credctl init --vault \(path)")
        }
        return try VaultError.wrapping {
            Vault(directory: directory, config: try ConfigStore.open(at: directory.configPath),
                  secrets: try SecretStore.open(at: directory.secretsPath, externalBodies: KeyringBodyStore()))
        }
    }

    /// Opens the vault in `path`, locked, for a command that only reads it (`read`, `resolve`):
    /// read-only when nothing the vault does on opening or unlocking needs writing, so no file
    /// of the vault changes and no WAL index is rebuilt (`Connection.init`, docs/startup.md).
    /// That is a vault with no remote bound (with one, every unlock makes device-only secrets
    /// syncable and reseals old epochs) whose bodies are in its own database (with the desktop
    /// keyring, every unlock sweeps it), and which needs no migration. Any other vault, or one
    /// that does not open read-only for any reason, opens as `open` opens it.
    ///
    /// Nothing in this process may write the vault while the returned one is open.
    public static func openToRead(at path: String) throws(VaultError) -> Vault {
        if let vault = readOnly(VaultDirectory(path: path)) { return vault }
        return try open(at: path)
    }

    /// The vault opened read-only, or nil when it must not or cannot be. A store opened here is
    /// closed again before nil is returned: while it is open, this process cannot write its
    /// database (`Connection.init`), and the caller then opens the vault to write.
    ///
    /// Each store reads one snapshot, taken as it opens. Config is opened first: writes store a
    /// body before the config that names it, so a secrets snapshot no older than the config one
    /// holds every body the config names — the other order could report a body written
    /// meanwhile as not synced yet.
    private static func readOnly(_ directory: VaultDirectory) -> Vault? {
        // A missing database fails the read-only open (nothing is created); `open` says so.
        guard !RemoteBinding.exists(in: directory),
              let config = try? ConfigStore.open(at: directory.configPath, readOnly: true),
              let secrets = try? SecretStore.open(at: directory.secretsPath, externalBodies: KeyringBodyStore(), readOnly: true),
              secrets.backend == .sqlite
        else { return nil }
        return Vault(directory: directory, config: config, secrets: secrets)
    }

    /// Whether nothing of this vault can be written here: opened read-only (`openToRead`), or
    /// its files or their file system refuse writing.
    public var isReadOnly: Bool { secrets.isReadOnly }

    /// Lets go of the snapshots a vault opened by `openToRead` reads, before a wait of unknown
    /// length (a prompt, the desktop keyring): a held snapshot keeps every other process's
    /// checkpoints from passing it, and an unlock must see key slots changed meanwhile. Reads
    /// after this see the databases as they are at each statement. No effect on other vaults.
    public func endReadSnapshots() {
        config.endReadSnapshot()
        secrets.endReadSnapshot()
    }

    /// Unlocks the secret track with `key`; `wrongKey` if it does not fit. With a remote bound,
    /// every unlock also makes device-only secrets syncable (every launch, no "done" flag: an
    /// item that could not be migrated is simply tried again next time).
    public func unlock(_ key: UnlockKey) throws(VaultError) {
        try VaultError.wrapping {
            let provider = try Self.keyProvider(for: key, creating: false)
            do {
                try unlock(with: provider)
            } catch let error as SecretError where error.code == .wrongKey || error.code == .invalid {
                // Name the key file: a command may find one the user did not name.
                guard case .keyFile(let path) = key else { throw error }
                let mapped = VaultError.from(error)
                throw VaultError(mapped.code, "\(path): \(mapped.message)", hint: mapped.hint)
            }
        }
    }

    /// Unlocks the secret track with `provider`; with a remote bound, every unlock also makes
    /// device-only secrets syncable. With the keyring backend, every unlock also removes from the
    /// keyring the bodies no record names (leftovers, and deleted ones that reappeared) — best
    /// effort, as none of them is ever read.
    ///
    /// What this writes decides which vaults `openToRead` may open read-only: anything added
    /// here that writes must make it open those vaults to write.
    func unlock(with provider: KeyProvider) throws {
        try secrets.unlock(provider)
        if let binding = try RemoteBinding.load(from: directory), binding.format == RemoteBinding.format {
            // Vault keys of epochs learnt while locked are opened now, from the roster this device
            // verified last; bodies then move to the newest epoch (once per epoch).
            // Best effort: a roster this device cannot follow is said by sync (needsAttention),
            // and must never keep the vault from unlocking.
            if let objects = try? RosterCache.load(from: directory), !objects.isEmpty, (try? DeviceKeyFile.load(from: directory)) != nil,
               let current = try? catchUpEpochs(objects: objects, binding: binding),
               let learned = try? current.keys().count, let held = try? binding.keys().count, learned != held {
                try? current.save(in: directory)
            }
            // A vault this process can only read is opened to read; its upkeep waits for a
            // writable open.
            if !secrets.isReadOnly {
                try secrets.migrateDeviceOnlyItems()
                try secrets.resealIfEpochChanged()
            }
        }
        _ = try? secrets.sweepExternalBodies()
    }

    /// Where this vault keeps its secrets' sealed bodies.
    public var secretBackend: SecretBackend { secrets.backend }

    /// Forgets the unwrapped keys.
    public func lock() { secrets.lock() }

    public var isUnlocked: Bool { secrets.isUnlocked }

    /// This device's id (it signs every local edit).
    public var deviceID: String { config.deviceID }

    /// The vault's id, shared by every device of the vault.
    public var vaultID: String { secrets.vaultID }

    /// A key file's contents, read with the checks unlocking makes (yours, 0600, no link), for
    /// handing to the agent.
    public static func readKeyFile(at path: String) throws(VaultError) -> SecretBytes {
        try VaultError.wrapping { try KeyFile.read(at: path) }
    }

    static func keyProvider(for key: UnlockKey, creating: Bool) throws -> KeyProvider {
        switch key {
        case .passphrase(let passphrase):
            guard passphrase.count > 0 else { throw VaultError(.invalidInput, "The passphrase must not be empty.") }
            return .passphrase(passphrase)
        case .keyFile(let path):
            if creating && !VaultDirectory.exists(path) { try KeyFile.create(at: path) }
            let contents = try KeyFile.read(at: path)
            // Checked before anything is made: a new key slot takes a key in an accepted form only.
            if creating && KeyFileMaterial.key(in: contents) == nil {
                throw VaultError(.invalidInput, "The key file \(path) holds no key: \(KeyFileMaterial.expectedForm).",
                                 hint: "Give a path where nothing exists and credctl creates a key file there.")
            }
            return .keyFile(contents)
        case .keyFileContents(let contents):
            guard !creating else { throw VaultError(.invalidInput, "A new vault's key file is named by its path.") }
            return .keyFile(contents)
        }
    }
}
