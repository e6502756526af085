/// Where replicas meet: a store of immutable, named objects that sees only ciphertext.
///
/// Names are relative paths of `/`-separated components (`vault.json`,
/// `zones/config/<device>/00000000000000000042.batch`). Objects are never overwritten: every
/// writer only creates names of its own. Compaction deletes objects every device is done with.
public protocol Remote: Sendable {
    /// A description for status displays (a path or an endpoint), never a credential.
    var location: String { get }

    /// Names of the complete objects whose names start with `prefix`, sorted. Partial uploads,
    /// temporary and hidden files of sync tools are not listed.
    func list(prefix: String) throws -> [String]

    /// The object's bytes, or nil when it does not exist (yet).
    func get(_ name: String) throws -> [UInt8]?

    /// Something that changes whenever the object's bytes do, learnt without reading them (a
    /// file's device, inode, size and modification time; an S3 object's ETag from the last
    /// listing), or nil when the backend cannot tell or the object is gone.
    func fingerprint(_ name: String) throws -> String?

    /// Creates `name` holding `bytes`, atomically and only if it does not exist. Creating an
    /// object that already exists with identical bytes succeeds (a retried publish); with other
    /// bytes it throws `ReplicationError.nameConflict` and changes nothing.
    func createOnly(_ name: String, bytes: [UInt8]) throws -> CreateOutcome

    /// Removes `name`; removing an object that is not there succeeds (another device may have
    /// collected it first).
    func delete(_ name: String) throws

    /// How many objects the remote holds, and their bytes (for status).
    func usage() throws -> RemoteUsage
}

extension Remote {
    /// No cheap way to tell: every caller reads the object.
    public func fingerprint(_ name: String) throws -> String? { nil }
}
