/// A zone's merged state as one device holds it, read in one transaction: every syncable record
/// (live or deleted) as an envelope, with the cursor vector that state covers — the last
/// sequence applied per writer and this device's own last published sequence.
public struct ZoneSnapshotState: Sendable {
    public let envelopes: [Envelope]
    public let cursors: [String: UInt64]

    public init(envelopes: [Envelope], cursors: [String: UInt64]) {
        self.envelopes = envelopes
        self.cursors = cursors
    }
}
