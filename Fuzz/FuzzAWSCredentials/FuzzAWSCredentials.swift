import FuzzSupport
import S3
import Sodium

/// An AWS shared credentials file (`~/.aws/credentials`, or `AWS_SHARED_CREDENTIALS_FILE`),
/// read for a profile named by the input's first field (or `default`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAWSCredentials(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let profile = input.byte() & 1 == 0 ? "default" : input.text()
    guard let file = try? SecretBytes(copying: input.rest()) else { return 0 }
    if let credentials = try? SharedCredentialsFile.credentials(in: file, profile: profile, path: "/fuzz/credentials") {
        FuzzFixtures.require(!credentials.accessKeyID.isEmpty, "credentials read with an empty access key id")
    }
    return 0
}
