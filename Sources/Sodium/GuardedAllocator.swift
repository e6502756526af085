internal import CSodium
import Synchronization

/// Guarded memory, carved in slabs and recycled.
///
/// `sodium_malloc` maps a region with a guard page on each side, makes its bookkeeping page
/// read-only, excludes it from core dumps and locks it: six system calls and four mappings,
/// about 20 µs, and `munmap` on free flushes other cores' mappings. A command touches a handful
/// of small secrets (a key file, its key, the vault keys, a body), so that cost was paid five
/// times over for a single `credctl read`. Small blocks therefore come from slabs: one
/// `sodium_malloc` region of one page, cut into blocks of one size class: zeroed when the slab is
/// made, and wiped with `sodium_memzero` whenever a block goes back to the pool.
///
/// What that trades: the guard pages, lock and dump exclusion are the slab's, so an overrun of
/// one block reaches the next block of the same slab — another secret, never unguarded memory —
/// where before it faulted. A secret shorter than its block has slack after it, as before.
/// Pooled blocks are never unmapped (a block cannot be freed apart from its slab): what the pool
/// holds is the most this process ever had live at once, rounded up to slabs, wiped.
enum GuardedAllocator {
    /// Block sizes that are pooled; larger requests go straight to `sodium_malloc`.
    static let sizeClasses = [64, 256, 1_024, 4_096]
    /// What one slab may hold: a page less the canary `sodium_malloc` puts before the block, so
    /// a slab locks one page.
    static let slabCapacity = 4_096 - 16
    // Addresses as integers: the pool only stores them; ownership moves with pop and push.
    private static let pools = Mutex<[[UInt]]>(Array(repeating: [], count: sizeClasses.count))

    /// How many blocks of `size` one slab holds (at least one).
    static func blocksPerSlab(_ size: Int) -> Int { Swift.max(1, slabCapacity / size) }

    /// A zeroed block of at least `count` bytes, and its real capacity.
    static func allocate(_ count: Int) -> (pointer: UnsafeMutableRawPointer, capacity: Int)? {
        let wanted = Swift.max(count, 1)
        guard let index = sizeClasses.firstIndex(where: { $0 >= wanted }) else {
            guard let raw = sodium_malloc(wanted) else { return nil }
            sodium_memzero(raw, wanted)
            return (raw, wanted)
        }
        let size = sizeClasses[index]
        if let address = pools.withLock({ $0[index].popLast() }), let raw = UnsafeMutableRawPointer(bitPattern: address) {
            return (raw, size)
        }
        let blocks = blocksPerSlab(size)
        guard let slab = sodium_malloc(blocks * size) else { return nil }
        // sodium_malloc fills new memory with a marker byte, not zeroes.
        sodium_memzero(slab, blocks * size)
        if blocks > 1 {
            let spare = (1..<blocks).map { UInt(bitPattern: slab + $0 * size) }
            pools.withLock { $0[index].append(contentsOf: spare) }
        }
        return (slab, size)
    }

    /// Wipes the block and keeps it for reuse, or frees it (`sodium_free` wipes too).
    static func release(_ pointer: UnsafeMutableRawPointer, capacity: Int) {
        guard let index = sizeClasses.firstIndex(of: capacity) else {
            sodium_free(pointer)
            return
        }
        sodium_memzero(pointer, capacity)
        pools.withLock { $0[index].append(UInt(bitPattern: pointer)) }
    }
}
