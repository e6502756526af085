import CredentialVault
import SQLite

/// How `conflicts` shows a kept config value, for people: the record by label, the field group
/// by name, each value with its column, records it names by their labels. Config values only:
/// a kept secret is never shown here.
extension ConflictText {
    /// The id users type: `c` and the entry's number (secret conflicts keep bare numbers).
    static func id(_ conflict: ConfigConflict) -> String { "c\(conflict.id)" }

    /// "host 'cx'", or "a removed host".
    func record(_ conflict: ConfigConflict) -> String {
        let label: String?? = conflict.recordID.map { id in
            switch conflict.kind {
            case "host": return (try? vault.host(id: id))??.label
            case "group": return (try? vault.group(id: id))??.label
            case "identity": return (try? vault.identity(id: id))??.label
            default: return nil
            }
        }
        guard let label = label ?? nil else { return conflict.kind == "forward" ? "a port forward" : "a removed \(conflict.kind)" }
        return "\(conflict.kind) '\(label)'"
    }

    /// `hostname=cx.example port=2200`: each column of the group with its value.
    func values(_ values: [SQLValue], of conflict: ConfigConflict) -> String {
        zip(conflict.columns, values).map { column, value in "\(column)=\(describe(value, column: column))" }.joined(separator: " ")
    }

    /// What beat it: "edit from laptop at …" or "deleted on laptop at …".
    func winner(_ conflict: ConfigConflict) -> String {
        (conflict.winnerDeleted ? "deleted on " : "edit from ") + device(conflict.winnerVersion.device) + " at " + Self.time(conflict.winnerVersion.seconds)
    }

    /// A value as text; an id of a group, identity or host as its label when it still exists.
    private func describe(_ value: SQLValue, column: String) -> String {
        switch value {
        case .null: return "-"
        case .integer(let number): return String(number)
        case .real(let number): return String(number)
        case .blob(let bytes): return "\(bytes.count) bytes"
        case .text(let text):
            guard column.hasSuffix("_id"), let id = CanonicalUUID.parse(text) else { return text }
            let label: String?? = switch column {
            case "group_id", "parent_id": (try? vault.group(id: id))?.map(\.label)
            case "identity_id": (try? vault.identity(id: id))?.map(\.label)
            default: (try? vault.host(id: id))?.map(\.label)
            }
            return (label ?? nil).map { "'\($0)'" } ?? text
        }
    }
}
