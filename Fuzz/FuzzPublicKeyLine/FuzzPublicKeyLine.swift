import CredentialVault
import FuzzSupport
import Sodium

/// OpenSSH public key lines (`FILE.pub`, `identity add --public-key`, import): selector 0 reads
/// the rest as the line's text; otherwise the rest is a key blob in SSH wire format, put in a
/// line as `TYPE BASE64 COMMENT` with the type it names, so the wire reader sees the fuzzer's
/// bytes. A line that parses must print as a line that parses to the same key.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPublicKeyLine(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let text: String
    if input.byte() % 2 == 0 {
        text = String(decoding: input.rest(), as: UTF8.self)
    } else {
        let comment = input.text()
        let blob = input.rest()
        var type = "ssh-ed25519"
        if blob.count >= 4 {
            let length = blob.prefix(4).reduce(0) { $0 << 8 | Int($1) }
            if length <= blob.count - 4 { type = String(decoding: blob[4..<(4 + length)], as: UTF8.self) }
        }
        text = "\(type) \(Base64.encode(blob)) \(comment)"
    }
    guard let line = try? PublicKeyLine(parsing: text) else { return 0 }
    guard let again = try? PublicKeyLine(parsing: line.text) else {
        FuzzFixtures.require(false, "a parsed public key line prints as one that does not parse")
        return 0
    }
    FuzzFixtures.require(again.keyType == line.keyType && again.blob == line.blob, "a public key line reads back as another key")
    return 0
}
