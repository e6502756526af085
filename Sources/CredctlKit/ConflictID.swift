/// An id as `conflicts list` shows it: a kept secret version (`3`, or `s3`) or a kept config
/// value (`c2`). Secret versions kept their bare numbers from before config values were kept.
enum ConflictID: Equatable, CustomStringConvertible {
    case secret(Int64)
    case config(Int64)

    init?(_ text: String) {
        let prefixed = text.first == "c" || text.first == "s"
        guard let number = Int64(prefixed ? String(text.dropFirst()) : text), number > 0 else { return nil }
        self = text.first == "c" ? .config(number) : .secret(number)
    }

    var description: String {
        switch self {
        case .secret(let id): return String(id)
        case .config(let id): return "c\(id)"
        }
    }

    static func usage(_ text: String, command: CommandSpec) -> UsageError {
        UsageError("'\(text)' is not a conflict ID; IDs are what conflicts list shows (3, s3 or c2).", command: command)
    }
}
