/// The state of a reference on this device, answerable without any key.
public enum SecretState: Sendable, Equatable {
    /// A sealed body is stored.
    case present(SecretItem)
    /// The newest known incarnation was deleted.
    case deleted(DeletionMarker)
    /// A copy arrived but failed validation and is held in quarantine.
    case quarantined
    /// Nothing is known: the body has not reached this device.
    case absent
}
