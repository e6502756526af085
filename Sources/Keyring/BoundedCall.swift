internal import CLibsecret
import Glibc
import Synchronization
import Threads

/// Runs one blocking libsecret call with a deadline. The call gets a `GCancellable`, cancelled
/// when the deadline passes; if the call still does not return shortly after, it is abandoned
/// on its thread and the caller gets `timedOut` — a keyring call never hangs a command.
enum BoundedCall {
    /// How long a keyring call may take: `CREDCTL_KEYRING_TIMEOUT_MS`, else 5 seconds.
    static var defaultMilliseconds: Int {
        getenv("CREDCTL_KEYRING_TIMEOUT_MS").flatMap { Int(String(cString: $0)) } ?? 5_000
    }

    static func run<T: Sendable>(milliseconds: Int = defaultMilliseconds, _ body: @escaping @Sendable (Cancellable) throws(KeyringError) -> T) throws(KeyringError) -> T {
        // Every keyring call comes through here, so this is where libsecret is loaded.
        try Libsecret.load()
        let cancellable = Cancellable()
        let result = Mutex<Result<T, KeyringError>?>(nil)
        let done = Completion()
        // A thread of its own: a call abandoned after its deadline keeps it, not a shared pool's.
        let started = DetachedThread.start {
            let outcome: Result<T, KeyringError>
            do throws(KeyringError) { outcome = .success(try body(cancellable)) } catch { outcome = .failure(error) }
            result.withLock { $0 = outcome }
            done.signal()
        }
        guard started else { throw KeyringError(.failed, "No thread could be started for a desktop keyring call.") }
        if !done.wait(milliseconds: milliseconds) {
            g_cancellable_cancel(cancellable.pointer)
            _ = done.wait(milliseconds: 200)
        }
        guard let finished = result.withLock({ $0 }) else {
            throw KeyringError(.timedOut, "The desktop keyring did not answer within \(milliseconds) ms.")
        }
        if case .failure(let error) = finished, cancellable.isCancelled {
            throw KeyringError(.timedOut, "The desktop keyring did not answer within \(milliseconds) ms (\(error.message)).")
        }
        return try finished.get()
    }
}

/// A `GCancellable` shared between the caller and the thread making the call.
final class Cancellable: @unchecked Sendable {
    let pointer = g_cancellable_new()

    var isCancelled: Bool { g_cancellable_is_cancelled(pointer) != 0 }

    deinit { g_object_unref(UnsafeMutableRawPointer(pointer)) }
}
