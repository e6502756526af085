import Replication

/// Two entries for one position (a folder synchronizer's conflict copy): which holds it
/// (docs/devices.md, "Racing entries").
extension RosterState {
    /// The state after the entry that holds the next position among `candidates` (the objects
    /// found for it), and that entry's object. Candidates that do not verify are passed over; a
    /// candidate whose signer another verifying candidate revokes is void, so a revoked device
    /// cannot race its own revocation however it grinds its hash; of the rest, the smaller hash
    /// holds. Throws when no candidate verifies (the first one's reason).
    public func advanced(byOneOf candidates: [[UInt8]]) throws -> (state: RosterState, object: [UInt8]) {
        var verifying: [(state: RosterState, object: [UInt8], signer: String)] = []
        var firstFailure: Error?
        for object in candidates {
            var next = self
            do {
                let signer = try next.append(object).signer
                verifying.append((next, object, signer))
            } catch {
                firstFailure = firstFailure ?? error
            }
        }
        guard !verifying.isEmpty else { throw firstFailure ?? Self.failure(length, "no entry was found for it") }
        let revokedHere = verifying.reduce(into: Set<String>()) { $0.formUnion(Set($1.state.revoked.keys).subtracting(revoked.keys)) }
        let standing = verifying.filter { !revokedHere.contains($0.signer) }
        // Each state's head is its entry's hash.
        let holder = (standing.isEmpty ? verifying : standing).min { $0.state.head.lexicographicallyPrecedes($1.state.head) }!
        return (holder.state, holder.object)
    }
}
