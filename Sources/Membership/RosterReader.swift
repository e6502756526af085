import Replication

/// Reads the roster from a remote and verifies it from the pinned genesis (docs/devices.md,
/// "The roster" and "Freshness"). What a device has verified before is kept locally and verified
/// again from its genesis on every read (signatures are cheap), so the remote is asked only for
/// entries past it; a remote that lists fewer entries than the device has seen is refused.
public enum RosterReader {
    /// The roster after every entry the remote holds past `known` (objects already verified, in
    /// order), and every object from the genesis on. Throws `rosterDoesNotVerify` (the position and
    /// the rule), `rosterRolledBack`, or the remote's own errors.
    public static func read(from remote: any Remote, pinned genesis: [UInt8], known: [[UInt8]]) throws -> (state: RosterState, objects: [[UInt8]]) {
        let listed = try remote.list(prefix: "roster/").compactMap(position(of:))
        var objects = known
        if objects.isEmpty {
            guard let first = try remote.get(RosterEntry.objectName(0)) else {
                throw MembershipError(.rosterDoesNotVerify, "The remote holds no roster (roster/0.entry is missing).")
            }
            objects = [first]
        }
        var state = try RosterState(genesis: objects[0], pinned: genesis)
        for object in objects.dropFirst() { try state.append(object) }
        if known.count > 0, (listed.max() ?? 0) + 1 < UInt64(known.count) {
            throw MembershipError(.rosterRolledBack, "The remote shows less than this device has seen: its roster has \((listed.max() ?? 0) + 1) of the \(known.count) entries this device verified.")
        }
        while let object = try remote.get(RosterEntry.objectName(state.length)) {
            guard object.count <= RosterEntry.maximumBytes else { throw RosterState.failure(state.length, "it is larger than \(RosterEntry.maximumBytes) bytes") }
            try state.append(object)
            objects.append(object)
        }
        return (state, objects)
    }

    /// The position an object name holds (`roster/<n>.entry`, n in decimal without leading zeros).
    static func position(of name: String) -> UInt64? {
        guard name.hasPrefix("roster/"), name.hasSuffix(".entry") else { return nil }
        let digits = name.dropFirst("roster/".count).dropLast(".entry".count)
        guard !digits.isEmpty, digits.count <= 19, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }), digits == "0" || !digits.hasPrefix("0") else { return nil }
        return UInt64(digits)
    }
}
