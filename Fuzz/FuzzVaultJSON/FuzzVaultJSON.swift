import FuzzSupport
import JSON
import Membership
import Replication
import Sodium

/// `vault.json` as a remote serves it, and any bytes through the JSON parser beneath it: read as format 2 (vault id and genesis), and as format 1 read for its vault id (no passphrase), then opened with
/// the fixed passphrase the seeds were written with.
///
/// Opening runs Argon2id with the parameters the file names. Parameters a tampered file can
/// name are bounded by the library (up to 64 passes over 4 GiB), which is a real cost, not a
/// defect, and would only make the fuzzer slow; so only files naming the cheapest parameters
/// are opened here, and the rest of the file is still fuzzed through the id read.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVaultJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let bytes = input.rest()
    // The parser under every JSON document: what it reads, written again, reads as the same value.
    if let value = try? JSONParser.parse(bytes) {
        for pretty in [false, true] {
            FuzzFixtures.require((try? JSONParser.parse(JSONWriter.write(value, pretty: pretty))) == value, "a JSON value does not read back as written")
        }
    }
    // Format 2 first: what every build now reads; one that reads back must write itself again.
    if let document = try? VaultDocument.decode(bytes) {
        FuzzFixtures.require((try? VaultDocument.decode(document.encoded)) == document, "vault.json of format 2 does not read back as written")
    }
    guard (try? RemoteVaultKeys.vaultID(in: bytes)) != nil else { return 0 }
    guard let cost = try? JSONCodec.decode(Cost.self, from: bytes), cost.opsLimit <= 1, cost.memLimit <= 8_192 else { return 0 }
    if let keys = try? RemoteVaultKeys.open(bytes, passphrase: FuzzFixtures.syncPassphrase) {
        FuzzFixtures.require(keys.vaultKey.count == SealedBox.keyCount && keys.transportKey.count == SealedBox.keyCount, "vault.json opened to keys of the wrong size")
    }
    return 0
}

/// The two fields that decide what opening costs.
private struct Cost: Decodable {
    let opsLimit: UInt64
    let memLimit: UInt64

    enum CodingKeys: String, CodingKey {
        case opsLimit = "ops_limit"
        case memLimit = "mem_limit"
    }
}
