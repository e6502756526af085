import Glibc
import SystemErrors

/// A failed C call of the directory backend: the function's name and its `errno`.
///
/// Only the directory backend's helpers throw it; `DirectoryRemote` turns it into a
/// `ReplicationError` that names the object, so callers see one error type.
struct SystemCallError: Error {
    let function: String
    let errno: Int32

    /// Runs `call` until it does not fail with `EINTR`; throws for any other failure (-1).
    static func retrying<T: BinaryInteger>(_ function: String, _ call: () -> T) throws -> T {
        while true {
            let result = call()
            if result != -1 { return result }
            let code = Glibc.errno
            if code == EINTR { continue }
            throw SystemCallError(function: function, errno: code)
        }
    }

    /// `errno N (text)`, for messages.
    var explanation: String {
        "\(function) failed: \(SystemError.describe(errno))"
    }

    /// The remote error for this failure while doing `action` (a phrase such as
    /// `publish object 'vault.json'`) in the remote directory `root`.
    ///
    /// Errors that mean the file system went away (a stale or disconnected network mount)
    /// are `.unreachable`; everything else is `.io`.
    func remoteError(_ action: String, in root: String) -> ReplicationError {
        let unreachable: Set<Int32> = [
            ESTALE, ENOTCONN, EHOSTDOWN, EHOSTUNREACH, ETIMEDOUT, ENODEV, ENXIO,
            ECONNABORTED, ECONNRESET, ECONNREFUSED, ENETDOWN, ENETUNREACH,
        ]
        let code: ReplicationError.Code = unreachable.contains(errno) ? .unreachable : .io
        return ReplicationError(code, "Unable to \(action) in \(root): \(explanation).")
    }
}
