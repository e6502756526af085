import Replication
import Sodium

/// This device's own keys (docs/devices.md, "Keys" and "Local files"). The signing and sync box
/// keys open without unlocking — config syncs while the vault is locked, as with today's transport
/// key; the roster and vault box keys are sealed under the device key, so membership changes and
/// secrets need the vault unlocked, and a stolen disk without the passphrase or key file makes
/// neither.
///
/// File form (`device-keys`, 0600), read and written in guarded memory:
///
/// ```
/// "CK" | u8 version | u8 n, n bytes id | seed[32] signing | seed[32] sync box | pk[32] roster
///      | pk[32] vault box | sealed[72] roster seed | sealed[72] vault box seed
/// ```
public struct DeviceKeys: Sendable {
    public static let version: UInt8 = 1
    static let magic: [UInt8] = [0x43, 0x4B]  // "CK"
    static let sealPurpose = SealPurpose(tag: 9, label: "credvault/v2/device-key")

    public let id: String
    public let signing: SigningKeyPair
    public let syncBox: BoxKeyPair
    public let rosterPublicKey: [UInt8]
    public let vaultBoxPublicKey: [UInt8]
    let sealedRosterSeed: [UInt8]
    let sealedVaultBoxSeed: [UInt8]

    /// New keys for device `id`, their locked halves sealed under `deviceKey`.
    public static func generate(id: String, deviceKey: SecretBytes) throws -> DeviceKeys {
        guard VersionContext.isDeviceName(id) else { throw MembershipError(.damagedDeviceKeys, "A device id is 1 to 128 printable ASCII bytes.") }
        let roster = try SigningKeyPair.generate()
        let vaultBox = try BoxKeyPair.generate()
        return DeviceKeys(id: id, signing: try SigningKeyPair.generate(), syncBox: try BoxKeyPair.generate(), rosterPublicKey: roster.publicKey,
                          vaultBoxPublicKey: vaultBox.publicKey,
                          sealedRosterSeed: try SealedBox.seal(roster.seed, key: deviceKey, purpose: sealPurpose, context: context(id, "roster")),
                          sealedVaultBoxSeed: try SealedBox.seal(vaultBox.seed, key: deviceKey, purpose: sealPurpose, context: context(id, "vault-box")))
    }

    init(id: String, signing: SigningKeyPair, syncBox: BoxKeyPair, rosterPublicKey: [UInt8], vaultBoxPublicKey: [UInt8],
         sealedRosterSeed: [UInt8], sealedVaultBoxSeed: [UInt8]) {
        self.id = id
        self.signing = signing
        self.syncBox = syncBox
        self.rosterPublicKey = rosterPublicKey
        self.vaultBoxPublicKey = vaultBoxPublicKey
        self.sealedRosterSeed = sealedRosterSeed
        self.sealedVaultBoxSeed = sealedVaultBoxSeed
    }

    /// A sealed seed names its device and its use: one cannot stand in for another.
    private static func context(_ id: String, _ use: String) -> [UInt8] { Array(id.utf8) + [0] + Array(use.utf8) }

    /// The roster key, unsealed with the device key (the vault unlocked).
    public func rosterKey(deviceKey: SecretBytes) throws -> SigningKeyPair {
        let pair = try SigningKeyPair(seed: try SealedBox.open(sealedRosterSeed, key: deviceKey, purpose: Self.sealPurpose, context: Self.context(id, "roster")))
        guard pair.publicKey == rosterPublicKey else { throw MembershipError(.damagedDeviceKeys, "This device's roster key does not match its public half.") }
        return pair
    }

    /// The vault box key, unsealed with the device key (the vault unlocked).
    public func vaultBox(deviceKey: SecretBytes) throws -> BoxKeyPair {
        let pair = try BoxKeyPair(seed: try SealedBox.open(sealedVaultBoxSeed, key: deviceKey, purpose: Self.sealPurpose, context: Self.context(id, "vault-box")))
        guard pair.publicKey == vaultBoxPublicKey else { throw MembershipError(.damagedDeviceKeys, "This device's vault box key does not match its public half.") }
        return pair
    }

    /// What the roster says of this device.
    public func publicKeys(sealedName: [UInt8]) -> DevicePublicKeys {
        DevicePublicKeys(id: id, signing: signing.publicKey, roster: rosterPublicKey, syncBox: syncBox.publicKey, vaultBox: vaultBoxPublicKey, sealedName: sealedName)
    }

    /// A sealed 32-byte seed: every one has exactly this size.
    static let sealedSeedCount = SigningKeyPair.seedCount + SealedBox.overhead

    /// The file's bytes, in guarded memory (the seeds never leave it).
    public func encoded() throws -> SecretBytes {
        var head = ByteWriter(), tail = ByteWriter()
        head.fixed(Self.magic)
        head.u8(Self.version)
        head.u8(UInt8(id.utf8.count))  // 1...128: checked when the keys were made or read
        head.fixed(Array(id.utf8))
        for bytes in [rosterPublicKey, vaultBoxPublicKey, sealedRosterSeed, sealedVaultBoxSeed] { tail.fixed(bytes) }
        return try SecretBytes(copying: head.bytes).appending(signing.seed).appending(syncBox.seed).appending(try SecretBytes(copying: tail.bytes))
    }

    /// Reads the file's bytes; anything else is `damagedDeviceKeys`.
    public init(decoding file: SecretBytes) throws {
        let damaged = MembershipError(.damagedDeviceKeys, "This device's key file is damaged.")
        var offset = 0
        func take(_ count: Int) throws -> Range<Int> {
            guard count >= 0, count <= file.count - offset else { throw damaged }
            defer { offset += count }
            return offset..<(offset + count)
        }
        func bytes(_ range: Range<Int>) -> [UInt8] { file.withUnsafeBytes { Array($0[range]) } }
        guard bytes(try take(2)) == Self.magic, bytes(try take(1)) == [Self.version] else { throw damaged }
        let idCount = Int(bytes(try take(1))[0])
        guard let id = String(validating: bytes(try take(idCount)), as: UTF8.self), VersionContext.isDeviceName(id) else { throw damaged }
        let signing = try SigningKeyPair(seed: try file.slice(try take(SigningKeyPair.seedCount)))
        let syncBox = try BoxKeyPair(seed: try file.slice(try take(BoxKeyPair.seedCount)))
        let roster = bytes(try take(SigningKeyPair.publicKeyCount))
        let vaultBox = bytes(try take(BoxKeyPair.publicKeyCount))
        let sealedRoster = bytes(try take(Self.sealedSeedCount)), sealedVaultBox = bytes(try take(Self.sealedSeedCount))
        guard offset == file.count else { throw damaged }
        self.init(id: id, signing: signing, syncBox: syncBox, rosterPublicKey: roster, vaultBoxPublicKey: vaultBox,
                  sealedRosterSeed: sealedRoster, sealedVaultBoxSeed: sealedVaultBox)
    }
}
