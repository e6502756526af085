import ConfigTrack
import KeyFormats
import Sodium

/// An OpenSSH public key line, `TYPE BASE64 [COMMENT]`, as `ssh-keygen` writes to `FILE.pub`.
package struct PublicKeyLine: Equatable {
    package let keyType: KeyType
    /// The decoded key blob; it begins with the key type as an SSH `string`.
    package let blob: [UInt8]
    /// The comment, if there is one that can be shown on a single line.
    package let comment: String?

    init(keyType: KeyType, blob: [UInt8], comment: String?) {
        self.keyType = keyType
        self.blob = blob
        self.comment = comment.flatMap(Self.displayableComment)
    }

    /// Parses the text of a `.pub` file: one line, surrounding whitespace ignored.
    package init(parsing text: String) throws {
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty else { throw KeyFileDefect("the public key file is empty") }
        guard !trimmed.contains(where: \.isNewline) else {
            throw KeyFileDefect("the public key file holds more than one line")
        }
        let fields = trimmed.split(maxSplits: 2, omittingEmptySubsequences: true) { $0 == " " || $0 == "\t" }
        guard fields.count >= 2 else { throw KeyFileDefect("the public key line has no key data") }
        guard let keyType = KeyType(rawValue: String(fields[0])) else {
            throw KeyFileDefect("the public key line names an unsupported key type",
                                hint: "supported types: \(KeyType.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard let blob = Base64.decode(String(fields[1])), !blob.isEmpty else {
            throw KeyFileDefect("the public key line's key data is not valid Base64")
        }
        guard try SSHWireReader.typeName(of: blob) == keyType.rawValue else {
            throw KeyFileDefect("the public key line's type does not match its key data")
        }
        try keyType.checkPublicBlob(blob)
        let comment = fields.count == 3 ? String(fields[2]).trimmingWhitespace() : nil
        self.init(keyType: keyType, blob: blob, comment: comment)
    }

    /// `TYPE BASE64` plus ` COMMENT` when there is a comment.
    package var text: String {
        let base = "\(keyType.rawValue) \(Base64.encode(blob))"
        return comment.map { "\(base) \($0)" } ?? base
    }

    /// A comment fit for a one-line public key: non-empty, with none of the characters labels
    /// refuse (control, format such as U+202E, separators, private use, unassigned). Any other
    /// comment is dropped: the key stays usable and nothing can reorder the displayed line.
    static func displayableComment(_ comment: String) -> String? {
        let displayable = comment.unicodeScalars.allSatisfy { scalar in
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned: false
            default: scalar != "\u{FFFD}"
            }
        }
        return !comment.isEmpty && displayable ? comment : nil
    }
}

extension String {
    /// The string without leading and trailing whitespace and line breaks.
    fileprivate func trimmingWhitespace() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace }) else {
            return ""
        }
        return String(self[first...last])
    }
}
