import Replication
import SQLite

/// The ordered migrations of `config.sqlite`. Append only; never edit a shipped one.
///
/// Records carry no foreign keys on purpose: replication can deliver a host before the group or
/// identity it names, so references are checked when a local edit is made and resolved when
/// read. Labels are indexed but not UNIQUE for the same reason (two devices may each create
/// "web-1" offline); local edits enforce uniqueness, by label key (`LabelText`).
enum ConfigSchema {
    static let migrator = Migrator([
        LocalClock.migration,
        Journal.migration,
        Migration("config: records") { db in
            try db.execute("""
                CREATE TABLE config_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                CREATE TABLE hosts (
                    id TEXT PRIMARY KEY, label TEXT NOT NULL, hostname TEXT NOT NULL, port INTEGER NOT NULL,
                    username TEXT, auth_method TEXT NOT NULL, identity_id TEXT, group_id TEXT, jump_host_id TEXT,
                    password_ref TEXT, version_clock INTEGER NOT NULL, version_device TEXT NOT NULL);
                CREATE INDEX hosts_label ON hosts (label);
                CREATE INDEX hosts_group ON hosts (group_id);
                CREATE TABLE host_groups (
                    id TEXT PRIMARY KEY, label TEXT NOT NULL, parent_id TEXT,
                    version_clock INTEGER NOT NULL, version_device TEXT NOT NULL);
                CREATE INDEX host_groups_label ON host_groups (label);
                CREATE TABLE identities (
                    id TEXT PRIMARY KEY, label TEXT NOT NULL, username TEXT, key_type TEXT NOT NULL,
                    public_key TEXT NOT NULL, private_key_ref TEXT NOT NULL, passphrase_ref TEXT,
                    version_clock INTEGER NOT NULL, version_device TEXT NOT NULL);
                CREATE INDEX identities_label ON identities (label);
                CREATE TABLE port_forwards (
                    id TEXT PRIMARY KEY, host_id TEXT NOT NULL, kind TEXT NOT NULL, bind_address TEXT,
                    bind_port INTEGER NOT NULL, destination_host TEXT, destination_port INTEGER,
                    version_clock INTEGER NOT NULL, version_device TEXT NOT NULL);
                CREATE INDEX port_forwards_host ON port_forwards (host_id);
                CREATE TABLE config_tombstones (
                    record_name TEXT PRIMARY KEY, kind TEXT NOT NULL,
                    version_clock INTEGER NOT NULL, version_device TEXT NOT NULL);
                """)
        },
        SyncTables.migration,
        Migration("config: devices") { db in
            try db.execute("""
                CREATE TABLE devices (
                    id TEXT PRIMARY KEY, display_name TEXT NOT NULL, first_seen INTEGER NOT NULL,
                    version_clock INTEGER NOT NULL, version_device TEXT NOT NULL)
                """)
        },
        SyncTables.ingestedCopiesMigration,
        SyncTables.replayableQuarantineMigration,
        SyncTables.publishIntentMigration,
        SyncTables.compactionMigration,
        SyncTables.quarantineBoundsMigration,
        fieldVersionsMigration,
        incarnationsMigration,
        RemovalLog.migration,
        labelKeysMigration,
        identityConfirmationMigration,
        Journal.clockIndexMigration,
        ReplacedRemovals.migration,
    ])

    /// Identities may ask for confirmation on each use: `confirm` (0 or 1), a field group added
    /// in format 3. Every stored identity gets it unwritten, as a record from an older build
    /// reads: its stored stamps (`fields`: a u16 group count, then each group's) go from three
    /// groups to four, the last tag 2; NULL stood for three stamps of tag 0. A row whose stamps
    /// do not start so is left as it is (it reads as damaged either way).
    static let identityConfirmationMigration = Migration("config: identity confirmation") { db in
        try db.execute("ALTER TABLE identities ADD COLUMN confirm INTEGER NOT NULL DEFAULT 0")
        let rows = try db.query("SELECT id, fields FROM identities") { ($0.text(0) ?? "", $0.blob(1)) }
        for (id, fields) in rows {
            let stamps = fields ?? [0, 3, 0, 0, 0]
            guard stamps.starts(with: [0, 3]) else { continue }
            let four: [UInt8] = [0, 4] + stamps.dropFirst(2) + [2]
            try db.run("UPDATE identities SET fields = ? WHERE id = ?", [four, id])
        }
    }

    /// Labelled rows keep their label's key (`LabelText.key`), indexed: uniqueness and lookups
    /// ignore case and Unicode normalization. Filled here for the rows already stored; every
    /// write keeps it (`ConfigRecord.insertValues`).
    static let labelKeysMigration = Migration("config: label keys") { db in
        for table in labelledTables {
            try db.execute("ALTER TABLE \(table) ADD COLUMN label_key TEXT")
            let rows = try db.query("SELECT id, label FROM \(table)") { ($0.text(0) ?? "", $0.text(1) ?? "") }
            for (id, label) in rows { try db.run("UPDATE \(table) SET label_key = ? WHERE id = ?", [LabelText.key(label), id]) }
            try db.execute("CREATE INDEX \(table)_label_key ON \(table) (label_key)")
        }
    }

    static let labelledTables = ["hosts", "host_groups", "identities"]

    /// Field groups carry their own versions (`fields`, NULL while every group has the row's
    /// version seen alone), and losing field values are kept where they were written.
    static let fieldVersionsMigration = Migration("config: field versions and conflicts") { db in
        for table in ["hosts", "host_groups", "identities", "port_forwards", "devices"] {
            try db.execute("ALTER TABLE \(table) ADD COLUMN fields BLOB")
        }
        try db.execute("""
            CREATE TABLE config_conflicts (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                record_name TEXT NOT NULL, kind TEXT NOT NULL, field_group TEXT NOT NULL,
                kept_values BLOB NOT NULL, kept_clock INTEGER NOT NULL, kept_device TEXT NOT NULL,
                winner_values BLOB, winner_clock INTEGER NOT NULL, winner_device TEXT NOT NULL, winner_deleted INTEGER NOT NULL,
                record_state BLOB NOT NULL, recorded_at INTEGER NOT NULL,
                UNIQUE (record_name, field_group, kept_clock, kept_device));
            """)
    }

    /// Records have incarnations, as secrets do: a deletion ends its incarnation and the ones
    /// before it; a record brought back (`conflicts restore`) is the next one. Each removed
    /// record's last state stays here (never sent), so it can be brought back.
    static let incarnationsMigration = Migration("config: incarnations and the last state of removed records") { db in
        for table in ["hosts", "host_groups", "identities", "port_forwards", "devices", "config_tombstones"] {
            try db.execute("ALTER TABLE \(table) ADD COLUMN incarnation INTEGER NOT NULL DEFAULT 0")
        }
        try db.execute("ALTER TABLE config_tombstones ADD COLUMN last_state BLOB")
    }
}
