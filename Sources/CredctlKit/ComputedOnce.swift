import Synchronization

/// A value computed the first time it is asked for and kept after: for what a `Context` (a value
/// passed around as a constant) works out at most once per command.
final class ComputedOnce<Value: Sendable>: Sendable {
    private let stored = Mutex<Value?>(nil)

    func value(_ compute: () -> Value) -> Value {
        stored.withLock { stored in
            if let stored { return stored }
            let value = compute()
            stored = value
            return value
        }
    }
}
