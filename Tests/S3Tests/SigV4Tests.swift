@testable import S3
import Sodium
import XCTest

final class SigV4Tests: XCTestCase {
    /// The GET Object example of AWS's Signature Version 4 documentation.
    func testTheDocumentedGetObjectExampleSignsAlike() throws {
        let signer = SigV4(credentials: S3Credentials(accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: try SecretBytes(utf8: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")),
                           region: "us-east-1")
        let header = try signer.authorization(method: "GET", path: "/test.txt", query: [], headers: [
            "Host": "examplebucket.s3.amazonaws.com", "Range": "bytes=0-9", "x-amz-content-sha256": SigV4.emptyPayloadHash, "x-amz-date": "20130524T000000Z",
        ], payloadHash: SigV4.emptyPayloadHash, amzDate: "20130524T000000Z")
        XCTAssertEqual(header, "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
    }

    func testQueryValuesEncodeEverySlash() {
        XCTAssertEqual(SigV4.encode("zones/config/a b~"), "zones%2Fconfig%2Fa%20b~")
        XCTAssertEqual(SigV4.encode("zones/config/a b", keepSlash: true), "zones/config/a%20b")
    }

    func testSharedCredentialsFileProfiles() throws {
        let file = try SecretBytes(utf8: "# comment\n[default]\naws_access_key_id = AKDEFAULT\naws_secret_access_key=s3cr3t/default\n\n[work]\r\naws_access_key_id=AKWORK\r\naws_secret_access_key = work secret\r\naws_session_token = tok\r\n")
        let work = try SharedCredentialsFile.credentials(in: file, profile: "work", path: "f")
        XCTAssertEqual(work.accessKeyID, "AKWORK")
        XCTAssertEqual(work.secretAccessKey, try SecretBytes(utf8: "work secret"))
        XCTAssertEqual(work.sessionToken, "tok")
        XCTAssertEqual(try SharedCredentialsFile.credentials(in: file, profile: "default", path: "f").secretAccessKey, try SecretBytes(utf8: "s3cr3t/default"))
        XCTAssertThrowsError(try SharedCredentialsFile.credentials(in: file, profile: "missing", path: "f"))
    }
}
