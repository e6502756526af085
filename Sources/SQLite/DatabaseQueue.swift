/// The serializing owner of one `Connection`: every access goes through `read` or `write`.
///
/// `write` runs its closure in one immediate transaction, so an edit and everything recorded with
/// it (its journal entry, for instance) commit together or not at all.
public final class DatabaseQueue: @unchecked Sendable {
    // `@unchecked Sendable`: the connection is touched only while `lock` is held.
    private let connection: Connection
    private let lock = Lock()

    /// Opens the database at `path` and applies `migrator`'s pending migrations. `readOnly`
    /// opens an existing database only to read (see `Connection.init`); one that needs a
    /// migration is then refused, and every read sees one snapshot, taken at the first, for
    /// as long as the queue lives: the database's locks are taken once, not once per
    /// statement. It is for short-lived readers (a command), which is all that asks for it.
    public init(path: String, migrator: Migrator? = nil, readOnly: Bool = false) throws {
        connection = try Connection(path: path, readOnly: readOnly)
        // Begun before the schema is checked, so the check and every read see the same state.
        if readOnly { try connection.execute("BEGIN DEFERRED") }
        if let migrator { try migrator.migrate(connection) }
    }

    /// Ends the snapshot a read-only queue reads (see `init`): later reads see the database as
    /// it is at each statement. Nothing happens outside a transaction.
    public func endSnapshot() {
        lock.withLock {
            if connection.isReadOnly && connection.isInTransaction { _ = try? connection.execute("COMMIT") }
        }
    }

    public var path: String { connection.path }

    /// Whether the database can only be read here (see `Connection.isReadOnly`).
    public var isReadOnly: Bool { connection.isReadOnly }

    /// Reads with exclusive access to the connection.
    public func read<T>(_ body: (Connection) throws -> T) throws -> T {
        try lock.withLock { try body(connection) }
    }

    /// Reads several things from one consistent snapshot (a deferred transaction).
    public func snapshot<T>(_ body: (Connection) throws -> T) throws -> T {
        try lock.withLock { try connection.readTransaction { try body(connection) } }
    }

    /// Writes inside one immediate transaction.
    public func write<T>(_ body: (Connection) throws -> T) throws -> T {
        guard !connection.isReadOnly else {
            throw SQLiteError(code: .readOnly, resultCode: 0, operation: "write",
                              message: "\(path) is read-only here (no write permission, a read-only file system, or opened only to read); reading works, changing needs write access")
        }
        return try lock.withLock { try connection.transaction { try body(connection) } }
    }
}
