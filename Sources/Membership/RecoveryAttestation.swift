import Replication
import Sodium

/// `roster/<position>.recovery`: the recovery key's own signature on the roster entry that made
/// it the vault's recovery key (the genesis, a `recovery` entry, or a revocation that replaced
/// it). A recovery authority's public keys are public — anyone can copy them into a genesis of
/// their own — so a device joining with the recovery key trusts a roster only once the key it
/// holds has signed that roster's entry (docs/devices.md, "The recovery key").
///
///     signature = Ed25519(authority, "credvault/v2/recovery-attestation" ‖ 0 ‖ string vault id ‖ genesis ‖ u64 position ‖ entry hash)
public enum RecoveryAttestation {
    public static func objectName(_ position: UInt64) -> String { "roster/\(position).recovery" }

    private static func message(vaultID: String, genesis: [UInt8], position: UInt64, entryHash: [UInt8]) -> [UInt8] {
        var writer = ByteWriter()
        writer.fixed(Array("credvault/v2/recovery-attestation".utf8) + [0])
        writer.string(vaultID)
        writer.fixed(genesis)
        writer.u64(position)
        writer.fixed(entryHash)
        return writer.bytes
    }

    /// The attestation object, signed by the authority the recovery key derives.
    public static func object(signing: SigningKeyPair, vaultID: String, genesis: [UInt8], position: UInt64, entryHash: [UInt8]) -> [UInt8] {
        signing.sign(message(vaultID: vaultID, genesis: genesis, position: position, entryHash: entryHash))
    }

    public static func verifies(_ object: [UInt8], publicKey: [UInt8], vaultID: String, genesis: [UInt8], position: UInt64, entryHash: [UInt8]) -> Bool {
        SigningKeyPair.verify(object, of: message(vaultID: vaultID, genesis: genesis, position: position, entryHash: entryHash), publicKey: publicKey)
    }

    /// The position of the entry that set the roster's current recovery authority, and that entry.
    public static func currentAuthorityEntry(in objects: [[UInt8]]) throws -> (position: UInt64, object: [UInt8], entry: RosterEntry) {
        var found: (UInt64, [UInt8], RosterEntry)?
        for (index, object) in objects.enumerated() {
            let entry = try RosterObjects.entry(of: object)
            switch entry.change {
            case .genesis, .recovery: found = (UInt64(index), object, entry)
            case .revoke(_, _, _, let recovery) where recovery != nil: found = (UInt64(index), object, entry)
            default: break
            }
        }
        guard let found else { throw MembershipError(.malformedRoster, "The roster names no recovery key.") }
        return found
    }
}
