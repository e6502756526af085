import ConfigTrack
import CredctlKit
import FuzzSupport
import Sodium

/// `credctl inject` templates: the input is the template. Every address found is given a
/// stand-in secret (its own text reversed), and the rendering must be exactly the template
/// with each placeholder replaced by its secret. Each address's path is also read as a
/// reference key would be (`credctl read` accepts both).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTemplate(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let bytes = input.rest()
    let template = TemplateRendering(bytes)
    var secrets: [String: SecretBytes] = [:]
    for address in template.addresses {
        secrets[address] = try! SecretBytes(copying: Array(address.utf8.reversed()))
        _ = try? SecretReference(parsing: String(address.dropFirst("cred://".count)))
    }
    let rendered = try! template.render(secrets)
    var expected: [UInt8] = []
    var literal = 0
    for piece in template.pieces {
        switch piece {
        case .literal(let run):
            expected += run
            literal += run.count
        case .address(let text): expected += text.utf8.reversed()
        }
    }
    FuzzFixtures.require(rendered.withUnsafeBytes { Array($0) } == expected, "a template rendered otherwise than piece by piece")
    // Literal runs cover the template except the placeholders, in order, without overlap.
    if template.addresses.isEmpty { FuzzFixtures.require(literal == bytes.count, "a template without placeholders lost bytes") }
    return 0
}
