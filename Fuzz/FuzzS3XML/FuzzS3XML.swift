import FuzzSupport
import S3

/// An S3 response body as a store (or anything answering on its address) sends it: every value
/// the client reads from listings and errors, and the entity decoding on its own.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzS3XML(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let body = input.rest()
    for element in ["Key", "Size", "IsTruncated", "NextContinuationToken", "Code", "Message"] {
        for value in S3XML.values(element, in: body) {
            // The listing reads sizes as Int64 and keys as names.
            _ = Int64(value)
            _ = value.hasPrefix("zones/")
        }
    }
    let text = String(decoding: body, as: UTF8.self)
    let decoded = S3XML.decode(text)
    // Decoding only ever shortens: each entity stands for at most one character.
    FuzzFixtures.require(decoded.unicodeScalars.count <= text.unicodeScalars.count, "entity decoding made the text longer")
    return 0
}
