/// Why a ProxyJump cannot be linked. It ends the linking of that one host's ProxyJump and
/// becomes one of that host's problems; it never leaves the importer.
struct SSHConfigJumpProblem: Error {
    let reason: String

    init(_ reason: String) { self.reason = reason }
}
