import FuzzSupport
import Replication
import Sodium

/// Snapshot parts, snapshot manifests and published cursors as a remote serves them. Layout:
/// selector, device selector, number (8 bytes), part (1 byte), then the rest. The selector picks
/// the kind (part, manifest, cursors) and whether the rest is the sealed object itself or a
/// plaintext sealed first with the fixed test key under the object's name, so the parsers
/// behind authentication see the fuzzer's bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCompaction(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let selector = input.byte() % 6
    let device = FuzzFixtures.devices[Int(input.byte()) % FuzzFixtures.devices.count]
    let number = input.u64()
    let part = Int(input.byte())
    let zone = FuzzFixtures.zone, key = FuzzFixtures.transportKey
    let sealedFirst = selector >= 3
    var bytes = input.rest()

    switch selector % 3 {
    case 0:
        if sealedFirst {
            bytes = try! SealedBox.seal(bytes, key: key, purpose: CompactionCodec.partPurpose, context: CompactionCodec.context(zone, device, number, part: part))
        }
        guard let opened = try? CompactionCodec.openPart(bytes, zone: zone, device: device, number: number, part: part, transportKey: key) else { return 0 }
        let again = try! CompactionCodec.openPart(
            try! CompactionCodec.sealPart(opened.envelopes[...], zone: zone, device: device, number: number, part: part, transportKey: key),
            zone: zone, device: device, number: number, part: part, transportKey: key)
        FuzzFixtures.require(again.envelopes == opened.envelopes && again.rejected.isEmpty, "an opened snapshot part does not survive sealing again")
    case 1:
        if sealedFirst {
            bytes = try! SealedBox.seal(bytes, key: key, purpose: CompactionCodec.manifestPurpose, context: CompactionCodec.context(zone, device, number))
        }
        guard let manifest = try? CompactionCodec.openManifest(bytes, zone: zone, device: device, number: number, transportKey: key) else { return 0 }
        // What the engine computes from every manifest it lists.
        _ = manifest.coverage
        _ = manifest.dominates(manifest)
        _ = manifest.name.objectName(zone: zone)
        let again = try! CompactionCodec.openManifest(try! CompactionCodec.seal(manifest, transportKey: key), zone: zone, device: device, number: number, transportKey: key)
        FuzzFixtures.require(again == manifest, "an opened manifest does not survive sealing again")
    default:
        if sealedFirst {
            bytes = try! SealedBox.seal(bytes, key: key, purpose: CompactionCodec.cursorsPurpose, context: CompactionCodec.context(zone, device, number))
        }
        guard let cursors = try? CompactionCodec.openCursors(bytes, zone: zone, device: device, number: number, transportKey: key) else { return 0 }
        _ = cursors.name.objectName(zone: zone)
        let again = try! CompactionCodec.openCursors(try! CompactionCodec.seal(cursors, transportKey: key), zone: zone, device: device, number: number, transportKey: key)
        FuzzFixtures.require(again == cursors, "opened published cursors do not survive sealing again")
    }
    return 0
}
