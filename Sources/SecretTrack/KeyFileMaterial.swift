import Sodium

/// What a key file holds, whatever form it reached the disk in.
///
/// A key is 32 bytes. The file may hold them raw, or as Base64 text (standard or URL-safe
/// alphabet, padded or not) with any white space and line endings around or inside it: a key
/// pasted through a clipboard or a password manager, which drop or add a newline or a CR, is
/// still the same key. The 32 bytes are what the key slot's wrapping key is hashed from.
///
/// Vaults made before this rule hashed the file's exact bytes, so unlocking also tries those
/// exact bytes and, for a key credctl wrote (one line of Base64 and a newline), that canonical
/// text — such a vault opens from its key file in any of the forms above too. A new slot is
/// only ever made from the 32 bytes.
public enum KeyFileMaterial {
    public static let keyCount = 32

    /// The sentence every refusal of a key file's contents ends with.
    public static let expectedForm = "a key file holds a 32-byte key: the raw bytes, or their Base64 text (white space and line endings around it are ignored)"

    /// The 32-byte key in `contents`, or nil when they hold no key in an accepted form.
    public static func key(in contents: SecretBytes) -> SecretBytes? {
        if contents.count == keyCount { return try? contents.slice(0..<keyCount) }
        // Base64 of 32 bytes is 43 or 44 characters; generous room for white space, no more.
        guard contents.count > keyCount, contents.count <= 4 * 64 else { return nil }
        for variant in Base64.Variant.allCases {
            if let decoded = try? contents.withUnsafeBytes({ try Base64.decodeSecret($0, variant: variant) }), decoded.count == keyCount {
                return decoded
            }
        }
        return nil
    }

    /// The byte strings whose hash may be the wrapping key of an existing key-file slot, most
    /// likely first: the key itself, the file's exact bytes, and the text credctl writes for the
    /// key. Duplicates are left out.
    static func unlockCandidates(_ contents: SecretBytes) throws -> [SecretBytes] {
        guard let key = key(in: contents) else { return [contents] }
        var candidates = [key]
        let written = try Base64.encodeSecret(key).appending(try SecretBytes(copying: [0x0A]))
        for candidate in [contents, written] where !candidates.contains(candidate) {
            candidates.append(candidate)
        }
        return candidates
    }
}
