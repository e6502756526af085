import Glibc

/// `join.json` in the vault directory: the remote this device asked to join, and the genesis it
/// saw there, while a member has not approved it or the user has not confirmed the approval. A
/// binding in all but name (it is not `remote.json`, so nothing syncs and new secrets stay
/// device-only until the join is done).
enum PendingJoin {
    static let fileName = "join.json"

    static func path(in directory: VaultDirectory) -> String { directory.path + "/" + fileName }

    static func load(from directory: VaultDirectory) throws -> RemoteBinding? {
        try RemoteBinding.load(from: directory, fileName: fileName)
    }

    static func save(_ binding: RemoteBinding, in directory: VaultDirectory) throws {
        try binding.save(in: directory, fileName: fileName)
    }

    static func remove(from directory: VaultDirectory) {
        _ = unlink(path(in: directory))
    }
}
