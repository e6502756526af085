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
