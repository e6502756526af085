import CredentialVault
import FuzzSupport
import Sodium

/// Private key files as `identity add --private-key` reads them (with `FILE.pub` beside them).
///
/// - selector 0: the rest is the whole file, no `.pub`;
/// - selector 1: a `.pub` text field, then the whole file;
/// - otherwise the fuzzer's bytes are the binary inside the armour, so it reaches the DER and
///   SSH wire readers without having to write Base64: a label selector (the PEM private key
///   labels and `OPENSSH PRIVATE KEY`), an optional `Proc-Type: 4,ENCRYPTED` header, a public
///   key blob field that becomes the `.pub` line (`TYPE BASE64`, the type read from the blob),
///   then the binary body, Base64-wrapped at 64 columns.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPrivateKey(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let selector = input.byte() % 3
    let file: [UInt8]
    var publicKeyLine: String?
    switch selector {
    case 0:
        file = input.rest()
    case 1:
        publicKeyLine = input.text()
        file = input.rest()
    default:
        let labels = ["OPENSSH PRIVATE KEY", "RSA PRIVATE KEY", "EC PRIVATE KEY", "DSA PRIVATE KEY", "PRIVATE KEY", "ENCRYPTED PRIVATE KEY"]
        let flags = input.byte()
        let label = labels[Int(flags & 0x7F) % labels.count]
        let blob = input.field()
        if !blob.isEmpty { publicKeyLine = "\(typeName(blob)) \(Base64.encode(blob)) fuzz@example" }
        let header = flags & 0x80 != 0 ? "Proc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,00112233445566778899AABBCCDDEEFF\n\n" : ""
        let body = Base64.encode(input.rest())
        let lines = stride(from: 0, to: body.count, by: 64).map { start in
            String(body.dropFirst(start).prefix(64))
        }
        file = Array("-----BEGIN \(label)-----\n\(header)\(lines.joined(separator: "\n"))\n-----END \(label)-----\n".utf8)
    }
    guard let body = try? SecretBytes(copying: file) else { return 0 }
    guard let key = try? PrivateKeyFile.parse(body: body, publicKeyLine: publicKeyLine) else { return 0 }
    // What import stores as the identity's public key must read back as a public key line.
    FuzzFixtures.require(key.publicKey.hasPrefix(key.keyType.rawValue + " "), "an imported key's public key line does not name its type")
    FuzzFixtures.require((try? PublicKeyLine(parsing: key.publicKey)) != nil, "an imported key's public key line does not parse")
    return 0
}

/// The type name an SSH public key blob begins with (a 32-bit length, then the name), or
/// `ssh-rsa` when the blob is too short to hold one.
private func typeName(_ blob: [UInt8]) -> String {
    guard blob.count >= 4 else { return "ssh-rsa" }
    let length = blob.prefix(4).reduce(0) { $0 << 8 | Int($1) }
    guard length <= blob.count - 4 else { return "ssh-rsa" }
    return String(decoding: blob[4..<(4 + length)], as: UTF8.self)
}
