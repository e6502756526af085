import Replication
import SQLite
import Sodium
import Synchronization

/// The secret track: sealed bodies in `secrets.sqlite`, matched to config by reference key.
///
/// Metadata (availability, versions, incarnations, deletion markers, counts) reads without a key;
/// opening a body needs the store unlocked by a key provider. Keys live only in guarded memory.
public final class SecretStore: Sendable {
    let queue: DatabaseQueue
    /// The id this store was created with; bound into every key slot.
    public let storeID: String
    /// The vault this store belongs to: `storeID`, unless it adopted another vault's id and key
    /// when it was bound to that vault's remote.
    public var vaultID: String { vaultIdentity.withLock { $0 } }
    let vaultIdentity: Mutex<String>
    /// This device; it signs every local version.
    public let deviceID: String
    /// Where new bodies go; fixed when the store is created.
    public let backend: SecretBackend
    /// Where bodies go with the `keyring` backend (nil: this program was not given one).
    let externalBodies: (any ExternalBodyStore)?
    let keys = Mutex<VaultKeys?>(nil)
    /// Milliseconds added to the wall clock when stamping versions (tests only; always 0 in use).
    let clockSkew = Mutex<Int64>(0)

    /// Creates the store with a fresh device key and the given vault key (a joining device adopts
    /// the remote's) or a fresh one, wrapped for `provider`; returns it unlocked. With the
    /// `keyring` backend, bodies go to `externalBodies`.
    public static func create(at path: String, storeID: String, deviceID: String, provider: KeyProvider, kdf: KDFParameters,
                              vaultKey: SecretBytes? = nil, backend: SecretBackend = .sqlite,
                              externalBodies: (any ExternalBodyStore)? = nil) throws -> SecretStore {
        let queue = try storage("create the secrets database") { try DatabaseQueue(path: path, migrator: SecretSchema.migrator) }
        let generated = try VaultKeys.generate()
        let keys = VaultKeys(deviceKey: generated.deviceKey, vaultKey: vaultKey ?? generated.vaultKey)
        let slot = try KeySlot.make(for: provider, keys: keys, storeID: storeID, kdf: kdf)
        try storage("write the key slot") {
            try queue.write { db in
                guard try db.queryFirst("SELECT count(*) FROM secret_meta", [], { $0.int(0) }) == 0 else {
                    throw SecretError(.storage, "A secrets database already exists at \(path).")
                }
                try db.run("INSERT INTO secret_meta (key, value) VALUES ('store_id', ?), ('device_id', ?), ('backend', ?)",
                           [storeID, deviceID, backend.rawValue])
                if backend == .keyring { try createDiscardTriggers(db) }
                try Self.insert(slot, db)
            }
        }
        let store = try SecretStore(queue: queue, externalBodies: externalBodies)
        store.keys.withLock { $0 = keys }
        return store
    }

    /// Opens an existing store, locked; a store with the `keyring` backend needs `externalBodies`.
    /// Whether the file holds a store `create` finished: its identity was committed. One killed
    /// before that holds no key and no item.
    public static func isInitialised(at path: String) throws -> Bool {
        try storage("inspect the secrets database") {
            let db = try Connection(path: path)
            guard try db.queryFirst("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'secret_meta'", [], { _ in true }) ?? false else { return false }
            return try db.queryFirst("SELECT 1 FROM secret_meta WHERE key = 'store_id'") { _ in true } ?? false
        }
    }

    /// Opens an existing store, locked. `readOnly`: only to read, leaving the files as they are
    /// (`DatabaseQueue.init`); a store that needs a migration is then refused.
    public static func open(at path: String, externalBodies: (any ExternalBodyStore)? = nil, readOnly: Bool = false) throws -> SecretStore {
        try SecretStore(queue: storage("open the secrets database") { try DatabaseQueue(path: path, migrator: SecretSchema.migrator, readOnly: readOnly) },
                        externalBodies: externalBodies)
    }

    private init(queue: DatabaseQueue, externalBodies: (any ExternalBodyStore)?) throws {
        self.queue = queue
        self.externalBodies = externalBodies
        let meta = try Self.storage("read the store identity") {
            try queue.read { db in
                try db.query("SELECT key, value FROM secret_meta") { ($0.text(0) ?? "", $0.text(1) ?? "") }
            }
        }
        let values = Dictionary(meta, uniquingKeysWith: { first, _ in first })
        guard let store = values["store_id"], let device = values["device_id"] else {
            throw SecretError(.storage, "The secrets database at \(queue.path) is not initialised.")
        }
        storeID = store
        deviceID = device
        vaultIdentity = Mutex(values["vault_id"] ?? store)
        guard let backend = SecretBackend(rawValue: values["backend"] ?? SecretBackend.sqlite.rawValue) else {
            throw SecretError(.storage, "The secrets database at \(queue.path) keeps its secrets in '\(values["backend"] ?? "")', which this build does not know.",
                              hint: "Use a newer credctl.")
        }
        self.backend = backend
    }

    // MARK: - Locking

    /// Unwraps the keys with `provider`. Throws `wrongKey` if it does not fit, or if the store has
    /// no slot for that kind of provider.
    public func unlock(_ provider: KeyProvider) throws {
        let slots = try keySlots()
        guard let slot = slots.first(where: { $0.provider == provider.kind }) else {
            let kinds = slots.map(\.provider.rawValue).joined(separator: ", ")
            throw SecretError(.wrongKey, "This vault does not unlock with a \(provider.kind.noun).",
                              hint: "It unlocks with: \(kinds).")
        }
        let opened = try addingEpochKeys(to: try applyingAdoption(to: try slot.open(with: provider, storeID: storeID)))
        keys.withLock { $0 = opened }
    }

    /// Epoch 1's vault key, for boxing it (creating a remote) and checking a rebind.
    /// Needs the store unlocked.
    public func vaultKeyForPublishing() throws -> SecretBytes { try unlockedKeys().vaultKey }

    /// The device key, which seals this device's own locked keys (its roster and vault box keys).
    /// Needs the store unlocked.
    public func deviceKey() throws -> SecretBytes { try unlockedKeys().deviceKey }

    /// Forgets the keys; the guarded memory is wiped when the last reference goes.
    public func lock() { keys.withLock { $0 = nil } }

    public var isUnlocked: Bool { keys.withLock { $0 != nil } }

    /// Whether this process can only read the store (a read-only mount, no write permission, or
    /// opened only to read: `open(readOnly:)`).
    public var isReadOnly: Bool { queue.isReadOnly }

    /// Ends the snapshot of a store opened only to read (`DatabaseQueue.endSnapshot`).
    public func endReadSnapshot() { queue.endSnapshot() }

    /// Adds (or replaces) the key slot for `provider`'s kind, wrapping the keys this unlocked
    /// store holds: another way to unlock, beside those it already has.
    public func addKeySlot(_ provider: KeyProvider, kdf: KDFParameters) throws {
        let slot = try KeySlot.make(for: provider, keys: try unlockedKeys(), storeID: storeID, kdf: kdf)
        try write("add a key slot") { db in try Self.insert(slot, db) }
    }

    /// Removes the key slot of `kind`; the last one is never removed (nothing would unlock the
    /// store). Needs the store unlocked: only someone who can open it changes how it opens.
    public func removeKeySlot(_ kind: KeyProviderKind) throws {
        _ = try unlockedKeys()
        try write("remove a key slot") { db in
            let kinds = try db.query("SELECT provider FROM key_slots") { $0.text(0) ?? "" }
            guard kinds.contains(kind.rawValue) else { throw SecretError(.absent, "This vault does not unlock with a \(kind.noun) on this device.") }
            guard kinds.count > 1 else {
                throw SecretError(.invalid, "The \(kind.noun) is this vault's only way to unlock on this device; it cannot be removed.",
                                  hint: "Add another first: credctl unlock-method add passphrase|keyfile|keyring")
            }
            try db.run("DELETE FROM key_slots WHERE provider = ?", [kind.rawValue])
        }
    }

    /// The kinds of key provider that can unlock this store.
    public func providers() throws -> [KeyProviderKind] { try keySlots().map(\.provider) }

    /// The Argon2id parameters of the passphrase slot, if there is one.
    public func passphraseParameters() throws -> KDFParameters? { try keySlots().first { $0.provider == .passphrase }?.kdf }

    func unlockedKeys() throws -> VaultKeys {
        guard let current = keys.withLock({ $0 }) else {
            throw SecretError(.locked, "The vault is locked.", hint: "Unlock it with its passphrase or key file.")
        }
        return current
    }

    private func keySlots() throws -> [KeySlot] {
        try read("read the key slots") { db in
            try db.query("SELECT provider, kdf_algorithm, kdf_ops, kdf_mem, kdf_salt, wrapped_keys FROM key_slots ORDER BY provider") { row in
                let kdf = row.isNull(1) ? nil : KDFParameters(algorithm: row.text(1) ?? "", opsLimit: row.uint64(2), memLimit: row.uint64(3), salt: row.blob(4) ?? [])
                return row.text(0).flatMap(KeyProviderKind.init(rawValue:)).map { KeySlot(provider: $0, kdf: kdf, wrappedKeys: row.blob(5) ?? []) }
            }.compactMap { $0 }
        }
    }

    private static func insert(_ slot: KeySlot, _ db: Connection) throws {
        try db.run("INSERT OR REPLACE INTO key_slots (provider, kdf_algorithm, kdf_ops, kdf_mem, kdf_salt, wrapped_keys) VALUES (?, ?, ?, ?, ?, ?)",
                   [slot.provider.rawValue, slot.kdf?.algorithm, slot.kdf?.opsLimit, slot.kdf?.memLimit, slot.kdf?.salt, slot.wrappedKeys])
    }

    // MARK: - Database plumbing

    func read<T>(_ action: @autoclosure () -> String, _ body: (Connection) throws -> T) throws -> T {
        try Self.storage(action()) { try queue.read(body) }
    }

    /// With the `keyring` backend, also removes outside what the committed transaction
    /// replaced or removed.
    func write<T>(_ action: @autoclosure () -> String, _ body: (Connection) throws -> T) throws -> T {
        let result = try Self.storage(action()) { try queue.write(body) }
        removeDiscardedBodies()
        return result
    }

    /// `action` is only evaluated when something fails (it names the work in the message).
    static func storage<T>(_ action: @autoclosure () -> String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SecretError {
            throw error
        } catch let error as SQLiteError {
            throw SecretError(.storage, "Unable to \(action()): \(error).")
        } catch let error as SodiumError {
            throw SecretError(.storage, "Unable to \(action()): \(error.message)")
        }
    }
}
