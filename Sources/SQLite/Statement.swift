internal import CSQLite

/// A prepared statement, owned by exactly one `Connection`.
///
/// The corresponding C functions are `sqlite3_prepare_v3`, `sqlite3_bind_*`, `sqlite3_step`,
/// `sqlite3_reset` and `sqlite3_finalize`.
final class Statement {
    let handle: OpaquePointer
    private let connection: OpaquePointer

    init(connection: OpaquePointer, sql: String) throws {
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v3(connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard status == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw ResultCode.error(status, "prepare", connection)
        }
        self.handle = statement
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    /// Binds `arguments` by position (1-based in SQLite, 0-based here).
    func bind(_ arguments: [SQLValue]) throws {
        let expected = Int(sqlite3_bind_parameter_count(handle))
        // A count mismatch is a programming error in a query, not a runtime condition.
        precondition(arguments.count == expected, "statement expects \(expected) arguments, got \(arguments.count)")
        for (offset, value) in arguments.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case .null: status = sqlite3_bind_null(handle, index)
            case .integer(let v): status = sqlite3_bind_int64(handle, index, v)
            case .real(let v): status = sqlite3_bind_double(handle, index, v)
            case .text(let v):
                // Bind with an explicit length: text may contain U+0000, which -1 would cut at.
                var text = v
                status = text.withUTF8 { utf8 in
                    let start = UnsafeRawPointer(utf8.baseAddress ?? UnsafePointer(bitPattern: 1)!).assumingMemoryBound(to: CChar.self)
                    return sqlite3_bind_text(handle, index, start, Int32(utf8.count), csqlite_transient())
                }
            case .blob(let v):
                status = v.withUnsafeBytes { bytes in
                    // A zero-length blob needs a non-null pointer or SQLite stores NULL.
                    sqlite3_bind_blob(handle, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(bytes.count), csqlite_transient())
                }
            }
            try ResultCode.check(status, "bind", connection)
        }
    }

    /// Steps once; returns true while a row is available.
    func step() throws -> Bool {
        let status = sqlite3_step(handle)
        switch status {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw ResultCode.error(status, "step", connection)
        }
    }

    /// Makes the statement ready for reuse and drops bound values (so no argument lingers).
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }
}
