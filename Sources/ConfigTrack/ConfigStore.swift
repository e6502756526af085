import Identifiers
import Replication
import SQLite
import Synchronization

/// The config track: hosts, groups, identities and port-forward rules in `config.sqlite`.
///
/// Holds no secret, so it opens and lists without any key. Every local edit stamps the record
/// with a fresh hybrid-logical-clock version and writes its pending journal entry in the same
/// transaction.
public final class ConfigStore: Sendable {
    let queue: DatabaseQueue
    /// The id of the device this store belongs to; it signs every local version.
    public let deviceID: String
    /// Milliseconds added to the wall clock when stamping versions: lets tests play a device
    /// whose clock is days off. Always 0 in use.
    let clockSkew = Mutex<Int64>(0)

    /// Creates (or finishes creating) the store at `path` for `deviceID`.
    public static func create(at path: String, deviceID: String) throws -> ConfigStore {
        let queue = try storage("create the config database") { try DatabaseQueue(path: path, migrator: ConfigSchema.migrator) }
        try storage("record the device id") {
            try queue.write { db in
                try db.run("INSERT OR IGNORE INTO config_meta (key, value) VALUES ('device_id', ?)", [deviceID])
            }
        }
        return try ConfigStore(queue: queue)
    }

    /// Opens an existing store. Needs no key. `readOnly`: only to read, leaving the files as
    /// they are (`DatabaseQueue.init`); a store that needs a migration is then refused.
    public static func open(at path: String, readOnly: Bool = false) throws -> ConfigStore {
        try ConfigStore(queue: storage("open the config database") { try DatabaseQueue(path: path, migrator: ConfigSchema.migrator, readOnly: readOnly) })
    }

    /// Ends the snapshot of a store opened only to read (`DatabaseQueue.endSnapshot`).
    public func endReadSnapshot() { queue.endSnapshot() }

    private init(queue: DatabaseQueue) throws {
        self.queue = queue
        guard let device = try Self.storage("read the device id", { try queue.read { db in
            try db.queryFirst("SELECT value FROM config_meta WHERE key = 'device_id'") { $0.text(0) }
        } }) ?? nil else {
            throw ConfigError(.storage, "The config database at \(queue.path) has no device id; it was not created by CredentialVault.")
        }
        deviceID = device
    }

    /// Whether the file holds a store `create` finished: its device id was committed. One killed
    /// before that holds no record.
    public static func isInitialised(at path: String) throws -> Bool {
        try storage("inspect the config database") {
            let db = try Connection(path: path)
            guard try db.queryFirst("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'config_meta'", [], { _ in true }) ?? false else { return false }
            return try db.queryFirst("SELECT 1 FROM config_meta WHERE key = 'device_id'") { _ in true } ?? false
        }
    }

    /// How many records of each kind are stored, and how many edits wait for upload.
    public func counts() throws -> ConfigCounts {
        try read("count records") { db in
            func count(_ table: String) throws -> Int { try db.queryFirst("SELECT count(*) FROM \(table)") { $0.int(0) } ?? 0 }
            return ConfigCounts(hosts: try count(Host.table), groups: try count(HostGroup.table), identities: try count(Identity.table),
                                forwards: try count(PortForwardRule.table), pendingChanges: try Journal.pendingCount(db),
                                quarantined: try Journal.quarantineCount(db), conflicts: try count("config_conflicts"))
        }
    }

    /// Every secret key a record names — or a kept conflict value would name again once
    /// restored — sorted by its bytes (repeats possible).
    public func referencedSecretKeys() throws -> [String] {
        let named = try read("list the secrets in use") { db in
            try db.query("""
                SELECT password_ref FROM hosts WHERE password_ref IS NOT NULL
                UNION ALL SELECT private_key_ref FROM identities
                UNION ALL SELECT passphrase_ref FROM identities WHERE passphrase_ref IS NOT NULL
                ORDER BY 1
                """) { $0.text(0) ?? "" }
        }
        let kept = try conflicts().flatMap { conflict -> [String] in
            guard let type = ConfigZone.kinds[conflict.kind] else { return [] }
            let values = Array(zip(conflict.columns, conflict.kept)) + Array(zip(type.columns, conflict.recordState))
            return values.compactMap { column, value in
                guard column.hasSuffix("_ref"), case .text(let key) = value else { return nil }
                return key
            }
        }
        guard !kept.isEmpty else { return named }
        // Both sorted by bytes, merged in one walk (the named list can hold 200k keys).
        let extra = kept.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        var merged: [String] = [], index = extra.startIndex
        merged.reserveCapacity(named.count + extra.count)
        for key in named {
            while index < extra.endIndex, extra[index].utf8.lexicographicallyPrecedes(key.utf8) { merged.append(extra[index]); index += 1 }
            merged.append(key)
        }
        return merged + extra[index...]
    }

    /// What the config zone received but could not apply.
    public func quarantined() throws -> [QuarantineEntry] {
        try read("list quarantined config records") { try Journal.quarantined($0) }
    }

    public func quarantineSummary() throws -> QuarantineSummary {
        try read("summarize the config quarantine") { try SyncTables.quarantineSummary($0, zone: "config") }
    }

    /// Drops a quarantined entry for good; false if there is none with that id.
    public func discardQuarantined(id: Int64) throws -> Bool {
        try write("discard a quarantined config record") { try Journal.discardQuarantined($0, id: id) }
    }

    /// The pending upload intents, oldest first.
    public func pendingJournal() throws -> [JournalEntry] {
        try read("read the journal") { try Journal.pending($0) }
    }

    // MARK: - Generic record plumbing

    func read<T>(_ action: @autoclosure () -> String, _ body: (Connection) throws -> T) throws -> T {
        try Self.storage(action()) { try queue.read(body) }
    }

    func write<T>(_ action: @autoclosure () -> String, _ body: (Connection) throws -> T) throws -> T {
        try Self.storage(action()) { try queue.write(body) }
    }

    /// Runs `body`, turning database failures into `ConfigError.storage` that names `action`.
    /// `action` is only evaluated when something fails (it names the work in the message).
    static func storage<T>(_ action: @autoclosure () -> String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as ConfigError {
            throw error
        } catch let error as SQLiteError {
            throw ConfigError(.storage, "Unable to \(action()): \(error).", cause: error)
        }
    }

    func all<R: ConfigRecord>(_ db: Connection, _: R.Type, where clause: String? = nil, _ arguments: [SQLBindable] = []) throws -> [R] {
        let sql = R.selectSQL + (clause.map { " WHERE \($0)" } ?? "") + (R.self is any LabeledRecord.Type ? " ORDER BY label, id" : " ORDER BY id")
        return try db.query(sql, arguments) { try R(row: $0) }
    }

    func find<R: ConfigRecord>(_ db: Connection, _: R.Type, id: UUID) throws -> R? {
        try db.queryFirst(R.selectByIDSQL, [CanonicalUUID.text(id)]) { try R(row: $0) }
    }

    /// Finds a record by id (canonical UUID text, any case) or by label: the one labelled exactly
    /// so, else the one whose label differs only by case or Unicode normalization (`LabelText`).
    func find<R: LabeledRecord>(_ db: Connection, _: R.Type, labelOrID: String) throws -> R {
        if let id = CanonicalUUID.parseAnyCase(labelOrID) {
            if let record = try find(db, R.self, id: id) { return record }
        } else {
            var matches = try db.query(R.selectSQL + " WHERE label = ? LIMIT 2", [LabelText.normalized(labelOrID)]) { try R(row: $0) }
            if matches.isEmpty { matches = try db.query(R.selectSQL + " WHERE label_key = ? LIMIT 2", [LabelText.key(labelOrID)]) { try R(row: $0) } }
            if matches.isEmpty, let id = try id(db, R.self, prefix: labelOrID) { return try find(db, R.self, id: id)! }
            if matches.count == 1 { return matches[0] }
            if matches.count > 1 {
                throw ConfigError(.ambiguous, "More than one \(R.kind) is labelled '\(CanonicalUUID.printable(labelOrID))'.",
                                  hint: "Refer to it by id (see the list command), then rename one.")
            }
        }
        throw ConfigError(.notFound, "No \(R.kind) '\(CanonicalUUID.printable(labelOrID))'.", hint: "List them with the \(R.kind) list command.")
    }

    /// The id that starts with `prefix` (four or more of its characters, any case, as `git`
    /// takes a commit's), or nil when `prefix` cannot start an id or starts none. Two or more
    /// ids starting so are ambiguous.
    func id<R: ConfigRecord>(_ db: Connection, _: R.Type, prefix: String) throws -> UUID? {
        let start = prefix.lowercased()
        guard start.count >= 4, start.count <= 36, start.allSatisfy({ $0.isHexDigit || $0 == "-" }) else { return nil }
        // A range on the primary key: ids are canonical lowercase text, and "~" sorts after every id character.
        let ids = try db.query("SELECT id FROM \(R.table) WHERE id >= ? AND id < ? ORDER BY id LIMIT 3", [start, start + "~"]) { $0.text(0) ?? "" }
        guard ids.count <= 1 else {
            throw ConfigError(.ambiguous, "More than one \(R.kind) id starts with '\(prefix)' (\(ids.prefix(2).joined(separator: ", "))\(ids.count > 2 ? ", …" : "")).",
                              hint: "Give more of the id.")
        }
        return ids.first.flatMap(CanonicalUUID.parse)
    }

    /// The label to store for `record` (NFC; a stored record whose label reads the same keeps its
    /// bytes, so an edit of another field changes no label), once no other record of the kind has
    /// a label that differs from it only by case or normalization.
    func freeLabel<R: LabeledRecord>(_ db: Connection, _ record: R) throws -> String {
        try ConfigValidation.label(record.label, kind: R.kind)
        let key = CanonicalUUID.text(record.id)
        let clash = try db.queryFirst("SELECT label FROM \(R.table) WHERE label_key = ? AND id != ? LIMIT 1",
                                      [LabelText.key(record.label), key]) { $0.text(0) ?? "" }
        if let clash {
            let same = clash == record.label ? "" : " ('\(CanonicalUUID.printable(clash))'; labels that differ only by case are the same label)"
            throw ConfigError(.alreadyExists, "\(R.kind == Identity.kind ? "An" : "A") \(R.kind) labelled '\(CanonicalUUID.printable(record.label))' already exists\(same).",
                              hint: "Choose another label or edit the existing \(R.kind).")
        }
        // Swift compares strings by canonical equivalence: equal here means the label reads the same.
        if let stored = try db.queryFirst("SELECT label FROM \(R.table) WHERE id = ?", [key], { $0.text(0) }) ?? nil, stored == record.label { return stored }
        return LabelText.normalized(record.label)
    }

    /// Stamps a new version on the field groups that changed, stores the record and journals it,
    /// inside the caller's write. Groups left as they were keep their versions, so an edit of one
    /// field never overrides another device's concurrent edit of another. A save that changes
    /// nothing writes and sends nothing.
    ///
    /// Optimistic: a record without a version must be new, and one with a version must still
    /// hold exactly that version — so two processes editing at once cannot lose an update, and
    /// an edit cannot bring back a record removed meanwhile.
    func persist<R: ConfigRecord>(_ db: Connection, _ record: R) throws -> R {
        let key = CanonicalUUID.text(record.id)
        let stored = try StoredRecord.read(db, R.self, key: key)
        let removed = try db.queryFirst("SELECT 1 FROM config_tombstones WHERE record_name = ?", [record.recordName]) { _ in true } ?? false
        guard stored?.version == record.version, !(record.version == nil && removed) else {
            throw ConfigError(.conflict, "The \(R.kind) was changed or removed by another process meanwhile; nothing was saved.",
                              hint: "Run the command again.")
        }
        let values = record.columnValues.map(\.sqlValue)
        let changed = R.fieldGroups.map { group in stored.map { group.values(of: $0.values) != group.values(of: values) } ?? true }
        guard changed.contains(true) else { return record }
        var stamped = record
        let version = try LocalClock.tick(db, device: deviceID, skew: clockSkew.withLock { $0 })
        stamped.version = version
        let stamps = changed.indices.map { index in
            guard changed[index] else { return stored!.stamps[index] }
            // A new record leaves a group older builds lack unwritten while it can, so they read it.
            if stored == nil, R.fieldGroups[index].isUnwritten(in: values) { return FieldStamp.unwritten }
            return FieldStamp(writing: version, after: stored?.stamps[index])
        }
        let incarnation = stored?.incarnation ?? 0
        try db.run(R.insertSQL, R.insertValues(key: key, values: values, version: version, fields: FieldStamp.stored(stamps, recordVersion: version), incarnation: incarnation))
        // A save past the check above has no tombstone unless a live row stood beside one.
        if removed { try ConfigZone.dropTombstone(db, recordName: stamped.recordName) }
        try Journal.record(db, JournalEntry(recordName: stamped.recordName, kind: R.kind, version: version, deleted: false, incarnation: incarnation))
        return stamped
    }

    /// Deletes the record, leaving a tombstone (of its incarnation, with its last state, kept
    /// here to bring it back) and a pending deletion in the journal.
    func erase<R: ConfigRecord>(_ db: Connection, _ record: R) throws {
        let version = try LocalClock.tick(db, device: deviceID, skew: clockSkew.withLock { $0 })
        let stored = try StoredRecord.read(db, R.self, key: CanonicalUUID.text(record.id))
        try db.run("DELETE FROM \(R.table) WHERE id = ?", [CanonicalUUID.text(record.id)])
        try ConfigZone.storeTombstone(db, recordName: record.recordName, kind: R.kind, version: version, incarnation: stored?.incarnation ?? 0,
                                      lastState: stored.map { ConfigPayload.encode($0.values) })
        try RemovalLog.store(db, recordName: record.recordName, incarnation: stored?.incarnation ?? 0, version: version,
                             context: RemovalLog.context(deleting: (stored?.stamps ?? []).map(\.context), at: version))
        try Journal.record(db, JournalEntry(recordName: record.recordName, kind: R.kind, version: version, deleted: true, incarnation: stored?.incarnation ?? 0))
    }
}
