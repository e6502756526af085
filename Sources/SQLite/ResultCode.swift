internal import CSQLite

/// The single place SQLite return codes become errors.
///
/// `SQLITE_MISUSE` means this module broke SQLite's API contract; that is a bug, so it traps.
enum ResultCode {
    static func check(_ status: Int32, _ operation: String, _ handle: OpaquePointer?) throws {
        guard status != SQLITE_OK, status != SQLITE_ROW, status != SQLITE_DONE else { return }
        throw error(status, operation, handle)
    }

    static func error(_ status: Int32, _ operation: String, _ handle: OpaquePointer?) -> SQLiteError {
        precondition(status & 0xff != SQLITE_MISUSE, "SQLite API misuse during \(operation)")
        let message = handle.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(status))
        let code: SQLiteError.Code
        switch status & 0xff {
        case SQLITE_BUSY, SQLITE_LOCKED: code = .busy
        case SQLITE_CONSTRAINT: code = .constraint
        case SQLITE_CORRUPT, SQLITE_NOTADB: code = .corrupt
        case SQLITE_CANTOPEN: code = .cannotOpen
        case SQLITE_READONLY: code = .readOnly
        default: code = .other(status & 0xff)
        }
        return SQLiteError(code: code, resultCode: status, operation: operation, message: message)
    }
}
