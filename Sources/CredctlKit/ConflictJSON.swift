import CredentialVault
import SQLite

/// One kept conflict as `conflicts list --json` and `conflicts show --json` give it. Never a
/// secret: a kept secret version is named, not shown.
extension ConflictText {
    func json(_ conflict: SecretConflict) -> JSONValue {
        .object([("id", .int(Int(conflict.id))), ("kind", .string("secret")), ("reference", .string(conflict.lost.reference)),
                 ("secret", .string(secret(conflict))),
                 ("lost_version_time", .int(Int(conflict.lost.version.seconds))), ("lost_incarnation", .int(Int(conflict.lost.incarnation))),
                 ("winner", .object([("deleted", .bool(conflict.winnerDeleted)), ("device", .string(conflict.winner.device)),
                                     ("device_name", .string(device(conflict.winner.device))), ("time", .int(Int(conflict.winner.seconds)))])),
                 ("kept_at", .int(Int(conflict.recordedAt))), ("expires_at", .int(Int(conflict.expiresAt)))])
    }

    func json(_ conflict: ConfigConflict) -> JSONValue {
        .object([("id", .string(Self.id(conflict))), ("kind", .string("config")), ("record", .string(conflict.recordName)),
                 ("record_name", .string(record(conflict))), ("field", .string(conflict.group)),
                 ("kept", Self.json(conflict.kept, conflict.columns)), ("kept_version_time", .int(Int(conflict.keptVersion.seconds))),
                 ("winner", .object([("deleted", .bool(conflict.winnerDeleted)), ("values", conflict.winner.map { Self.json($0, conflict.columns) } ?? .null),
                                     ("device", .string(conflict.winnerVersion.device)), ("device_name", .string(device(conflict.winnerVersion.device))),
                                     ("time", .int(Int(conflict.winnerVersion.seconds)))])),
                 ("kept_at", .int(Int(conflict.recordedAt))), ("expires_at", .int(Int(conflict.expiresAt)))])
    }

    /// A field group's values as a JSON object by column.
    private static func json(_ values: [SQLValue], _ columns: [String]) -> JSONValue {
        .object(zip(columns, values).map { column, value in
            switch value {
            case .null: (column, .null)
            case .integer(let number): (column, .int(Int(number)))
            case .text(let text): (column, .string(text))
            case .real(let number): (column, .string(String(number)))
            case .blob(let bytes): (column, .string("\(bytes.count) bytes"))
            }
        })
    }
}
