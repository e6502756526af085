internal import CLibsecret
import Sodium

extension Keyring {
    /// The items of this schema whose attributes include `values`, without their secrets.
    public func search(_ values: [String: String]) throws(KeyringError) -> [KeyringItem] {
        try Self.search(schema: (schema, attributes), values: values) { _ in false }
    }

    /// The items of any schema, in every collection, whose attributes include `values` (every
    /// item when `values` is empty), with the secret of each item whose attributes `load`
    /// accepts — only those are read. Never unlocks a collection: that would prompt at the
    /// desktop, or wait forever without one.
    public static func searchAll(_ values: [String: String], loadingSecretsWhere load: @escaping @Sendable ([String: String]) -> Bool) throws(KeyringError) -> [KeyringItem] {
        try search(schema: nil, values: values, load: load)
    }

    private static func search(schema: (name: String, attributes: [String])?, values: [String: String],
                               load: @escaping @Sendable ([String: String]) -> Bool) throws(KeyringError) -> [KeyringItem] {
        try BoundedCall.run { cancellable throws(KeyringError) -> [KeyringItem] in
            let table = Self.table(values)
            defer { g_hash_table_unref(table) }
            let definition = schema.map { Self.definition($0.name, $0.attributes) }
            defer { if let definition { secret_schema_unref(definition) } }
            var error: UnsafeMutablePointer<GError>?
            let list = secret_password_searchv_sync(definition, table, SECRET_SEARCH_ALL, cancellable.pointer, &error)
            if error != nil { throw GLibError.take(error, doing: "search for items") }
            defer { g_list_free_full(list, g_object_unref) }
            var found: [KeyringItem] = []
            var node = list
            while let current = node {
                defer { node = current.pointee.next }
                guard let data = current.pointee.data else { continue }
                let item = OpaquePointer(data)
                let attributes = Self.attributes(of: item)
                let wanted = load(attributes)
                let secret = wanted ? Self.secret(of: item, cancellable) : nil
                found.append(KeyringItem(label: Self.label(of: item), attributes: attributes, secret: secret,
                                         locked: wanted && secret == nil && Self.isLocked(item)))
            }
            // Reads cut short by the deadline are not "locked" items: the whole search timed out.
            if cancellable.isCancelled { throw KeyringError(.timedOut, "The desktop keyring did not answer in time.") }
            return found
        }
    }

    /// Whether the item is a Secret Service item in a locked collection.
    private static func isLocked(_ item: OpaquePointer) -> Bool {
        guard g_type_check_instance_is_a(UnsafeMutableRawPointer(item), secret_item_get_type()) != 0 else { return false }
        return secret_item_get_locked(item) != 0
    }

    private static func label(of item: OpaquePointer) -> String {
        guard let text = secret_retrievable_get_label(item) else { return "" }
        defer { g_free(text) }
        return String(cString: text)
    }

    private static func attributes(of item: OpaquePointer) -> [String: String] {
        guard let table = secret_retrievable_get_attributes(item) else { return [:] }
        defer { g_hash_table_unref(table) }
        var result: [String: String] = [:]
        var iterator = GHashTableIter()
        g_hash_table_iter_init(&iterator, table)
        var key: gpointer?, value: gpointer?
        while g_hash_table_iter_next(&iterator, &key, &value) != 0 {
            guard let key, let value else { continue }
            result[String(cString: key.assumingMemoryBound(to: CChar.self))] = String(cString: value.assumingMemoryBound(to: CChar.self))
        }
        return result
    }

    /// The item's secret, or nil when it cannot be had without unlocking.
    private static func secret(of item: OpaquePointer, _ cancellable: Cancellable) -> SecretBytes? {
        var error: UnsafeMutablePointer<GError>?
        guard let value = secret_retrievable_retrieve_secret_sync(item, cancellable.pointer, &error) else {
            if let error { g_error_free(error) }
            return nil
        }
        defer { secret_value_unref(UnsafeMutableRawPointer(value)) }
        var length: gsize = 0
        guard let bytes = secret_value_get(value, &length) else { return nil }
        return try? SecretBytes(copying: UnsafeRawBufferPointer(start: bytes, count: Int(length)))
    }
}
