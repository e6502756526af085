/// Where a secret item may live.
public enum Availability: String, Sendable, CaseIterable {
    /// Sealed under the device key; never leaves this device.
    case deviceOnly
    /// Sealed under the vault key; replicates to every enrolled device.
    case syncable
}
