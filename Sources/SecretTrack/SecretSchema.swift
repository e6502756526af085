import Replication
import SQLite

/// The ordered migrations of `secrets.sqlite`. Append only; never edit a shipped one.
enum SecretSchema {
    static let migrator = Migrator([
        LocalClock.migration,
        Journal.migration,
        Migration("secrets: key slots, items, deletion markers") { db in
            try db.execute("""
                CREATE TABLE secret_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                CREATE TABLE key_slots (
                    provider TEXT PRIMARY KEY,
                    kdf_algorithm TEXT, kdf_ops INTEGER, kdf_mem INTEGER, kdf_salt BLOB,
                    wrapped_keys BLOB NOT NULL);
                CREATE TABLE secret_items (
                    reference TEXT PRIMARY KEY,
                    availability TEXT NOT NULL CHECK (availability IN ('deviceOnly', 'syncable')),
                    pinned INTEGER NOT NULL DEFAULT 0,
                    incarnation INTEGER NOT NULL CHECK (incarnation >= 1),
                    version_clock INTEGER NOT NULL, version_device TEXT NOT NULL,
                    sealed_body BLOB NOT NULL);
                -- The every-launch migration scans only this (normally empty) index.
                CREATE INDEX secret_items_local_unpinned ON secret_items (reference)
                    WHERE availability = 'deviceOnly' AND pinned = 0;
                CREATE TABLE deletion_markers (
                    reference TEXT NOT NULL, incarnation INTEGER NOT NULL,
                    version_clock INTEGER NOT NULL, version_device TEXT NOT NULL,
                    PRIMARY KEY (reference, incarnation));
                """)
        },
        SyncTables.migration,
        SyncTables.ingestedCopiesMigration,
        SyncTables.replayableQuarantineMigration,
        SyncTables.publishIntentMigration,
        SecretStore.conflictsMigration,
        SecretStore.migrationCopiesMigration,
        SecretStore.localMarkersMigration,
        SecretStore.orphanSightingsMigration,
        SecretStore.externalBodiesMigration,
        SyncTables.compactionMigration,
        SyncTables.quarantineBoundsMigration,
        SecretStore.contextsMigration,
        RemovalLog.migration,
        SecretStore.epochKeysMigration,
        Journal.clockIndexMigration,
        SecretStore.conflictContextsMigration,
        ReplacedRemovals.migration,
    ])
}
