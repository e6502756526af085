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
        // SQLITE_MISUSE here means SQLite was initialised elsewhere first; the settings are only
        // optimisations, so that is not an error.
        _ = csqlite_disable_memory_statistics()
        _ = csqlite_no_initial_page_cache()
        return true
    }()

    /// Whether this connection can only read: the file or its file system refused writing, or
    /// the caller asked for `readOnly`.
    public let isReadOnly: Bool

    /// Opens (creating with mode 0600 if absent) the database at `path`. An existing database
    /// this process may not write — a read-only mount, a file without write permission — is
    /// opened read-only (`isReadOnly`): everything that only reads still works.
    ///
    /// `readOnly` opens an existing database only to read, leaving its WAL index (`-shm`) as it
    /// is: the first connection to a WAL database otherwise truncates that file, writes it back
    /// page by page and rebuilds the index, which costs a short-lived process more than its
    /// query (docs/startup.md). SQLite then reads the index another process keeps, or, when none
    /// does, the log itself into private memory (its `readonly_shm`). While such a connection is
    /// open, no other connection of this process can write the database: SQLite shares one
    /// index per file within a process, and this one's is read-only (so is that of a
    /// connection opened meanwhile, until it too is closed).
    /// The corresponding C function is `sqlite3_open_v2`.
    public init(path: String, readOnly: Bool = false, busyTimeoutMilliseconds: Int32 = 5_000) throws {
        _ = Self.configured
        let access = try DatabaseFileAccess(path: path, creating: !readOnly)
        isReadOnly = readOnly || !access.writable
        let readOnlyFileSystem = access.onReadOnlyFileSystem
        // readonly_shm cannot create a missing index file: without one, a read-only open
        // makes it as any connection does.
        let keepIndex = readOnly && access.writable && Glibc.access(path + "-shm", F_OK) == 0
        var db: OpaquePointer?
        let status = isReadOnly
            // Nothing can change a database on a read-only mount, and its WAL index cannot be
            // created there: SQLite reads it as immutable.
            ? sqlite3_open_v2(Self.uri(path, readOnlyFileSystem ? "immutable=1" : keepIndex ? "mode=ro&readonly_shm=1" : "mode=ro"), &db,
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
        // Not with the index kept as it is: when no other process keeps one, SQLite reads the log
        // again for every transaction and maps the file anew each time.
        let pragmas = keepIndex ? "PRAGMA query_only=1; PRAGMA foreign_keys=ON;"
            : isReadOnly ? "PRAGMA query_only=1; PRAGMA foreign_keys=ON; PRAGMA mmap_size=268435456;"
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
    /// Byte by byte into one buffer: `credctl read` opens its vault this way, and generic
    /// collection code here (a set of bytes, a joined array of strings) would cost it more at
    /// run time than the open itself.
    static func uri(_ path: String, _ parameter: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes = Array("file:".utf8)
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                bytes.append(byte)
            default:
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        bytes.append(UInt8(ascii: "?"))
        bytes += parameter.utf8
        return String(decoding: bytes, as: UTF8.self)
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
    /// database, and the WAL read lock is taken once rather than once per statement. Inside a
    /// transaction already open, `body` runs in that one.
    public func readTransaction<T>(_ body: () throws -> T) throws -> T {
        if isInTransaction { return try body() }
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
