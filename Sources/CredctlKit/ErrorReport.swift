/// How a failure reaches the user: two lines of text on standard error (`credctl: error: …`,
/// `credctl: hint: …`), or — when `--json` was given — one JSON object there,
/// `{"error": {"code", "message", "hint", "exit_status"}}`, so a script that asked for JSON
/// never has to parse prose. `code` is stable: a `VaultError` code (`notYetSynced`, `locked`, …),
/// or for other failures the name of the exit status (`usage`, `invalidInput`, `notFound`,
/// `unavailable`, `locked`, `failure`).
struct ErrorReport {
    let code: String
    let message: String
    let hint: String?
    let status: Int32
    /// Lines printed after the message in text form only (a command's usage).
    var details: [String] = []

    /// The code of a failure known only by its exit status.
    static func code(forStatus status: Int32) -> String {
        switch status {
        case ExitStatus.usage: "usage"
        case ExitStatus.dataError: "invalidInput"
        case ExitStatus.notFound: "notFound"
        case ExitStatus.unavailable: "unavailable"
        case ExitStatus.notYetSynced: "notYetSynced"
        case ExitStatus.locked: "locked"
        default: "failure"
        }
    }

    func print(json: Bool) {
        guard !json else {
            let error = JSONValue.object([("code", .string(code)), ("message", .string(message)), ("hint", .optional(hint)),
                                          ("exit_status", .int(Int(status)))])
            return Output.errControl(JSONValue.object([("error", error)]).rendered() + "\n")
        }
        Output.err("credctl: error: \(message)\n")
        for line in details { Output.err(line + "\n") }
        if let hint { Output.err("credctl: hint: \(hint)\n") }
    }
}
