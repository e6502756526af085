import Replication

/// Reads the roster from a remote and verifies it from the pinned genesis (docs/devices.md,
/// "The roster", "Racing entries" and "Freshness"). What a device has verified before is kept
/// locally and verified again from its genesis on every read (signatures are cheap), so the
/// remote is asked only for entries past it; a remote that lists fewer entries than the device
/// has seen is refused.
///
/// A position may hold several candidates: `roster/<n>.entry`, a synchronizer's conflict copy of
/// it, or `roster/<n>.<hash>.entry` written beside junk that took the plain name. Of those that
/// verify, the rule of `RosterState.advanced(byOneOf:)` picks the one that holds; ones that do not
/// verify are passed over, so junk at the next position neither stops the vault nor blocks it.
/// Only the newest position may still change; a verifying candidate for an older one is a fork.
public enum RosterReader {
    /// The roster after every entry the remote holds past `known` (objects already verified, in
    /// order), and every object from the genesis on. Throws `rosterDoesNotVerify` (the position and
    /// the rule, or a fork), `rosterRolledBack`, or the remote's own errors.
    public static func read(from remote: any Remote, pinned genesis: [UInt8], known: [[UInt8]]) throws -> (state: RosterState, objects: [[UInt8]]) {
        let names = Dictionary(grouping: try remote.list(prefix: "roster/"), by: position(of:)).compactMapValues { $0 }
        var candidates: [UInt64: [String]] = [:]
        for (position, group) in names { if let position { candidates[position] = group.sorted() } }
        var objects = known
        if objects.isEmpty {
            guard let first = try remote.get(RosterEntry.objectName(0)) else {
                throw MembershipError(.rosterDoesNotVerify, "The remote holds no roster (roster/0.entry is missing).")
            }
            objects = [first]
        }
        var states = [try RosterState(genesis: objects[0], pinned: genesis)]
        for object in objects.dropFirst() {
            var next = states[states.count - 1]
            try next.append(object)
            states.append(next)
        }
        if known.count > 0, (candidates.keys.max() ?? 0) + 1 < UInt64(known.count) {
            throw MembershipError(.rosterRolledBack, "The remote shows less than this device has seen: its roster has \((candidates.keys.max() ?? 0) + 1) of the \(known.count) entries this device verified.")
        }
        // Entries accepted with a successor are final: another verifying candidate there is a fork.
        for position in 1..<max(1, objects.count - 1) {
            guard let names = candidates[UInt64(position)], names.count > 1 else { continue }
            for name in names {
                guard let other = try remote.get(name), other != objects[position] else { continue }
                var before = states[position - 1]
                if (try? before.append(other)) != nil {
                    throw MembershipError(.rosterDoesNotVerify, "The roster has two histories from position \(position): \(name) verifies beside the entry this device accepted.")
                }
            }
        }
        // The newest position may still go to a racing candidate with the smaller hash.
        if objects.count >= 2, let racing = candidates[UInt64(objects.count - 1)], racing.count > 1 {
            let position = objects.count - 1
            let found = try racing.compactMap { try remote.get($0) } + [objects[position]]
            if let holder = try? states[position - 1].advanced(byOneOf: found), holder.object != objects[position] {
                objects[position] = holder.object
                states[position] = holder.state
            }
        }
        var state = states[states.count - 1]
        while let names = candidates[state.length] {
            let found = try names.compactMap { try remote.get($0) }.filter { $0.count <= RosterEntry.maximumBytes }
            guard let holder = try? state.advanced(byOneOf: found) else { break }
            state = holder.state
            objects.append(holder.object)
        }
        return (state, objects)
    }

    /// The position an object name holds: `roster/<n>.entry`, or a candidate beside it
    /// (`roster/<n>.<anything>.entry`); n in decimal without leading zeros.
    package static func position(of name: String) -> UInt64? {
        guard name.hasPrefix("roster/"), name.hasSuffix(".entry") else { return nil }
        let file = name.dropFirst("roster/".count).dropLast(".entry".count)
        let digits = file.prefix { $0 != "." }
        guard !digits.isEmpty, digits.count <= 19, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }), digits == "0" || !digits.hasPrefix("0") else { return nil }
        return UInt64(digits)
    }

    /// The name an entry takes beside a plain name that junk holds.
    public static func alternateName(_ position: UInt64, object: [UInt8]) -> String {
        let hash = RosterEntry.hash(ofObject: object).prefix(8).map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
        return "roster/\(position).\(hash).entry"
    }
}
