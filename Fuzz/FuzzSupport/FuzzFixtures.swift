import Sodium

/// Fixed values shared by the harnesses and the seed generator, so seeds open in the harness.
/// The key is a test key, public by design: it lets the fuzzer reach the parsers that sit
/// behind authentication by sealing its bytes first.
public enum FuzzFixtures {
    public static let transportKey = try! SecretBytes(copying: [UInt8](repeating: 0x42, count: SealedBox.keyCount))
    /// The sync passphrase the `vault.json` seeds are written with.
    public static let syncPassphrase = try! SecretBytes(utf8: "fuzz sync passphrase")
    public static let zone = "config"
    /// A signing key, public by design, that signs what FuzzMembership frames itself: seeds
    /// whose devices use it as their roster key reach the roster's rules past its signatures.
    public static let signingKey = try! SigningKeyPair(seed: try! SecretBytes(copying: [UInt8](repeating: 7, count: SigningKeyPair.seedCount)))
    /// Device names the harnesses pick from (a selector byte modulo the count).
    public static let devices = ["d0f4a5e2-1111-4c6b-9f00-000000000001", "d0f4a5e2-2222-4c6b-9f00-000000000002", "x", ""]

    /// Stops the fuzzer on a broken invariant with a message naming it: libFuzzer records the
    /// input as a crash, like a trap.
    public static func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
        if !condition() { fatalError("invariant broken: \(message())") }
    }
}
