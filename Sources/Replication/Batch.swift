/// The unit of upload: up to 250 changes of one zone from one device, published once as
/// `zones/<zone>/<device>/<sequence>.batch` and never rewritten.
public struct Batch: Sendable, Equatable {
    /// At most this many changes (saves and deletes together) per batch.
    public static let maximumChanges = 250
    /// The largest sequence (and snapshot or cursors number) read from the remote. A device
    /// writing a batch every millisecond would need 8,900 years to reach it; anything larger
    /// was not written by a device, and arithmetic on what is accepted can never overflow.
    public static let maximumSequence: UInt64 = 1 << 48

    public let zone: String
    public let device: String
    public let sequence: UInt64
    public let envelopes: [Envelope]

    public init(zone: String, device: String, sequence: UInt64, envelopes: [Envelope]) {
        precondition(envelopes.count <= Self.maximumChanges, "a batch holds at most \(Self.maximumChanges) changes")
        self.zone = zone
        self.device = device
        self.sequence = sequence
        self.envelopes = envelopes
    }

    /// The object name on the remote. Sequences are zero-padded so names sort in order.
    public var objectName: String { Self.objectName(zone: zone, device: device, sequence: sequence) }

    public static func objectName(zone: String, device: String, sequence: UInt64) -> String {
        let digits = String(sequence)
        return "zones/\(zone)/\(device)/" + String(repeating: "0", count: max(0, 20 - digits.count)) + digits + ".batch"
    }
}
