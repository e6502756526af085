/// The rules every object name of a directory remote follows.
///
/// A name is a relative path of `/`-separated components, at most 1,024 bytes of UTF-8, each
/// component at most 255 bytes (`NAME_MAX`). No component is empty, `.`, `..` or hidden (starts
/// with `.`); no control character and no backslash anywhere. The last component does not end
/// in `.tmp` or `.part`: sync tools use those for incomplete files, so `list` never shows them
/// and an object so named could never be found again. Checks work on UTF-8 bytes, as the file
/// system does, never on Unicode-equivalent characters.
enum ObjectName {
    static let maximumLength = 1024
    static let maximumComponentLength = 255

    private static let slash = UInt8(ascii: "/")
    private static let dot = UInt8(ascii: ".")
    private static let incompleteSuffixes: [String] = [".tmp", ".part"]

    /// Throws `.invalidName` unless `name` is an allowed object name.
    static func validate(_ name: String) throws {
        if let reason = problem(with: name, isDirectory: false) {
            throw ReplicationError(.invalidName, "The object name \(display(name)) is not allowed: \(reason).")
        }
    }

    /// Whether `name` is an allowed object name (the names `list` may return).
    static func isValid(_ name: String) -> Bool {
        problem(with: name, isDirectory: false) == nil
    }

    /// The directory part of a listing prefix: everything before its last `/` (empty when it
    /// has none). The last, possibly partial, component is free; the directory part must be a
    /// valid directory name, so no prefix can lead a listing outside the root.
    static func directoryPart(ofPrefix prefix: String) throws -> String {
        if let reason = characterProblem(with: prefix) { throw invalidPrefix(prefix, reason) }
        if prefix.utf8.first == slash { throw invalidPrefix(prefix, "it is an absolute path") }
        let directory = directoryPart(of: prefix)
        if !directory.isEmpty, let reason = problem(with: directory, isDirectory: true) {
            throw invalidPrefix(prefix, reason)
        }
        return directory
    }

    /// The directory part of an object name (empty for a top-level name).
    static func directoryPart(of name: String) -> String {
        let bytes = Array(name.utf8)
        guard let lastSlash = bytes.lastIndex(of: slash) else { return "" }
        return String(decoding: bytes[..<lastSlash], as: UTF8.self)
    }

    private static func invalidPrefix(_ prefix: String, _ reason: String) -> ReplicationError {
        ReplicationError(.invalidName, "The listing prefix \(display(prefix)) is not allowed: \(reason).")
    }

    /// Why `name` is not allowed, or nil when it is.
    private static func problem(with name: String, isDirectory: Bool) -> String? {
        if name.isEmpty { return "it is empty" }
        if let reason = characterProblem(with: name) { return reason }
        if name.utf8.first == slash { return "it is an absolute path" }
        let components = name.utf8.split(separator: slash, omittingEmptySubsequences: false)
        for component in components {
            if component.isEmpty { return "it has an empty component" }
            if component.elementsEqual([dot]) || component.elementsEqual([dot, dot]) {
                return "it has a '.' or '..' component"
            }
            if component.first == dot { return "a component starts with '.' (hidden files are never listed)" }
            if component.count > maximumComponentLength {
                return "a component is longer than \(maximumComponentLength) bytes"
            }
        }
        if !isDirectory, let last = components.last {
            for suffix in incompleteSuffixes where last.reversed().starts(with: suffix.utf8.reversed()) {
                return "it ends in '\(suffix)', which sync tools use for incomplete files"
            }
        }
        return nil
    }

    /// Problems any string handed to the file system may have, whatever its role.
    private static func characterProblem(with name: String) -> String? {
        if name.utf8.count > maximumLength { return "it is longer than \(maximumLength) bytes" }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "it contains a control character"
        }
        if name.utf8.contains(UInt8(ascii: "\\")) { return "it contains a backslash" }
        return nil
    }

    /// The name as a quoted, escaped literal, shortened when long: names are not secret, but
    /// a rejected one may hold anything.
    private static func display(_ name: String) -> String {
        let shown = name.unicodeScalars.count > 80 ? String(name.unicodeScalars.prefix(80)) + "…" : name
        return shown.debugDescription
    }
}
