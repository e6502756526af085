import Glibc

/// Work split in parts that run at the same time, each on a thread of its own.
public enum ParallelWork {
    /// Runs `body(index)` for every index in `0..<count` at once — index 0 on the calling thread,
    /// each other on a new thread — and returns when all have returned. A part whose thread
    /// cannot be made runs on the calling thread afterwards. `body` must be safe to run on
    /// several threads at once.
    public static func run(_ count: Int, _ body: (Int) -> Void) {
        guard count > 1 else {
            if count == 1 { body(0) }
            return
        }
        withoutActuallyEscaping(body) { body in
            let shared = Shared(body)
            var threads: [pthread_t] = []
            var leftOver: [Int] = []
            for index in 1..<count {
                let part = Unmanaged.passRetained(Part(shared, index)).toOpaque()
                var thread = pthread_t()
                let started = pthread_create(&thread, nil, { context in
                    let part = Unmanaged<Part>.fromOpaque(context!).takeRetainedValue()
                    part.shared.body(part.index)
                    return nil
                }, part)
                if started == 0 {
                    threads.append(thread)
                } else {
                    Unmanaged<Part>.fromOpaque(part).release()
                    leftOver.append(index)
                }
            }
            body(0)
            for index in leftOver { body(index) }
            // Every thread is joined before `body` stops being valid.
            for thread in threads { pthread_join(thread, nil) }
        }
    }

    // `@unchecked Sendable`: the closure is only called, by threads joined before it goes away;
    // that it may run on several at once is the caller's promise (above).
    private final class Shared: @unchecked Sendable {
        let body: (Int) -> Void
        init(_ body: @escaping (Int) -> Void) { self.body = body }
    }

    private final class Part: @unchecked Sendable {
        let shared: Shared
        let index: Int
        init(_ shared: Shared, _ index: Int) {
            self.shared = shared
            self.index = index
        }
    }
}
