import Sodium

/// How a zone's objects are sealed for the remote and opened from it: every codec (batches,
/// snapshot parts, manifests, published cursors) hands its plaintext, purpose and context here.
///
/// `TransportKeySeal` is remote format 1 (one shared transport key, no signatures): what unit
/// tests of the zone engine and the reading side of `remote upgrade` use. Format 2 signs every
/// object with its writer's own key and checks it against the roster (`Membership/SignedSeal`).
public protocol ObjectSeal: Sendable {
    /// The object `name`'s bytes, written by this device.
    func seal(_ plain: [UInt8], name: String, purpose: SealPurpose, context: [UInt8]) throws -> [UInt8]

    /// The plaintext of the object `name`, which `writer` (from the name) must have written.
    /// Throws `ReplicationError`: `authenticationFailed` for bytes that may still be arriving
    /// (retried, then quarantined), `unknownSigner` for a writer the reader cannot check yet (left
    /// unread, never stored), and `malformed`, `unsupportedFormat`, `forged` or `revokedWriter`
    /// for bytes that will never be applied (quarantined with the reason).
    func open(_ bytes: [UInt8], name: String, writer: String, purpose: SealPurpose, context: [UInt8]) throws -> [UInt8]

    /// Every revoked writer of `zone` and its cutoff there: the highest sequence of its batches
    /// that stands (0 when none does). Format 1 revokes no one.
    func cutoffs(zone: String) -> [String: UInt64]

    /// The same seal, opening a revoked writer's objects past its cutoff too (its signature
    /// still checked), only to learn which records they touched: never applied.
    func inspectingRevoked() -> any ObjectSeal
}

extension ObjectSeal {
    public func cutoffs(zone: String) -> [String: UInt64] { [:] }
    public func inspectingRevoked() -> any ObjectSeal { self }
}

/// Remote format 1: sealed with one transport key every device of the vault holds.
public struct TransportKeySeal: ObjectSeal {
    let key: SecretBytes

    public init(key: SecretBytes) { self.key = key }

    public func seal(_ plain: [UInt8], name: String, purpose: SealPurpose, context: [UInt8]) throws -> [UInt8] {
        try SealedBox.seal(plain, key: key, purpose: purpose, context: context)
    }

    public func open(_ bytes: [UInt8], name: String, writer: String, purpose: SealPurpose, context: [UInt8]) throws -> [UInt8] {
        do {
            return try SealedBox.open(bytes, key: key, purpose: purpose, context: context).withUnsafeBytes { Array($0) }
        } catch let error as SodiumError where error.code == .unsupportedVersion {
            throw ReplicationError(.unsupportedFormat, "\(name) uses a newer sealing format.")
        } catch {
            throw ReplicationError(.authenticationFailed, "\(name) does not open: sealed with another key, altered, or incomplete.")
        }
    }
}
