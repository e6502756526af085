/// What a sealed blob is for: a one-byte tag written in the header and a domain label bound as
/// associated data, so a blob made for one purpose never opens as another.
public struct SealPurpose: Sendable, Equatable {
    /// Written in the blob header and checked before anything is decrypted.
    public let tag: UInt8
    /// A domain-separation label such as `credvault/v1/secret-body`.
    public let label: String

    public init(tag: UInt8, label: String) {
        self.tag = tag
        self.label = label
    }
}
