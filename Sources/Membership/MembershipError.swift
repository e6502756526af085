/// What went wrong with a device, the roster, a join or a recovery key, in words a user can act on.
public struct MembershipError: Error, Sendable, CustomStringConvertible {
    public enum Code: Sendable, Equatable {
        /// A recovery key that does not read back (length, character, checksum).
        case invalidRecoveryKey
        /// A roster entry that is not one canonical entry of this format.
        case malformedRoster
        /// A roster whose chain breaks a rule at some entry: nothing from the remote is applied.
        case rosterDoesNotVerify
        /// This device's key file does not read, or a key in it does not match its public half.
        case damagedDeviceKeys
        /// An epoch's keys that are not boxed to this device or not the ones their entry commits to.
        case epochKeys
        /// A join request that does not read, verify, or belong to this vault, or has expired.
        case joinRequest
        /// The remote shows less of the roster than this device has already verified: entries were
        /// removed or withheld.
        case rosterRolledBack
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
