internal import CLibsecret
import Sodium

/// The desktop keyring (GNOME Keyring, KeePassXC, … — any Secret Service) through libsecret:
/// items of one schema of ours, found by string attributes, holding binary secrets. Every call
/// is bounded in time and every failure is a typed `KeyringError` that means "fall back".
/// Secrets cross only as `SecretBytes`; libsecret's copies are freed with its own wiping free.
public struct Keyring: Sendable {
    /// The schema name items are stored under, e.g. `org.credvault.UnlockKey`.
    public let schema: String
    /// The attribute names items of the schema carry.
    public let attributes: [String]

    public init(schema: String, attributes: [String]) {
        self.schema = schema
        self.attributes = attributes
    }

    /// Whether the keyring can be used now: reachable, with a default collection, unlocked.
    public static func status(milliseconds: Int? = nil) -> KeyringStatus {
        do {
            return try BoundedCall.run(milliseconds: milliseconds ?? BoundedCall.defaultMilliseconds) { cancellable throws(KeyringError) -> KeyringStatus in
                try defaultCollectionIsLocked(cancellable) ? .locked("the default collection is locked") : .available
            }
        } catch {
            return error.code == .locked ? .locked(error.message) : .unavailable(error.message)
        }
    }

    private static func defaultCollectionIsLocked(_ cancellable: Cancellable) throws(KeyringError) -> Bool {
        var error: UnsafeMutablePointer<GError>?
        guard let service = secret_service_get_sync(SECRET_SERVICE_NONE, cancellable.pointer, &error) else {
            throw GLibError.take(error, doing: "reach the Secret Service")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(service)) }
        guard let collection = secret_collection_for_alias_sync(service, "default", SECRET_COLLECTION_NONE, cancellable.pointer, &error) else {
            if error != nil { throw GLibError.take(error, doing: "find the default collection") }
            throw KeyringError(.noProvider, "No desktop keyring: the Secret Service has no default collection.")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(collection)) }
        return secret_collection_get_locked(collection) != 0
    }

    /// Stores `secret` under `values` (one per schema attribute), replacing an item with the
    /// same attributes, in the default collection.
    public func store(_ secret: SecretBytes, label: String, values: [String: String]) throws(KeyringError) {
        let schema = self.schema, names = attributes
        let copy = try Self.copy(secret)
        try BoundedCall.run { cancellable throws(KeyringError) in
            let table = Self.table(values)
            defer { g_hash_table_unref(table) }
            let definition = Self.definition(schema, names)
            defer { secret_schema_unref(definition) }
            let value = copy.withUnsafeBytes { secret_value_new($0.baseAddress?.assumingMemoryBound(to: CChar.self), gssize($0.count), "application/octet-stream") }
            defer { secret_value_unref(UnsafeMutableRawPointer(value)) }
            var error: UnsafeMutablePointer<GError>?
            guard secret_password_storev_binary_sync(definition, table, nil, label, value, cancellable.pointer, &error) != 0 else {
                throw GLibError.take(error, doing: "store an item")
            }
        }
    }

    /// The secret stored under `values`, or nil when there is no such item. Throws `locked`
    /// when nothing was found and the default collection is locked (libsecret answers a
    /// dismissed unlock prompt as "not found").
    public func lookup(_ values: [String: String]) throws(KeyringError) -> SecretBytes? {
        let schema = self.schema, names = attributes
        return try BoundedCall.run { cancellable throws(KeyringError) -> SecretBytes? in
            let table = Self.table(values)
            defer { g_hash_table_unref(table) }
            let definition = Self.definition(schema, names)
            defer { secret_schema_unref(definition) }
            var error: UnsafeMutablePointer<GError>?
            guard let value = secret_password_lookupv_binary_sync(definition, table, cancellable.pointer, &error) else {
                if error != nil { throw GLibError.take(error, doing: "look up an item") }
                if try Self.defaultCollectionIsLocked(cancellable) { throw KeyringError(.locked, "The desktop keyring's default collection is locked.") }
                return nil
            }
            defer { secret_value_unref(UnsafeMutableRawPointer(value)) }
            var length: gsize = 0
            guard let bytes = secret_value_get(value, &length) else { return nil }
            do {
                return try SecretBytes(copying: UnsafeRawBufferPointer(start: bytes, count: Int(length)))
            } catch {
                throw KeyringError(.failed, "Unable to hold the keyring item in guarded memory.")
            }
        }
    }

    /// Removes the items stored under `values`; true if there was one.
    @discardableResult
    public func clear(_ values: [String: String]) throws(KeyringError) -> Bool {
        let schema = self.schema, names = attributes
        return try BoundedCall.run { cancellable throws(KeyringError) -> Bool in
            let table = Self.table(values)
            defer { g_hash_table_unref(table) }
            let definition = Self.definition(schema, names)
            defer { secret_schema_unref(definition) }
            var error: UnsafeMutablePointer<GError>?
            let removed = secret_password_clearv_sync(definition, table, cancellable.pointer, &error) != 0
            if error != nil { throw GLibError.take(error, doing: "remove an item") }
            return removed
        }
    }

    // MARK: - GLib plumbing

    private static func copy(_ secret: SecretBytes) throws(KeyringError) -> SecretBytes {
        do { return try secret.withUnsafeBytes { try SecretBytes(copying: $0) } } catch {
            throw KeyringError(.failed, "Unable to hold the secret in guarded memory.")
        }
    }

    /// A `GHashTable` of attribute name → value, owning `g_strdup`'d copies.
    static func table(_ values: [String: String]) -> OpaquePointer {
        let table = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free)!
        for (name, value) in values { g_hash_table_insert(table, g_strdup(name), g_strdup(value)) }
        return table
    }

    /// The schema: every attribute a string (`SECRET_SCHEMA_ATTRIBUTE_STRING` is 0, a NULL value).
    static func definition(_ name: String, _ attributes: [String]) -> OpaquePointer {
        let table = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, nil)!
        defer { g_hash_table_unref(table) }
        for attribute in attributes { g_hash_table_insert(table, g_strdup(attribute), nil) }
        return secret_schema_newv(name, SECRET_SCHEMA_NONE, table)
    }
}
