import Identifiers
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

    /// Announces this device (once): its record, with the name chosen for it (`deviceName`),
    /// enters the config zone like any other edit. Later calls change nothing.
    public func announceDevice() throws {
        guard let id = CanonicalUUID.parse(deviceID) else { return }
        try write("announce this device") { db in
            guard try find(db, Device.self, id: id) == nil else { return }
            _ = try persist(db, Device(id: id, displayName: try chosenName(db), firstSeen: Int64(HybridLogicalClock.wallMilliseconds() / 1_000)))
        }
    }

    /// The name this device goes by: the one its user chose (`init --device-name`, or a rename
    /// of its record), else the machine's host name and the start of its id (`laptop-3f0c`), so
    /// two machines of the same name are still told apart.
    public var deviceName: String {
        get throws { try read("read this device's name") { db in try chosenName(db) } }
    }

    /// Chooses this device's name before it is announced (after that, `renameDevice`).
    public func chooseDeviceName(_ name: String) throws {
        try ConfigValidation.label(name, kind: "device")
        try write("choose this device's name") { db in
            try db.run("INSERT OR REPLACE INTO config_meta (key, value) VALUES ('device_name', ?)", [LabelText.normalized(name)])
        }
    }

    /// Renames device `id` everywhere: its record's name is an edit like any other, synced to
    /// every device. A device not announced yet gets its record now.
    @discardableResult
    public func renameDevice(id: UUID, to name: String) throws -> Device {
        try ConfigValidation.label(name, kind: "device")
        return try write("rename a device") { db in
            var device = try find(db, Device.self, id: id) ?? Device(id: id, displayName: name, firstSeen: Int64(HybridLogicalClock.wallMilliseconds() / 1_000))
            device.displayName = LabelText.normalized(name)
            if CanonicalUUID.text(id) == deviceID {
                try db.run("INSERT OR REPLACE INTO config_meta (key, value) VALUES ('device_name', ?)", [device.displayName])
            }
            return try persist(db, device)
        }
    }

    private func chosenName(_ db: Connection) throws -> String {
        if let chosen = try db.queryFirst("SELECT value FROM config_meta WHERE key = 'device_name'", [], { $0.text(0) }) ?? nil { return chosen }
        if let id = CanonicalUUID.parse(deviceID), let announced = try find(db, Device.self, id: id) { return announced.displayName }
        return Self.defaultDeviceName(id: deviceID)
    }

    /// The machine's host name and the first four characters of `id`.
    static func defaultDeviceName(id: String) -> String {
        ConfigValidation.displayName(hostName() + "-" + id.prefix(4))
    }

    private static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return "device" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
