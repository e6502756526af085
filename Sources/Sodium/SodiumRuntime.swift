internal import CSodium

/// Makes sure `sodium_init` has run exactly once before any primitive is used.
///
/// `sodium_init` is thread-safe and idempotent; the static `let` makes the first caller pay for it.
enum SodiumRuntime {
    private static let initialized: Bool = sodium_init() >= 0

    static func ensureInitialized() {
        // Without a working libsodium nothing in this module is safe to run.
        precondition(initialized, "libsodium failed to initialise (sodium_init returned an error)")
    }
}
