/// Pairs a removal envelope with the tombstone right after it in a fetched batch, as its writer
/// sends them (`RemovalLog`). The removal's context counts only for exactly that deletion (the
/// same record, version and incarnation) and is kept only if that deletion applies, so a removal
/// alone — forged, of an unknown record, or whose tombstone went to quarantine — changes and
/// stores nothing.
public struct RemovalPairing {
    private var held: (recordName: String, incarnation: Int64, version: RecordVersion, context: VersionContext)?

    public init() {}

    /// A removal envelope, checked and held for the envelope after it. `.ignored` (a removal
    /// counts with its tombstone), or `.quarantined` when it is malformed; one of a format this
    /// build does not read is dropped (its tombstone applies without it).
    public mutating func hold(_ envelope: Envelope) -> MergeOutcome {
        held = nil
        guard envelope.formatVersion == RemovalLog.formatVersion else { return .ignored }
        let prefix = Envelope.removalKind + "/"
        guard envelope.recordName.hasPrefix(prefix), envelope.recordName.utf8.count > prefix.utf8.count, !envelope.deleted else {
            return .quarantined("malformed removal")
        }
        var reader = ByteReader(envelope.payload)
        guard let context = try? VersionContext.decode(from: &reader), reader.isAtEnd, context.isWriteContext(of: envelope.version) else {
            return .quarantined("invalid removal payload")
        }
        held = (String(envelope.recordName.dropFirst(prefix.count)), envelope.incarnation, envelope.version, context)
        return .ignored
    }

    /// For any other envelope: the context of its removal, when the envelope just before it was
    /// that. The held removal goes either way.
    public mutating func context(for envelope: Envelope) -> VersionContext? {
        defer { held = nil }
        guard let held, envelope.deleted, held.recordName == envelope.recordName, held.incarnation == envelope.incarnation,
              held.version == envelope.version else { return nil }
        return held.context
    }
}
