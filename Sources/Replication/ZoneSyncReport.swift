/// What one sync run of a zone did.
public struct ZoneSyncReport: Sendable, Equatable {
    public let zone: String
    /// Batch objects read and applied (including quarantined ones).
    public var fetchedObjects = 0
    public var applied = 0
    public var ignored = 0
    public var quarantined = 0
    /// Objects that did not open yet and will be retried (for example still being copied).
    public var waiting = 0
    public var sentChanges = 0
    public var sentObjects = 0

    public init(zone: String) { self.zone = zone }
}
