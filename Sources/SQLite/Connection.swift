internal import CSQLite
import Glibc
import SystemErrors

/// One SQLite connection. Not `Sendable`: a `DatabaseQueue` owns it and hands it out serially.
///
/// Opens in WAL mode with a busy timeout, foreign keys on and full fsync, so a crash leaves the
/// file either before or after each transaction.
public final class Connection {
    let handle: OpaquePointer
    /// Prepared statements reused by SQL text; preparing once is most of a lookup's cost.
    private var cache: [String: Statement] = [:]
    public let path: String

    /// Process-wide SQLite settings, applied once before the first connection.
    private static let configured: Bool = {
        // SQLITE_MISUSE here means SQLite was initialised elsewhere first; the setting is only
        // an optimisation, so that is not an error.
        _ = csqlite_disable_memory_statistics()
        return true
    }()

    /// Whether this connection can only read: the file or its file system refused writing.
    public let isReadOnly: Bool

    /// Opens (creating with mode 0600 if absent) the database at `path`. An existing database
    /// this process may not write — a read-only mount, a file without write permission — is
    /// opened read-only (`isReadOnly`): everything that only reads still works.
    /// The corresponding C function is `sqlite3_open_v2`.
    public init(path: String, busyTimeoutMilliseconds: Int32 = 5_000) throws {
        _ = Self.configured
        let access = try DatabaseFileAccess(path: path)
        isReadOnly = !access.writable
        let readOnlyFileSystem = access.onReadOnlyFileSystem
        var db: OpaquePointer?
        let status = isReadOnly
            // Nothing can change a database on a read-only mount, and its WAL index cannot be
            // created there: SQLite reads it as immutable.
            ? sqlite3_open_v2(Self.uri(path, readOnlyFileSystem ? "immutable=1" : "mode=ro"), &db,
                              SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE, nil)
            : sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE, nil)
        guard status == SQLITE_OK, let db else {
            let error = ResultCode.error(status, "open", db)
            // sqlite3_open_v2 allocates a handle even on failure; it must be closed.
            sqlite3_close_v2(db)
            throw error
        }
        sqlite3_busy_timeout(db, busyTimeoutMilliseconds)
        // Configure before any stored property is set, so a failure here closes the handle
        // exactly once (deinit does not run for an object whose init failed this early).
        // Memory-mapped reads: a lookup in a database larger than the page cache costs page
        // faults at worst instead of a pread(2) per page.
        let pragmas = isReadOnly ? "PRAGMA query_only=1; PRAGMA foreign_keys=ON; PRAGMA mmap_size=268435456;"
            : "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON; PRAGMA mmap_size=268435456; PRAGMA journal_size_limit=4194304;"
        let configured = sqlite3_exec(db, pragmas, nil, nil, nil)
        guard configured == SQLITE_OK else {
            let error = ResultCode.error(configured, "execute", db)
            sqlite3_close_v2(db)
            throw error
        }
        // Keep the -wal and -shm files when the last connection closes: each short-lived
        // process (a credctl command) would otherwise recreate, size and delete them again.
        // The size limit makes that last close also empty the kept WAL (SQLite truncates a
        // persistent WAL only when a limit is set); a WAL left full would be recovered, read
        // and copied into the database again by every later process.
        var persist: Int32 = 1
        if !isReadOnly { sqlite3_file_control(db, "main", SQLITE_FCNTL_PERSIST_WAL, &persist) }
        handle = db
        self.path = path
    }

    /// `file:` URI of `path` with `parameter` (RFC 3986: everything but unreserved characters
    /// and `/` percent-encoded, so no file name can add a parameter of its own).
    static func uri(_ path: String, _ parameter: String) -> String {
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/".utf8)
        let encoded = path.utf8.map { unreserved.contains($0) ? String(UnicodeScalar($0)) : "%" + String($0, radix: 16, uppercase: true).leftPadded(2) }
        return "file:" + encoded.joined() + "?" + parameter
    }

    deinit {
        cache.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Runs one or more statements that take no arguments (schema, pragmas).
    /// The corresponding C function is `sqlite3_exec`.
    public func execute(_ sql: String) throws {
        try ResultCode.check(sqlite3_exec(handle, sql, nil, nil, nil), "execute", handle)
    }

    /// Runs one statement with `arguments`, discarding any rows.
    public func run(_ sql: String, _ arguments: [SQLBindable] = []) throws {
        let statement = try prepared(sql)
        defer { statement.reset() }
        try statement.bind(arguments.map(\.sqlValue))
        while try statement.step() {}
    }

    /// Runs a query and maps every row.
    public func query<T>(_ sql: String, _ arguments: [SQLBindable] = [], _ map: (Row) throws -> T) throws -> [T] {
        let statement = try prepared(sql)
        defer { statement.reset() }
        try statement.bind(arguments.map(\.sqlValue))
        var results: [T] = []
        while try statement.step() {
            results.append(try map(Row(handle: statement.handle)))
        }
        return results
    }

    /// Runs a query and hands each row to `body` as it is stepped, holding none of them: for
    /// passes over a whole table. `body` must not run the same SQL again (the statement is
    /// shared).
    public func forEach(_ sql: String, _ arguments: [SQLBindable] = [], _ body: (Row) throws -> Void) throws {
        let statement = try prepared(sql)
        defer { statement.reset() }
        try statement.bind(arguments.map(\.sqlValue))
        while try statement.step() {
            try body(Row(handle: statement.handle))
        }
    }

    /// Runs a query and maps its first row, if any.
    public func queryFirst<T>(_ sql: String, _ arguments: [SQLBindable] = [], _ map: (Row) throws -> T) throws -> T? {
        let statement = try prepared(sql)
        defer { statement.reset() }
        try statement.bind(arguments.map(\.sqlValue))
        guard try statement.step() else { return nil }
        return try map(Row(handle: statement.handle))
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    /// Runs `body` in an immediate transaction: committed if it returns, rolled back if it throws.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            // A failed COMMIT may already have rolled back; ignore "no transaction is active".
            _ = sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
            throw error
        }
    }

    /// Runs `body` in a deferred (read) transaction: every query inside sees one snapshot of the
    /// database, and the WAL read lock is taken once rather than once per statement.
    public func readTransaction<T>(_ body: () throws -> T) throws -> T {
        try run("BEGIN DEFERRED")
        do {
            let result = try body()
            try run("COMMIT")
            return result
        } catch {
            _ = sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
            throw error
        }
    }

    /// Whether a transaction is open on this connection.
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    private func prepared(_ sql: String) throws -> Statement {
        if let statement = cache[sql] { return statement }
        let statement = try Statement(connection: handle, sql: sql)
        cache[sql] = statement
        return statement
    }
}

private extension String {
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}
