/// The deterministic merge rule: which of two envelopes for the same record survives.
///
/// Envelopes are totally ordered, and the survivor is the greater one, so merging is
/// commutative, associative and idempotent — every device reaches the same state whatever the
/// order, duplication or delay of delivery, and a settled merge proposes no work:
///
/// 1. a later **incarnation** wins (setting a secret again after deleting it starts a new life);
/// 2. within one incarnation a **tombstone** wins over any live version, whatever its clock — a
///    deletion is terminal for its incarnation, so no delayed or clock-skewed update of that
///    incarnation can bring the record back;
/// 3. then the newer **version** (hybrid logical clock, then writer device id);
/// 4. then the greater **payload** bytes, then format version, so equal versions still agree —
///    except for two deletions: they carry nothing but their version, so two of one version are
///    the same deletion whatever format wrote them, and neither replaces the other.
public enum Merge {
    /// Whether `candidate` should replace `current`.
    public static func wins(_ candidate: Envelope, over current: Envelope) -> Bool {
        precede(current, candidate)
    }

    /// The survivor of the two.
    public static func winner(_ a: Envelope, _ b: Envelope) -> Envelope {
        precede(a, b) ? b : a
    }

    /// Strict order: true when `a` loses to `b`.
    static func precede(_ a: Envelope, _ b: Envelope) -> Bool {
        if a.incarnation != b.incarnation { return a.incarnation < b.incarnation }
        if a.deleted != b.deleted { return !a.deleted }
        if a.version != b.version { return a.version < b.version }
        if a.payload != b.payload { return a.payload.lexicographicallyPrecedes(b.payload) }
        return !a.deleted && a.formatVersion < b.formatVersion
    }
}
