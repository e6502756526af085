internal import CSQLite

/// The current row of a statement being stepped. Valid only inside the closure it is passed to.
public struct Row {
    let handle: OpaquePointer

    init(handle: OpaquePointer) { self.handle = handle }

    public func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    public func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    public func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }

    public func uint64(_ column: Int32) -> UInt64 { UInt64(bitPattern: sqlite3_column_int64(handle, column)) }

    public func bool(_ column: Int32) -> Bool { sqlite3_column_int64(handle, column) != 0 }

    public func text(_ column: Int32) -> String? {
        guard let chars = sqlite3_column_text(handle, column) else { return nil }
        let length = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: chars, count: length), as: UTF8.self)
    }

    public func blob(_ column: Int32) -> [UInt8]? {
        if isNull(column) { return nil }
        let length = Int(sqlite3_column_bytes(handle, column))
        guard length > 0, let bytes = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: bytes, count: length))
    }

    /// The column as a tagged value, whatever its type.
    public func value(_ column: Int32) -> SQLValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: .integer(int64(column))
        case SQLITE_FLOAT: .real(sqlite3_column_double(handle, column))
        case SQLITE_TEXT: .text(text(column) ?? "")
        case SQLITE_BLOB: .blob(blob(column) ?? [])
        default: .null
        }
    }
}
