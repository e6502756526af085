internal import CLibsecret

/// libsecret, loaded on first use (dlopen) rather than linked, so that a command that never
/// touches the desktop keyring does not load it, nor GLib, GObject and GIO beneath it.
enum Libsecret {
    /// The Debian package that provides `libsecret-1.so.0`.
    static let package = "libsecret-1-0"

    /// Loads libsecret the first time; afterwards returns at once, or throws the same `noLibrary`
    /// again (`clibsecret_load` tries once per process). The corresponding C function is
    /// `clibsecret_load`.
    static func load() throws(KeyringError) {
        var buffer = [CChar](repeating: 0, count: 256)
        guard buffer.withUnsafeMutableBufferPointer({ clibsecret_load($0.baseAddress!, $0.count) }) == 0 else { return }
        let reason = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        throw KeyringError(.noLibrary, "No desktop keyring: libsecret could not be loaded (\(reason)); install the Debian package \(package).")
    }
}
