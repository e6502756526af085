import Sodium

/// The two codes of joining by approval (docs/devices.md, "Joining by approval"). The user
/// compares the **verification code** the joining device prints with the one `device approve`
/// shows (it covers the genesis the joiner saw and its request, so a request relayed from a fake
/// vault shows another code), and types the **confirmation code** `device approve` prints into the
/// joining device (it covers the genesis and the `add` entry, so the joiner trusts only an
/// approval made on a device the user holds).
public enum JoinCode {
    /// 12 characters (60 bits), `XXXX-XXXX-XXXX`.
    public static func verification(genesis: [UInt8], request: [UInt8]) -> String {
        Crockford.grouped(GenericHash.hash(genesis + request, domain: Array("credvault/v2/join-code".utf8)), symbols: 12, group: 4)
    }

    /// 8 characters (40 bits), `XXXX-XXXX`.
    public static func confirmation(genesis: [UInt8], addEntry: [UInt8]) -> String {
        Crockford.grouped(GenericHash.hash(genesis + addEntry, domain: Array("credvault/v2/join-confirm".utf8)), symbols: 8, group: 4)
    }

    /// Whether what a user typed is `code`: case, dashes, white space and the look-alikes I, L
    /// and O do not matter; anything else does.
    public static func matches(_ typed: String, _ code: String) -> Bool {
        func values(_ text: String) -> [UInt8]? {
            var values: [UInt8] = []
            return Array(text.utf8).withUnsafeBytes { Crockford.forEachValue(in: $0) { values.append($0) } } ? values : nil
        }
        guard let typed = values(typed), let expected = values(code) else { return false }
        return typed == expected
    }
}
