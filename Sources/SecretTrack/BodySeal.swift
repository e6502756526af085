import Replication
import Sodium

/// How a secret body is sealed (docs/devices.md, "Epochs on data"). A device-only body: under
/// the device key, as it always was. A syncable body: padded to its size bucket and sealed under
/// the vault key of the newest epoch this device holds, the epoch written in front —
///
///     "CE" | u32 epoch | SealedBox(pad(body), vault key of epoch, purpose 11, context ‖ epoch)
///
/// — so a reader knows which epoch's key opens it, and a one-character and a 200-character
/// password seal to the same size. A syncable body sealed before epochs (a plain `SealedBox`
/// blob, unpadded) is epoch 1's.
package enum BodySeal {
    static let legacyPurpose = SealPurpose(tag: 1, label: "credvault/v1/secret-body")
    static let epochPurpose = SealPurpose(tag: 11, label: "credvault/v2/secret-body")
    static let magic: [UInt8] = [0x43, 0x45]  // "CE"
    static let headerCount = 6

    static func seal(_ body: SecretBytes, item: SecretItem, keys: VaultKeys) throws -> [UInt8] {
        guard item.availability == .syncable else {
            return try SealedBox.seal(body, key: keys.deviceKey, purpose: legacyPurpose, context: SecretStore.context(item))
        }
        let epoch = keys.newestEpoch
        guard let key = keys.vaultKey(epoch: epoch) else { throw SecretError(.locked, "This device does not hold the vault key of epoch \(epoch).") }
        var header = ByteWriter()
        header.fixed(magic)
        header.u32(epoch)
        return header.bytes + (try SealedBox.seal(try Padding.pad(body), key: key, purpose: epochPurpose, context: context(item, epoch: epoch)))
    }

    /// Opens a body sealed by `seal` (or before epochs); throws `SodiumError` when it does not
    /// open, and `SecretError.authenticationFailed` for an epoch this device does not hold.
    static func open(_ sealed: [UInt8], item: SecretItem, keys: VaultKeys) throws -> SecretBytes {
        guard item.availability == .syncable else {
            return try SealedBox.open(sealed, key: keys.deviceKey, purpose: legacyPurpose, context: SecretStore.context(item))
        }
        guard let epoch = epoch(of: sealed) else {
            return try SealedBox.open(sealed, key: keys.vaultKey, purpose: legacyPurpose, context: SecretStore.context(item))
        }
        guard let key = keys.vaultKey(epoch: epoch) else {
            throw SecretError(.authenticationFailed, "The secret \(item.reference) is sealed under epoch \(epoch), whose vault key this device does not hold.")
        }
        let padded = try SealedBox.open(Array(sealed[headerCount...]), key: key, purpose: epochPurpose, context: context(item, epoch: epoch))
        return try Padding.unpad(padded)
    }

    /// The epoch a syncable body is sealed in: nil for one sealed before epochs (epoch 1's key).
    package static func epoch(of sealed: [UInt8]) -> UInt32? {
        guard sealed.count > headerCount, sealed[0] == magic[0], sealed[1] == magic[1] else { return nil }
        return sealed[2...5].reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// Whether `payload` starts like a sealed body of either form (a received body is kept only then).
    package static func looksSealed(_ payload: [UInt8]) -> Bool {
        let epochForm = epoch(of: payload) != nil
        let blob = epochForm ? payload.dropFirst(headerCount) : payload[...]
        let start = blob.startIndex
        return blob.count >= SealedBox.overhead && blob[start] == 0x43 && blob[start + 1] == 0x56 && blob[start + 2] == SealedBox.formatVersion
            && blob[start + 3] == (epochForm ? epochPurpose : legacyPurpose).tag
    }

    private static func context(_ item: SecretItem, epoch: UInt32) -> [UInt8] {
        var writer = ByteWriter()
        writer.data(SecretStore.context(item))
        writer.u32(epoch)
        return writer.bytes
    }
}
