import Replication
import SQLite

extension ConfigZone {
    /// Merges one envelope: applied, ignored (what this device has wins), or quarantined.
    /// `known` false: the store certainly holds no live row for this name (tombstones are
    /// still looked up when there are any).
    ///
    /// A deletion beats every live version. Live records merge per field group: each group takes
    /// the newer of the two values (docs/concurrent-edits.md), so concurrent edits of different
    /// groups both survive; a value this device wrote that loses to one written without knowing
    /// it is kept as a conflict first.
    /// `removal`: the context that came with a deletion (`RemovalPairing`).
    func merge(_ db: Connection, _ envelope: Envelope, pending: Bool, tombstones: Bool, known: Bool = true, removal: VersionContext? = nil) throws -> MergeOutcome {
        guard let type = Self.kinds[envelope.kind] else { return .unsupported("unknown record kind '\(envelope.kind)'") }
        guard type.reads(format: envelope.formatVersion) else {
            return .unsupported("unsupported \(envelope.kind) format version \(envelope.formatVersion)")
        }
        guard let id = Self.id(of: envelope.recordName, kind: envelope.kind) else { return .quarantined("malformed record name") }
        let key = CanonicalUUID.text(id)
        let stored = known ? try StoredRecord.read(db, type, key: key) : nil
        if envelope.deleted {
            return try mergeDeletion(db, envelope, type: type, key: key, stored: stored, pending: pending, tombstones: tombstones, removal: removal)
        }
        let incoming: IncomingRecord
        switch decode(envelope, type, key: key) {
        case .record(let decoded): incoming = decoded
        case .refused(let outcome): return outcome
        }
        // A deletion is terminal for its incarnation and the ones before: only a later
        // incarnation (a record brought back) lives again.
        var revived: Envelope?
        if stored == nil, tombstones, let ended = try tombstone(db, recordName: envelope.recordName, kind: type.kind) {
            guard envelope.incarnation > ended.incarnation else { return .ignored }
            revived = ended
        }
        guard let stored else {
            if let refused = try storing({ try store(db, type, key: key, values: incoming.values, stamps: incoming.stamps, incarnation: envelope.incarnation) }) {
                return refused
            }
            // The tombstone goes only once the later incarnation is stored in its place.
            if let revived {
                // A deletion of the earlier incarnation waiting to be sent is moot — unless the
                // later one is undone (a revoked device's): it is kept for that.
                if pending, revived.version.device == deviceID { try ReplacedRemovals.keep(db, own: revived, winner: envelope.version) }
                try Self.dropTombstone(db, recordName: envelope.recordName)
                if pending { try Journal.discard(db, recordName: envelope.recordName) }
            }
            return .applied
        }
        if envelope.incarnation != stored.incarnation {
            return try mergeIncarnation(db, envelope, incoming, type: type, key: key, stored: stored, pending: pending)
        }
        var values = stored.values, stamps = stored.stamps
        var keepsOwn = false
        var kept: [(group: FieldGroup, mine: FieldStamp, theirs: FieldStamp, values: [SQLValue])] = []
        for (index, group) in type.fieldGroups.enumerated() {
            let mine = stored.stamps[index], theirs = incoming.stamps[index]
            let myValues = group.values(of: stored.values), theirValues = group.values(of: incoming.values)
            guard Self.wins(theirs, theirValues, over: mine, myValues) else {
                if mine.version.device == deviceID { keepsOwn = true }
                continue
            }
            // Written here, and beaten by a write that did not know it: kept. (A format-1 winner
            // cannot say what it knew: only a value not yet sent is kept, as format 1 did.)
            if mine.version.device == deviceID, !theirs.context.covers(mine.version), !incoming.legacy || pending {
                kept.append((group, mine, theirs, theirValues))
            }
            for column in group.columns { values[column] = incoming.values[column] }
            stamps[index] = theirs
        }
        guard stamps != stored.stamps || values != stored.values else { return .ignored }
        var version = stored.version
        if let refused = try storing({ version = try store(db, type, key: key, values: values, stamps: stamps, incarnation: stored.incarnation) }) { return refused }
        // Kept once the winner is in place (a refused write keeps nothing).
        for (group, mine, theirs, winner) in kept {
            try ConfigStore.keepConflict(db, type, recordName: envelope.recordName, group: group, record: stored.values,
                                         keptVersion: mine.version, winner: winner, winnerVersion: theirs.version)
        }
        // A pending edit of groups that held is sent again with what arrived; one whose every
        // group lost has nothing left to send.
        if pending {
            if keepsOwn {
                try Journal.record(db, JournalEntry(recordName: envelope.recordName, kind: type.kind, version: version, deleted: false, incarnation: stored.incarnation))
            } else {
                try Journal.discard(db, recordName: envelope.recordName)
            }
        }
        return .applied
    }

    /// Whether `theirs` (with `theirValues`) beats `mine`: the newer version, then the greater
    /// value bytes, then the greater context bytes — a total order, so every device agrees.
    static func wins(_ theirs: FieldStamp, _ theirValues: [SQLValue], over mine: FieldStamp, _ myValues: [SQLValue]) -> Bool {
        if theirs.version != mine.version { return mine.version < theirs.version }
        let (a, b) = (ConfigPayload.encode(myValues), ConfigPayload.encode(theirValues))
        if a != b { return a.lexicographicallyPrecedes(b) }
        var (x, y) = (ByteWriter(), ByteWriter())
        mine.context.encode(into: &x)
        theirs.context.encode(into: &y)
        return x.bytes.lexicographicallyPrecedes(y.bytes)
    }

    /// A deletion: it replaces a live record (whose values written here that the deleting
    /// device could not have seen are kept as conflicts) or an older tombstone.
    private func mergeDeletion(_ db: Connection, _ envelope: Envelope, type: any ConfigRecord.Type, key: String, stored: StoredRecord?,
                               pending: Bool, tombstones: Bool, removal: VersionContext?) throws -> MergeOutcome {
        // Of two deletions the later incarnation's, then the newer, stands (`Merge`); the same
        // one again, in any format, changes nothing.
        if stored == nil, tombstones, let local = try tombstone(db, recordName: envelope.recordName, kind: type.kind) {
            guard Merge.wins(envelope, over: local) else { return .ignored }
            // A removal of this device's own, not sent yet, replaced: kept for an undo of the winner.
            if pending, local.version.device == deviceID { try ReplacedRemovals.keep(db, own: local, winner: envelope.version) }
        }
        // A deletion ends its incarnation and the ones before, never a later one.
        if let stored, stored.incarnation > envelope.incarnation { return .ignored }
        if let stored {
            // The deletion's context says what its device had seen. Without one (a format-1
            // deletion), a value is known to be unseen by it when it is newer (a deleting device
            // that had seen it would have stamped its deletion later) or was never sent.
            let unsent = pending && removal == nil ? try Journal.pendingVersion(db, recordName: envelope.recordName) : nil
            for (index, group) in type.fieldGroups.enumerated() {
                let mine = stored.stamps[index]
                guard mine.version.device == deviceID else { continue }
                guard removal.map({ !$0.covers(mine.version) }) ?? (envelope.version < mine.version || unsent == mine.version) else { continue }
                try ConfigStore.keepConflict(db, type, recordName: envelope.recordName, group: group, record: stored.values,
                                             keptVersion: mine.version, winner: nil, winnerVersion: envelope.version)
            }
            try db.run("DELETE FROM \(type.table) WHERE id = ?", [key])
        }
        try Self.storeTombstone(db, recordName: envelope.recordName, kind: envelope.kind, version: envelope.version, incarnation: envelope.incarnation,
                                lastState: stored.map { ConfigPayload.encode($0.values) })
        if let removal { try RemovalLog.store(db, recordName: envelope.recordName, incarnation: envelope.incarnation, version: envelope.version, context: removal) }
        if pending { try Journal.discard(db, recordName: envelope.recordName) }
        return .applied
    }

    /// Another incarnation of a live record: the later one replaces the earlier whole (values of
    /// the earlier one written here that the later one's writer had not seen are kept first).
    private func mergeIncarnation(_ db: Connection, _ envelope: Envelope, _ incoming: IncomingRecord, type: any ConfigRecord.Type, key: String,
                                  stored: StoredRecord, pending: Bool) throws -> MergeOutcome {
        guard envelope.incarnation > stored.incarnation else { return .ignored }
        if let refused = try storing({ try store(db, type, key: key, values: incoming.values, stamps: incoming.stamps, incarnation: envelope.incarnation) }) {
            return refused
        }
        for (index, group) in type.fieldGroups.enumerated() {
            let mine = stored.stamps[index], theirs = incoming.stamps[index]
            guard mine.version.device == deviceID, !theirs.context.covers(mine.version) else { continue }
            try ConfigStore.keepConflict(db, type, recordName: envelope.recordName, group: group, record: stored.values,
                                         keptVersion: mine.version, winner: group.values(of: incoming.values), winnerVersion: theirs.version)
        }
        if pending { try Journal.discard(db, recordName: envelope.recordName) }
        return .applied
    }

    /// Writes a row with its groups' stamps; returns its version (its newest group's).
    @discardableResult
    private func store(_ db: Connection, _ type: any ConfigRecord.Type, key: String, values: [SQLValue], stamps: [FieldStamp], incarnation: Int64) throws -> RecordVersion {
        let version = stamps.map(\.version).max()!
        try db.run(type.insertSQL, type.insertValues(key: key, values: values, version: version, fields: FieldStamp.stored(stamps, recordVersion: version), incarnation: incarnation))
        return version
    }

    /// Runs a row write; a column the table requires that is NULL in the payload (records read
    /// such values as 0 or empty, which some kinds accept) makes it as invalid as failing
    /// validation — only this statement failed, so the rest of the fetch still applies.
    private func storing(_ write: () throws -> Void) throws -> MergeOutcome? {
        do {
            try write()
            return nil
        } catch let error as SQLiteError where error.code == .constraint {
            return .quarantined("invalid record payload")
        }
    }

    /// A live record as it arrived: its values, a stamp per group, and whether it is format 1.
    struct IncomingRecord {
        let values: [SQLValue]
        let stamps: [FieldStamp]
        let legacy: Bool
    }

    /// A decoded live envelope, or why it is not applied.
    enum Decoding {
        case record(IncomingRecord)
        case refused(MergeOutcome)
    }

    /// Decodes and checks a live envelope, or says why it is quarantined.
    private func decode(_ envelope: Envelope, _ type: any ConfigRecord.Type, key: String) -> Decoding {
        let incoming: IncomingRecord
        if envelope.formatVersion == ConfigPayload.formatVersion {
            guard let (values, stamps) = type.formatOne(envelope.payload, version: envelope.version) else { return .refused(.quarantined("invalid \(envelope.kind) payload")) }
            incoming = IncomingRecord(values: values, stamps: stamps, legacy: true)
        } else {
            guard let (values, stamps) = FieldPayload.decode(envelope.payload, format: envelope.formatVersion, groups: type.fieldGroups,
                                                             columnCount: type.columns.count, recordVersion: envelope.version)
            else { return .refused(.quarantined("invalid \(envelope.kind) payload")) }
            incoming = IncomingRecord(values: values, stamps: stamps, legacy: false)
        }
        let row = [SQLValue.text(key)] + incoming.values + [SQLValue.integer(Int64(bitPattern: envelope.version.clock)), .text(envelope.version.device)]
        // The rules a local save passes, so nothing arrives that this device could not have written.
        do {
            let record = try type.init(row: Row(values: row))
            // What is stored is what was checked: a value of another type (a blob where a user
            // name or reference belongs) reads as absent, passes the rules, and is read back as
            // text once stored.
            guard record.columnValues.map(\.sqlValue) == incoming.values else {
                return .refused(.quarantined("invalid \(envelope.kind) payload: a field holds a value of the wrong type"))
            }
            try ConfigValidation.record(record)
        } catch let error as ConfigError where error.code == .invalid {
            return .refused(.quarantined("invalid \(envelope.kind): \(error.message)"))
        } catch {
            return .refused(.quarantined("invalid \(envelope.kind) payload"))
        }
        return .record(incoming)
    }
}
