import Sodium

/// A device's name in the roster: sealed under the transport key of the epoch its entry starts or
/// joins, bound to the device id, so the remote never holds a name in clear.
public enum DeviceName {
    static let purpose = SealPurpose(tag: 10, label: "credvault/v2/device-name")
    public static let maximumBytes = 128

    public static func seal(_ name: String, id: String, transportKey: SecretBytes) throws -> [UInt8] {
        let bytes = Array(name.utf8)
        guard (1...maximumBytes).contains(bytes.count) else { throw MembershipError(.joinRequest, "A device name has 1 to \(maximumBytes) bytes.") }
        return try SealedBox.seal(bytes, key: transportKey, purpose: purpose, context: Array(id.utf8))
    }

    /// The name, or nil when it does not open under `transportKey`.
    public static func open(_ sealed: [UInt8], id: String, transportKey: SecretBytes) -> String? {
        guard let name = try? SealedBox.open(sealed, key: transportKey, purpose: purpose, context: Array(id.utf8)) else { return nil }
        return name.withUnsafeBytes { String(validating: Array($0), as: UTF8.self) }
    }
}
