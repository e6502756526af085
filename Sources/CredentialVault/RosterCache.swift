import Membership
import Replication

/// `roster` in the vault directory: the roster objects this device has verified, in order, so a
/// sync asks the remote only for entries past them and notices a remote that shows fewer
/// (docs/devices.md, "Freshness"). Verified again from the pinned genesis whenever it is read: a
/// damaged or altered file is refused like a remote that does not verify.
enum RosterCache {
    static let fileName = "roster"

    static func load(from directory: VaultDirectory) throws -> [[UInt8]] {
        let path = directory.path + "/" + fileName
        guard VaultDirectory.exists(path) else { return [] }
        let bytes = try SecretBytes.read(contentsOfFile: path, limit: 64 << 20).withUnsafeBytes { Array($0) }
        var reader = ByteReader(bytes)
        var objects: [[UInt8]] = []
        do {
            while !reader.isAtEnd { objects.append(try reader.data(maximum: RosterEntry.maximumBytes + 4_096)) }
        } catch {
            throw VaultError(.corrupt, "This device's copy of the roster (\(path)) is damaged.", hint: "Remove it: the next sync reads the roster again from the remote.")
        }
        return objects
    }

    static func save(_ objects: [[UInt8]], in directory: VaultDirectory) throws {
        var writer = ByteWriter()
        for object in objects { writer.data(object) }
        try AtomicFile.write(writer.bytes, to: directory.path + "/" + fileName)
    }
}
