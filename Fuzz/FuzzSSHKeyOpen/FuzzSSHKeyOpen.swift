import FuzzSupport
import KeyFormats
import Sodium
import SSHKeys

/// Private key files as the agent opens them (`SSHSigningKey`), with a passphrase and the
/// public blob the vault recorded.
///
/// - a selector byte, a passphrase field (empty: none), a public blob field;
/// - selector 0: the rest is the whole file;
/// - selector 1: a label byte (the labels of `PEMArmor.privateKeyLabels`, sorted), then the
///   binary inside the armour, which the harness Base64-wraps, so the fuzzer reaches the
///   OpenSSH envelope, the private section, DER and OpenSSL without writing Base64.
///
/// An empty blob field stands for the envelope's own public blob, so OpenSSH keys get past the
/// blob check to their private section. An OpenSSH key encrypted with more than 2 bcrypt rounds
/// is not opened (each round costs milliseconds by design). What opens must sign, and its
/// signature must name the key's algorithm.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSSHKeyOpen(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let selector = input.byte() % 2
    let passphraseBytes = input.field()
    var publicBlob = input.field()
    let file: [UInt8]
    if selector == 0 {
        file = input.rest()
    } else {
        let labels = PEMArmor.privateKeyLabels.sorted()
        let label = labels[Int(input.byte()) % labels.count]
        let body = Base64.encode(input.rest())
        let lines = stride(from: 0, to: body.count, by: 64).map { String(body.dropFirst($0).prefix(64)) }
        file = Array("-----BEGIN \(label)-----\n\(lines.joined(separator: "\n"))\n-----END \(label)-----\n".utf8)
    }
    guard let body = try? SecretBytes(copying: file) else { return 0 }
    if let envelope = openSSHEnvelope(body) {
        guard !envelope.encrypted || envelope.rounds <= 2 else { return 0 }
        if publicBlob.isEmpty { publicBlob = envelope.publicBlob }
    }
    let passphrase = passphraseBytes.isEmpty ? nil : try? SecretBytes(copying: passphraseBytes)
    guard let key = try? SSHSigningKey(privateKey: body, passphrase: passphrase, publicBlob: publicBlob) else { return 0 }
    FuzzFixtures.require((try? SSHWireReader.typeName(of: key.publicBlob)) == key.keyType, "an opened key's type is not its blob's")
    guard let signature = try? key.sign([1, 2, 3], flags: SSHSigningKey.rsaSHA512Flag) else {
        FuzzFixtures.require(false, "an opened key does not sign")
        return 0
    }
    let expected = key.keyType == "ssh-rsa" ? "rsa-sha2-512" : key.keyType
    FuzzFixtures.require((try? SSHWireReader.typeName(of: signature)) == expected, "a signature does not name the key's algorithm")
    return 0
}

/// The envelope of an `OPENSSH PRIVATE KEY` file, if `body` is one.
private func openSSHEnvelope(_ body: SecretBytes) -> (encrypted: Bool, rounds: UInt32, publicBlob: [UInt8])? {
    guard let armor = try? body.withUnsafeBytes({ try PEMArmor(parsing: $0) }), armor.label == "OPENSSH PRIVATE KEY" else { return nil }
    return try? armor.decoded.withUnsafeBytes { bytes in
        let envelope = try OpenSSHKeyEnvelope(parsing: bytes)
        return (envelope.isEncrypted, envelope.rounds, envelope.publicBlob)
    }
}
