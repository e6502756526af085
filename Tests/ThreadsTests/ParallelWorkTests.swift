import Glibc
import Synchronization
import Threads
import XCTest

final class ParallelWorkTests: XCTestCase {
    func testEveryIndexRunsOnce() {
        for count in [0, 1, 2, 7] {
            let seen = Mutex<[Int]>([])
            ParallelWork.run(count) { index in seen.withLock { $0.append(index) } }
            XCTAssertEqual(seen.withLock { $0.sorted() }, Array(0..<count))
        }
    }

    /// Each part waits for the other: they finish only if they run at the same time.
    func testThePartsRunAtTheSameTime() {
        let arrived = [Completion(), Completion()]
        let metBoth = Mutex(0)
        ParallelWork.run(2) { index in
            arrived[index].signal()
            if arrived[1 - index].wait(milliseconds: 10_000) { metBoth.withLock { $0 += 1 } }
        }
        XCTAssertEqual(metBoth.withLock { $0 }, 2)
    }

    func testItReturnsOnlyWhenEveryPartHasReturned() {
        let finished = Atomic(0)
        ParallelWork.run(4) { index in
            usleep(UInt32(20_000 * index))
            finished.add(1, ordering: .relaxed)
        }
        XCTAssertEqual(finished.load(ordering: .relaxed), 4)
    }
}
