import ConfigTrack

/// The names devices go by (docs/devices.md, "Device names"): chosen by their users, kept in
/// each device's config record — an edit like any other, synced everywhere — and otherwise the
/// name the roster gives the device (sealed when it joined).
extension Vault {
    /// The name this device goes by.
    public var deviceName: String {
        get throws(VaultError) { try VaultError.wrapping { try config.deviceName } }
    }

    /// Chooses this device's name before it first syncs (`init --device-name`).
    public func chooseDeviceName(_ name: String) throws(VaultError) {
        try VaultError.wrapping { try config.chooseDeviceName(name) }
    }

    /// Renames the device `text` names — its id, a unique start of its id, or its name — to
    /// `name`, on every device once synced. Returns the device's id.
    @discardableResult
    public func renameDevice(_ text: String, to name: String) throws(VaultError) -> String {
        try VaultError.wrapping {
            let id = try deviceID(named: text)
            guard let uuid = CanonicalUUID.parse(id) else { throw VaultError(.notFound, "No device '\(text)'.") }
            let taken = try knownDeviceNames().filter { $0.key != id && LabelText.same($0.value, name) }
            if let other = taken.first {
                throw VaultError(.alreadyExists, "Device \(other.key) is already called '\(other.value)'.", hint: "Choose another name.")
            }
            try config.renameDevice(id: uuid, to: name)
            return id
        }
    }

    /// Each device's name as its config record gives it (chosen or announced).
    func chosenDeviceNames() throws -> [String: String] {
        Dictionary(try config.devices().map { (CanonicalUUID.text($0.id), $0.displayName) }, uniquingKeysWith: { first, _ in first })
    }

    /// Every device this one knows, by id: its config name, else its roster name.
    private func knownDeviceNames() throws -> [String: String] {
        var names: [String: String] = [:]
        for device in try rosterDevices() { names[device.id] = device.name ?? "" }
        for (id, name) in try chosenDeviceNames() { names[id] = name }
        if names[deviceID] == nil { names[deviceID] = try config.deviceName }
        return names
    }

    /// The id of the device `text` names: an id, a unique start of one (four characters at least),
    /// or a name (regardless of case).
    private func deviceID(named text: String) throws -> String {
        let names = try knownDeviceNames()
        if names[text.lowercased()] != nil { return text.lowercased() }
        let byName = names.filter { LabelText.same($0.value, text) }.map(\.key)
        let byPrefix = text.count >= 4 ? names.keys.filter { $0.hasPrefix(text.lowercased()) } : []
        let matches = byName.isEmpty ? byPrefix : byName
        guard let only = matches.first else {
            throw VaultError(.notFound, "No device of this vault is called or numbered '\(text)'.", hint: "List them with: credctl device list")
        }
        guard matches.count == 1 else {
            throw VaultError(.conflict, "'\(text)' names \(matches.count) devices (\(matches.sorted().joined(separator: ", "))).", hint: "Give more of the id: credctl device list")
        }
        return only
    }
}
