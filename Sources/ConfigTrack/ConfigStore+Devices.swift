import FoundationEssentials
import Glibc
import Replication
import SQLite

extension ConfigStore {
    /// Every device that has announced itself, by name.
    public func devices() throws -> [Device] {
        try read("list devices") { db in
            try db.query(Device.selectSQL + " ORDER BY display_name, id") { try Device(row: $0) }
        }
    }

    /// Announces this device (once): its record, with the machine's host name, enters the
    /// config zone like any other edit. Later calls change nothing.
    public func announceDevice() throws {
        guard let id = CanonicalUUID.parse(deviceID) else { return }
        try write("announce this device") { db in
            guard try find(db, Device.self, id: id) == nil else { return }
            let name = ConfigValidation.displayName(Self.hostName())
            _ = try persist(db, Device(id: id, displayName: name, firstSeen: Int64(HybridLogicalClock.wallMilliseconds() / 1_000)))
        }
    }

    /// The name a device gets unless its user gives one: the machine's host name, as a display name.
    public static var defaultDeviceName: String { ConfigValidation.displayName(hostName()) }

    private static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return "device" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
