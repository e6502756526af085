import Glibc

/// A thread of its own for work that blocks on a socket or a person for long, or that runs beside
/// the caller until the process ends (the agent's sync, its signal watch): each gets its own
/// thread, so none waits for a shared pool that waiting connections could fill.
public enum DetachedThread {
    /// Runs `body` on a new detached thread; false when no thread could be made.
    @discardableResult
    public static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let started = pthread_create(&thread, &attributes, { context in
            let box = Unmanaged<Box>.fromOpaque(context!).takeRetainedValue()
            box.body()
            return nil
        }, box)
        if started != 0 { Unmanaged<Box>.fromOpaque(box).release() }
        return started == 0
    }

    private final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
}
