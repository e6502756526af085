internal import CLibsecret

/// Turns a `GError` from libsecret into a `KeyringError` (and frees it).
enum GLibError {
    static func take(_ error: UnsafeMutablePointer<GError>?, doing action: String) -> KeyringError {
        guard let error else { return KeyringError(.failed, "Unable to \(action) in the desktop keyring.") }
        defer { g_error_free(error) }
        let domain = error.pointee.domain, code = error.pointee.code
        let message = error.pointee.message.map { String(cString: $0) } ?? "unknown error"
        if domain == g_io_error_quark() {
            // No bus at all: nothing to autolaunch (no X11) or a dead bus address.
            if code == Int32(G_IO_ERROR_FAILED.rawValue) || code == Int32(G_IO_ERROR_NOT_FOUND.rawValue) {
                return KeyringError(.noBus, "No desktop keyring: there is no session bus (\(message)).")
            }
            if code == Int32(G_IO_ERROR_CANCELLED.rawValue) { return KeyringError(.timedOut, "The desktop keyring call was cancelled.") }
        }
        if domain == g_dbus_error_quark() {
            if code == Int32(G_DBUS_ERROR_SERVICE_UNKNOWN.rawValue) {
                return KeyringError(.noProvider, "No desktop keyring: nothing provides the Secret Service on the session bus.")
            }
            if code == Int32(G_DBUS_ERROR_UNKNOWN_METHOD.rawValue) {
                return KeyringError(.noProvider, "No desktop keyring: the Secret Service has no default collection (\(message)).")
            }
            if code == Int32(G_DBUS_ERROR_NO_REPLY.rawValue) || code == Int32(G_DBUS_ERROR_TIMEOUT.rawValue) {
                return KeyringError(.timedOut, "The desktop keyring did not answer (\(message)).")
            }
        }
        if domain == secret_error_get_quark(), code == Int32(SECRET_ERROR_IS_LOCKED.rawValue) {
            return KeyringError(.locked, "The desktop keyring's default collection is locked.")
        }
        return KeyringError(.failed, "Unable to \(action) in the desktop keyring: \(message).")
    }
}
