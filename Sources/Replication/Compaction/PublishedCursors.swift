/// How far one device has read a zone, as it last told the others: garbage collection may
/// remove a batch only once every live device's published cursors have passed it.
public struct PublishedCursors: Sendable, Equatable {
    public let zone: String
    public let device: String
    public let number: UInt64
    /// The device's wall clock when it published, in milliseconds: a device silent for longer
    /// than `CompactionPolicy.retireAfter` no longer holds collection back.
    public let writtenAt: UInt64
    /// Last sequence applied per writer device, with the device's own last published sequence.
    public let cursors: [String: UInt64]

    public var name: CompactionObjectName { CompactionObjectName(device: device, number: number, kind: .cursors) }
}
