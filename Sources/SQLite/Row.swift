internal import CSQLite

/// A row: the current row of a statement being stepped (valid only inside the closure it is
/// passed to), or a row of values that did not come from the database — so a record decoded
/// from elsewhere is checked by the very code that reads it from a table.
public struct Row {
    private let handle: OpaquePointer?
    private let values: [SQLValue]

    init(handle: OpaquePointer) {
        self.handle = handle
        values = []
    }

    /// A row made of `values`, read with the same accessors as a database row.
    public init(values: [SQLValue]) {
        handle = nil
        self.values = values
    }

    /// The column as a tagged value, whatever its type.
    public func value(_ column: Int32) -> SQLValue {
        guard let handle else { return Int(column) < values.count ? values[Int(column)] : .null }
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, column))
        case SQLITE_TEXT: return .text(text(column) ?? "")
        case SQLITE_BLOB: return .blob(blob(column) ?? [])
        default: return .null
        }
    }

    public func isNull(_ column: Int32) -> Bool {
        guard let handle else { return value(column) == .null }
        return sqlite3_column_type(handle, column) == SQLITE_NULL
    }

    public func int64(_ column: Int32) -> Int64 {
        guard let handle else {
            switch value(column) {
            case .integer(let number): return number
            case .real(let number): return Int64(exactly: number.rounded(.towardZero)) ?? 0
            default: return 0
            }
        }
        return sqlite3_column_int64(handle, column)
    }

    public func int(_ column: Int32) -> Int { Int(int64(column)) }

    public func uint64(_ column: Int32) -> UInt64 { UInt64(bitPattern: int64(column)) }

    public func bool(_ column: Int32) -> Bool { int64(column) != 0 }

    public func text(_ column: Int32) -> String? {
        guard let handle else {
            if case .text(let text) = value(column) { return text }
            return nil
        }
        guard let chars = sqlite3_column_text(handle, column) else { return nil }
        let length = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: chars, count: length), as: UTF8.self)
    }

    public func blob(_ column: Int32) -> [UInt8]? {
        guard let handle else {
            if case .blob(let bytes) = value(column) { return bytes }
            return nil
        }
        if isNull(column) { return nil }
        let length = Int(sqlite3_column_bytes(handle, column))
        guard length > 0, let bytes = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: bytes, count: length))
    }
}
