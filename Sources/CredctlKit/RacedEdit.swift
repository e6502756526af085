import CredentialVault
import Glibc

/// An edit of one record that may race another writer of it (another process, a sync): the
/// vault refuses a save of a version replaced meanwhile (`conflict`), and the edit is made again
/// on the record as that writer left it. Edit commands set fields to given values, so making
/// the edit again never depends on what the other writer changed.
enum RacedEdit {
    /// How many times the edit is tried in all.
    static let attempts = 10

    /// Saves `edit` of `current`, made again on the record `reload` reads after each lost race,
    /// up to `attempts` times. Throws the last conflict when every attempt lost, and the first
    /// conflict when the record is gone.
    static func save<Record>(_ current: Record, reload: () throws -> Record?, edit: (Record) throws -> Record,
                             save: (Record) throws -> Record) throws -> Record {
        var record = current, attempt = 1
        while true {
            do {
                return try save(try edit(record))
            } catch let error as VaultError where error.code == .conflict && attempt < attempts {
                // Back off a little, more each time, with jitter so racing editors spread out.
                usleep(UInt32(attempt * 5_000) + UInt32.random(in: 0..<20_000))
                guard let fresh = try reload() else { throw error }
                record = fresh
                attempt += 1
            }
        }
    }
}
