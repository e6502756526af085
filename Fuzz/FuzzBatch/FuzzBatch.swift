import FuzzSupport
import Replication
import Sodium

/// A batch as a remote serves it. Layout: selector, device selector, sequence (8 bytes), then:
///
/// - selector 0: the rest as the sealed object itself (framing, header, authentication);
/// - selector 1: the rest as one envelope (`BatchCodec.decode`), and as a write context
///   (`VersionContext.decode`), each of which must re-encode to itself;
/// - selector 2: the rest as an object name from a listing (batch or compaction object), which
///   must name itself again once parsed;
/// - otherwise: the rest as a batch's plaintext, sealed first with the fixed test key under the
///   object's name, so the parser behind authentication sees the fuzzer's bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBatch(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let selector = input.byte() % 4
    let device = FuzzFixtures.devices[Int(input.byte()) % FuzzFixtures.devices.count]
    let sequence = input.u64()
    let zone = FuzzFixtures.zone, key = FuzzFixtures.transportKey
    switch selector {
    case 0:
        _ = try? BatchCodec.open(input.rest(), zone: zone, device: device, sequence: sequence, transportKey: key)
    case 1:
        let bytes = input.rest()
        if let envelope = try? BatchCodec.decode(bytes) {
            FuzzFixtures.require(BatchCodec.encode(envelope) == bytes, "a decoded envelope re-encodes to other bytes")
        }
        // The same bytes as a write context (format 2 of config and secret payloads carry them).
        var reader = ByteReader(bytes)
        if let context = try? VersionContext.decode(from: &reader), reader.isAtEnd {
            var writer = ByteWriter()
            context.encode(into: &writer)
            FuzzFixtures.require(writer.bytes == bytes, "a decoded write context re-encodes to other bytes")
        }
    case 2:
        let name = String(decoding: input.rest(), as: UTF8.self)
        if let parsed = BatchObjectName(name, zone: zone), !parsed.isConflictCopy {
            FuzzFixtures.require(Batch.objectName(zone: zone, device: parsed.device, sequence: parsed.sequence) == name, "a batch name does not name itself again")
        }
        if let parsed = CompactionObjectName(name, zone: zone) {
            FuzzFixtures.require(parsed.objectName(zone: zone) == name, "a compaction object name does not name itself again")
        }
    default:
        let sealed = try! SealedBox.seal(input.rest(), key: key, purpose: BatchCodec.purpose,
                                         context: BatchCodec.context(zone: zone, device: device, sequence: sequence))
        guard let opened = try? BatchCodec.open(sealed, zone: zone, device: device, sequence: sequence, transportKey: key) else { return 0 }
        // What opened must survive a round trip through the writer's side unchanged.
        let batch = Batch(zone: zone, device: device, sequence: sequence, envelopes: opened.envelopes)
        let again = try! BatchCodec.open(try! BatchCodec.seal(batch, transportKey: key), zone: zone, device: device, sequence: sequence, transportKey: key)
        FuzzFixtures.require(again.envelopes == opened.envelopes && again.rejected.isEmpty, "an opened batch does not survive sealing again")
    }
    return 0
}
