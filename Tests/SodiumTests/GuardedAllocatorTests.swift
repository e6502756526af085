import Dispatch
import XCTest
@testable import Sodium

/// The recycling pool behind `SecretBytes`: reused blocks must come back wiped.
final class GuardedAllocatorTests: XCTestCase {
    func testARecycledBlockComesBackZeroed() throws {
        var seen: Set<UInt> = []
        for _ in 0..<100 {
            let secret = try SecretBytes.random(count: 200)
            XCTAssertFalse(secret.withUnsafeBytes { $0.allSatisfy { $0 == 0 } }, "random bytes were written")
            seen.insert(secret.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) })
        }
        XCTAssertLessThan(seen.count, 100, "blocks of a pooled size are reused")
        for _ in 0..<100 {
            let fresh = try SecretBytes(zeroedCount: 200)
            XCTAssertTrue(fresh.withUnsafeBytes { $0.allSatisfy { $0 == 0 } }, "a reused block is wiped")
        }
    }

    func testBlocksAreSizedByClassAndLargeRequestsAreExact() throws {
        let small = try XCTUnwrap(GuardedAllocator.allocate(10))
        XCTAssertEqual(small.capacity, 64)
        GuardedAllocator.release(small.pointer, capacity: small.capacity)
        let large = try XCTUnwrap(GuardedAllocator.allocate(10_000))
        XCTAssertEqual(large.capacity, 10_000)
        GuardedAllocator.release(large.pointer, capacity: large.capacity)
    }

    func testBlocksCutFromOneSlabDoNotOverlap() throws {
        let blocks = try (0..<200).map { _ in try XCTUnwrap(GuardedAllocator.allocate(40)) }
        for (index, block) in blocks.enumerated() {
            XCTAssertEqual(block.capacity, 64)
            XCTAssertTrue(UnsafeRawBufferPointer(start: block.pointer, count: block.capacity).allSatisfy { $0 == 0 }, "a new block is zeroed")
            block.pointer.initializeMemory(as: UInt8.self, repeating: UInt8(truncatingIfNeeded: index + 1), count: block.capacity)
        }
        for (index, block) in blocks.enumerated() {
            let bytes = UnsafeRawBufferPointer(start: block.pointer, count: block.capacity)
            XCTAssertTrue(bytes.allSatisfy { $0 == UInt8(truncatingIfNeeded: index + 1) }, "block \(index) was overwritten by another")
        }
        for block in blocks { GuardedAllocator.release(block.pointer, capacity: block.capacity) }
    }

    /// Small secrets share guarded pages, one `sodium_malloc` per slab: 126 blocks of 64 bytes
    /// once took a page (and six system calls) each.
    func testSmallBlocksShareGuardedPages() throws {
        let blocks = try (0..<126).map { _ in try XCTUnwrap(GuardedAllocator.allocate(32)) }
        let pages = Set(blocks.map { UInt(bitPattern: $0.pointer) / 4_096 })
        XCTAssertLessThanOrEqual(pages.count, 126 / 4, "blocks come from slabs of \(GuardedAllocator.blocksPerSlab(64))")
        for block in blocks { GuardedAllocator.release(block.pointer, capacity: block.capacity) }
    }

    func testThePoolIsSafeAcrossThreads() throws {
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for round in 0..<500 {
                guard let secret = try? SecretBytes(copying: [UInt8](repeating: UInt8(worker + 1), count: 1 + round % 300)) else {
                    return XCTFail("allocation failed")
                }
                XCTAssertTrue(secret.withUnsafeBytes { $0.allSatisfy { $0 == UInt8(worker + 1) } })
            }
        }
    }
}
