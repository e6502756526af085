/// A command that ran another program ends with that program's exit status, and nothing more
/// is said: the program spoke for itself.
struct ChildExit: Error {
    let status: Int32
}
