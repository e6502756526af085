import Foundation
import SQLite
import XCTest

/// Base class for suites that touch disk: each test gets a fresh private directory (mkdtemp),
/// removed again in `tearDown`.
class SQLiteTestCase: XCTestCase {
    private(set) var directory = ""

    override func setUpWithError() throws {
        try super.setUpWithError()
        var template = Array((NSTemporaryDirectory() + "/sqlite-tests.XXXXXX").utf8CString)
        guard let created = mkdtemp(&template) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "mkdtemp failed (errno \(errno))"])
        }
        directory = String(cString: created)
    }

    override func tearDownWithError() throws {
        if !directory.isEmpty { try FileManager.default.removeItem(atPath: directory) }
        directory = ""
        try super.tearDownWithError()
    }

    /// A path inside this test's directory.
    func path(_ name: String = "test.sqlite") -> String { directory + "/" + name }

    /// Permission bits of the file at `path`, or nil if it does not exist.
    func permissions(_ path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & 0o777
    }
}

/// Asserts that `expression` throws an `SQLiteError` with exactly `code`, and returns the error.
@discardableResult
func assertSQLiteError<T>(_ code: SQLiteError.Code, _ expression: @autoclosure () throws -> T, _ message: String = "",
                          file: StaticString = #filePath, line: UInt = #line) -> SQLiteError? {
    var caught: SQLiteError?
    XCTAssertThrowsError(try expression(), message, file: file, line: line) { error in
        caught = error as? SQLiteError
        XCTAssertEqual(caught?.code, code, message, file: file, line: line)
    }
    return caught
}

/// A thread-safe collector for errors raised on worker threads.
final class ErrorLog: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [any Error] = []

    func record(_ error: any Error) { lock.withLock { errors.append(error) } }
    var all: [any Error] { lock.withLock { errors } }
}
