internal import CSodium
import Synchronization

/// Guarded memory with a small recycling pool.
///
/// `sodium_malloc` maps guard pages and locks the region (several system calls, and `munmap`
/// on free flushes other cores' mappings): about 20 µs per short-lived secret, which dominated
/// resolving a credential. Blocks of common sizes are therefore kept after use — wiped with
/// `sodium_memzero` before they enter the pool — and handed out again. Each block keeps its own
/// guard pages and lock; a secret shorter than its block has slack before the trailing guard page.
enum GuardedAllocator {
    /// Block sizes that are pooled; larger requests go straight to `sodium_malloc`.
    static let sizeClasses = [64, 256, 1_024, 4_096]
    /// Blocks kept per size class.
    static let blocksPerClass = 32
    // Addresses as integers: the pool only stores them; ownership moves with pop and push.
    private static let pools = Mutex<[[UInt]]>(Array(repeating: [], count: sizeClasses.count))

    /// A zeroed block of at least `count` bytes, and its real capacity.
    static func allocate(_ count: Int) -> (pointer: UnsafeMutableRawPointer, capacity: Int)? {
        let wanted = Swift.max(count, 1)
        guard let index = sizeClasses.firstIndex(where: { $0 >= wanted }) else {
            guard let raw = sodium_malloc(wanted) else { return nil }
            sodium_memzero(raw, wanted)
            return (raw, wanted)
        }
        let capacity = sizeClasses[index]
        if let address = pools.withLock({ $0[index].popLast() }), let raw = UnsafeMutableRawPointer(bitPattern: address) {
            return (raw, capacity)
        }
        guard let raw = sodium_malloc(capacity) else { return nil }
        sodium_memzero(raw, capacity)
        return (raw, capacity)
    }

    /// Wipes the block and keeps it for reuse, or frees it (`sodium_free` wipes too).
    static func release(_ pointer: UnsafeMutableRawPointer, capacity: Int) {
        guard let index = sizeClasses.firstIndex(of: capacity) else {
            sodium_free(pointer)
            return
        }
        sodium_memzero(pointer, capacity)
        let kept = pools.withLock { pools -> Bool in
            guard pools[index].count < blocksPerClass else { return false }
            pools[index].append(UInt(bitPattern: pointer))
            return true
        }
        if !kept { sodium_free(pointer) }
    }
}
