import Glibc

/// A one-time event between threads: a worker `signal`s that it is done, another thread `wait`s
/// for it, with or without a deadline. Once signalled it stays signalled.
public final class Completion: @unchecked Sendable {
    // `@unchecked Sendable`: `done` is read and written only with `mutex` held. The mutex and
    // the condition live at fixed addresses, as pthreads requires.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var done = false

    /// The longest wait `wait(milliseconds:)` takes (about 24 days); a longer one is cut to it.
    public static let longestWait = Int(Int32.max)

    public init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        // Deadlines on the monotonic clock: setting the wall clock neither ends nor stretches a wait.
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Marks the event done and wakes every waiter.
    public func signal() {
        pthread_mutex_lock(mutex)
        done = true
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Waits until the event is signalled.
    public func wait() {
        pthread_mutex_lock(mutex)
        while !done { pthread_cond_wait(condition, mutex) }
        pthread_mutex_unlock(mutex)
    }

    /// Waits at most `milliseconds` (none below zero); whether the event was signalled.
    public func wait(milliseconds: Int) -> Bool {
        let span = min(max(milliseconds, 0), Self.longestWait)
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let nanoseconds = Int(deadline.tv_nsec) + (span % 1_000) * 1_000_000
        deadline.tv_sec += span / 1_000 + nanoseconds / 1_000_000_000
        deadline.tv_nsec = nanoseconds % 1_000_000_000
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !done {
            if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT { break }
        }
        return done
    }
}
