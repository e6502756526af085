import Sodium

/// One item found in the desktop keyring: its label and attributes, and its secret when it was
/// asked for and the item's collection is unlocked.
public struct KeyringItem: Sendable {
    public let label: String
    /// Every attribute, including `xdg:schema` when the item was stored under a schema.
    public let attributes: [String: String]
    /// Nil when secrets were not loaded or could not be read.
    public let secret: SecretBytes?
    /// The secret was wanted, and the item's collection is locked.
    public let locked: Bool

    public init(label: String, attributes: [String: String], secret: SecretBytes?, locked: Bool = false) {
        self.label = label
        self.attributes = attributes
        self.secret = secret
        self.locked = locked
    }

    /// The schema the item was stored under, if any.
    public var schema: String? { attributes["xdg:schema"] }
}
