import Glibc
import Threads
import XCTest

final class CompletionTests: XCTestCase {
    func testASignalBeforeTheWaitIsKept() {
        let completion = Completion()
        completion.signal()
        XCTAssertTrue(completion.wait(milliseconds: 0))
        completion.wait()
        XCTAssertTrue(completion.wait(milliseconds: 10), "once signalled it stays signalled")
    }

    func testAWaitWithoutASignalEndsAtItsDeadline() {
        let completion = Completion()
        let start = Self.milliseconds()
        XCTAssertFalse(completion.wait(milliseconds: 50))
        XCTAssertGreaterThanOrEqual(Self.milliseconds() - start, 50)
        XCTAssertFalse(completion.wait(milliseconds: -5), "a negative wait does not wait")
    }

    func testASignalFromAnotherThreadWakesEveryWaiter() {
        let completion = Completion()
        let woken = Completion()
        XCTAssertTrue(DetachedThread.start {
            completion.wait()
            woken.signal()
        })
        XCTAssertTrue(DetachedThread.start { completion.signal() })
        XCTAssertTrue(completion.wait(milliseconds: 10_000))
        XCTAssertTrue(woken.wait(milliseconds: 10_000), "the other waiter was woken too")
    }

    func testAVeryLongWaitIsCutNotWrapped() {
        let completion = Completion()
        completion.signal()
        XCTAssertTrue(completion.wait(milliseconds: Int.max), "no overflow in the deadline")
    }

    private static func milliseconds() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return now.tv_sec * 1_000 + now.tv_nsec / 1_000_000
    }
}
