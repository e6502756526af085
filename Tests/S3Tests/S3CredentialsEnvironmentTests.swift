import Foundation
@testable import S3
import XCTest

/// `S3Credentials.fromProcessEnvironment` reads every variable `resolve(environment:)` knows, from
/// the process's own environment: keys given directly, a named profile of a named file, and the
/// default profile under HOME.
final class S3CredentialsEnvironmentTests: XCTestCase {
    private var saved: [String: String?] = [:]
    private var directory = ""

    override func setUpWithError() throws {
        for name in S3Credentials.environmentNames { saved[name] = getenv(name).map { String(cString: $0) } }
        for name in S3Credentials.environmentNames { unsetenv(name) }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("s3-env-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory + "/.aws", withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        for (name, value) in saved {
            if let value { setenv(name, value, 1) } else { unsetenv(name) }
        }
        try? FileManager.default.removeItem(atPath: directory)
    }

    func testKeysGivenInTheEnvironment() throws {
        setenv("AWS_ACCESS_KEY_ID", "AKIDFROMENV", 1)
        setenv("AWS_SECRET_ACCESS_KEY", "secret-from-env", 1)
        setenv("AWS_SESSION_TOKEN", "token-from-env", 1)
        let credentials = try S3Credentials.fromProcessEnvironment()
        XCTAssertEqual(credentials.accessKeyID, "AKIDFROMENV")
        XCTAssertEqual(credentials.sessionToken, "token-from-env")
        XCTAssertTrue(credentials.secretAccessKey.withUnsafeBytes { Array($0) == Array("secret-from-env".utf8) })
    }

    func testANamedProfileOfANamedFile() throws {
        let path = directory + "/credentials"
        try "[default]\naws_access_key_id = AKIDDEFAULT\naws_secret_access_key = s1\n[work]\naws_access_key_id = AKIDWORK\naws_secret_access_key = s2\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        setenv("AWS_SHARED_CREDENTIALS_FILE", path, 1)
        setenv("AWS_PROFILE", "work", 1)
        XCTAssertEqual(try S3Credentials.fromProcessEnvironment().accessKeyID, "AKIDWORK")
    }

    func testTheDefaultProfileUnderHome() throws {
        try "[default]\naws_access_key_id = AKIDHOME\naws_secret_access_key = s3\n".write(toFile: directory + "/.aws/credentials", atomically: true, encoding: .utf8)
        setenv("HOME", directory, 1)
        XCTAssertEqual(try S3Credentials.fromProcessEnvironment().accessKeyID, "AKIDHOME")
        unsetenv("HOME")
        XCTAssertThrowsError(try S3Credentials.fromProcessEnvironment(), "no HOME, no file, no keys")
    }
}
