/// A fetched, opened batch on its way into a zone store.
public struct IncomingBatch: Sendable {
    public let device: String
    public let sequence: UInt64
    public let envelopes: [Envelope]
    public let rejected: [RejectedEnvelope]
    /// False for conflict copies and other out-of-band objects: their envelopes merge, but the
    /// writer's cursor stays where it is.
    public let advancesCursor: Bool
    /// A snapshot's cursor vector, with its last part: after the envelopes, each named cursor
    /// moves up to it (never back).
    public let covers: [String: UInt64]
    /// A snapshot's cursor vector, with every part: what its state includes of each writer,
    /// counted as taken in as soon as any part applies (`SyncTables.appliedPrefix`).
    public let brings: [String: UInt64]
    /// The quarantine entry of this very object, quarantined whole before and now readable:
    /// removed in the transaction that applies it.
    public let releasesQuarantine: Int64?

    public init(device: String, sequence: UInt64, envelopes: [Envelope], rejected: [RejectedEnvelope], advancesCursor: Bool,
                covers: [String: UInt64] = [:], brings: [String: UInt64] = [:], releasesQuarantine: Int64? = nil) {
        self.device = device
        self.sequence = sequence
        self.envelopes = envelopes
        self.rejected = rejected
        self.advancesCursor = advancesCursor
        self.covers = covers
        self.brings = brings
        self.releasesQuarantine = releasesQuarantine
    }
}
