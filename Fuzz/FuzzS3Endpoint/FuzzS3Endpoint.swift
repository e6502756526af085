import FuzzSupport
import S3

/// An S3 address and endpoint as a user types them or remote.json keeps them: whatever is
/// accepted must describe itself in words that are accepted again as the same location, and
/// plain HTTP must be flagged wherever the host is not loopback.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzS3Endpoint(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let pathStyle = input.byte() & 1 == 1
    let text = String(decoding: input.rest(), as: UTF8.self)
    let parts = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
    let url = parts[0], endpoint = parts.count > 1 ? parts[1] : nil
    guard let location = try? S3Location(url: url, endpoint: endpoint, region: nil, pathStyle: pathStyle) else { return 0 }
    let again = try? S3Location(url: location.url, endpoint: location.endpoint, region: location.region, pathStyle: location.pathStyle)
    FuzzFixtures.require(again == location, "an accepted S3 location does not read back as itself")
    if location.endpoint.hasPrefix("https://") { FuzzFixtures.require(!location.isInsecureRemote, "https flagged as insecure") }
    return 0
}
