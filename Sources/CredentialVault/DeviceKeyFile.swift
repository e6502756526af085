import Membership
import Sodium

/// `device-keys` in the vault directory (0600): this device's signing and box keys
/// (`Membership/DeviceKeys`), written and read in guarded memory.
enum DeviceKeyFile {
    static let fileName = "device-keys"

    static func path(in directory: VaultDirectory) -> String { directory.path + "/" + fileName }

    /// This device's keys, or nil when it has none yet (a vault made before remote format 2).
    static func load(from directory: VaultDirectory) throws -> DeviceKeys? {
        let path = path(in: directory)
        guard VaultDirectory.exists(path) else { return nil }
        do {
            return try DeviceKeys(decoding: try SecretBytes.read(contentsOfFile: path, limit: 4 << 10))
        } catch let error as MembershipError {
            throw VaultError(.corrupt, error.message, hint: "Restore \(path) from a backup, or join the vault again as a new device.")
        }
    }

    /// New keys for device `id`, their locked halves sealed under `deviceKey`, written to the file.
    static func create(in directory: VaultDirectory, id: String, deviceKey: SecretBytes) throws -> DeviceKeys {
        let keys = try DeviceKeys.generate(id: id, deviceKey: deviceKey)
        try AtomicFile.write(try keys.encoded(), to: path(in: directory))
        return keys
    }
}
