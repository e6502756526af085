import Sodium

/// The wire form of a batch: a canonical binary encoding, sealed with the transport key and
/// bound to its zone, device and sequence, so an object moved to another name does not open.
///
///     format (1) | zone | device | sequence | count | count × length-prefixed envelope
///     envelope: name | kind | format version | clock | writer | deleted | incarnation | payload | BLAKE2b(payload)
///
/// Each envelope is framed on its own, so one bad envelope is rejected alone.
public enum BatchCodec {
    public static let formatVersion: UInt8 = 1
    package static let purpose = SealPurpose(tag: 3, label: "credvault/v1/batch")

    public static func seal(_ batch: Batch, transportKey: SecretBytes) throws -> [UInt8] {
        try seal(batch, with: TransportKeySeal(key: transportKey))
    }

    public static func seal(_ batch: Batch, with seal: any ObjectSeal) throws -> [UInt8] {
        var writer = ByteWriter()
        writer.u8(formatVersion)
        writer.string(batch.zone)
        writer.string(batch.device)
        writer.u64(batch.sequence)
        writer.u32(UInt32(batch.envelopes.count))
        for envelope in batch.envelopes { writer.data(encode(envelope)) }
        return try seal.seal(writer.bytes, name: batch.objectName, purpose: purpose,
                             context: context(zone: batch.zone, device: batch.device, sequence: batch.sequence))
    }

    /// Opens the object published as `zone`/`device`/`sequence`. Throws `authenticationFailed`
    /// (another key, altered, or incomplete), `unsupportedFormat` or `malformed` for the whole
    /// object; returns envelopes that could not be read as `rejected`.
    public static func open(_ sealed: [UInt8], zone: String, device: String, sequence: UInt64,
                            transportKey: SecretBytes) throws -> (envelopes: [Envelope], rejected: [RejectedEnvelope]) {
        try open(sealed, zone: zone, device: device, sequence: sequence, with: TransportKeySeal(key: transportKey))
    }

    public static func open(_ sealed: [UInt8], zone: String, device: String, sequence: UInt64,
                            with seal: any ObjectSeal) throws -> (envelopes: [Envelope], rejected: [RejectedEnvelope]) {
        let name = Batch.objectName(zone: zone, device: device, sequence: sequence)
        var reader = ByteReader(try seal.open(sealed, name: name, writer: device, purpose: purpose, context: context(zone: zone, device: device, sequence: sequence)))
        do {
            let format = try reader.u8()
            guard format == formatVersion else { throw ReplicationError(.unsupportedFormat, "Batch \(name) has format version \(format); this build reads \(formatVersion).") }
            guard try reader.string() == zone, try reader.string() == device, try reader.u64() == sequence else {
                throw ReplicationError(.malformed, "Batch \(name) names another zone, device or sequence inside.")
            }
            let count = Int(try reader.u32())
            guard count <= Batch.maximumChanges else { throw ReplicationError(.malformed, "Batch \(name) claims \(count) changes.") }
            var envelopes: [Envelope] = []
            var rejected: [RejectedEnvelope] = []
            for _ in 0..<count {
                let bytes = try reader.data()
                do {
                    envelopes.append(try decode(bytes))
                } catch let failure as EnvelopeFailure {
                    rejected.append(RejectedEnvelope(recordName: failure.recordName, reason: failure.reason, bytes: bytes))
                }
            }
            guard reader.isAtEnd else { throw ReplicationError(.malformed, "Batch \(name) has trailing bytes.") }
            return (envelopes, rejected)
        } catch is ByteReader.Truncated {
            throw ReplicationError(.malformed, "Batch \(name) is cut short inside.")
        }
    }

    package static func context(zone: String, device: String, sequence: UInt64) -> [UInt8] {
        Array("\(zone)\u{0}\(device)\u{0}\(sequence)".utf8)
    }

    package static func encode(_ envelope: Envelope) -> [UInt8] {
        var writer = ByteWriter()
        writer.string(envelope.recordName)
        writer.string(envelope.kind)
        writer.u16(envelope.formatVersion)
        writer.u64(envelope.version.clock)
        writer.string(envelope.version.device)
        writer.u8(envelope.deleted ? 1 : 0)
        writer.i64(envelope.incarnation)
        writer.data(envelope.payload)
        writer.data(GenericHash.hash(envelope.payload))
        return writer.bytes
    }

    private struct EnvelopeFailure: Error {
        let recordName: String?
        let reason: String
    }

    package static func decode(_ bytes: [UInt8]) throws -> Envelope {
        var reader = ByteReader(bytes)
        var recordName: String?
        do {
            let name = try reader.string()
            recordName = name
            let kind = try reader.string()
            let format = try reader.u16()
            let version = RecordVersion(clock: try reader.u64(), device: try reader.string())
            let deletedFlag = try reader.u8()
            let incarnation = try reader.i64()
            let payload = try reader.data()
            let hash = try reader.data(maximum: 64)
            guard reader.isAtEnd else { throw EnvelopeFailure(recordName: recordName, reason: "trailing bytes after the envelope") }
            guard deletedFlag <= 1 else { throw EnvelopeFailure(recordName: recordName, reason: "invalid deleted flag") }
            // A writer is a device id: one a write context can name (docs/concurrent-edits.md).
            guard VersionContext.isDeviceName(version.device) else { throw EnvelopeFailure(recordName: recordName, reason: "writer out of range") }
            guard hash == GenericHash.hash(payload) else { throw EnvelopeFailure(recordName: recordName, reason: "payload hash mismatch") }
            // A clock far ahead of this machine's would drag every later local edit past it (and
            // eventually out of range); a device days off is fine, a year is not.
            let horizon = (HybridLogicalClock.wallMilliseconds() + 366 * 86_400_000) << HybridLogicalClock.counterBits
            guard version.clock <= min(UInt64(Int64.max), horizon) else { throw EnvelopeFailure(recordName: recordName, reason: "clock out of range") }
            // A new incarnation is the last one plus 1: one at the top of the range could never be followed.
            guard (0...Envelope.maximumIncarnation).contains(incarnation) else { throw EnvelopeFailure(recordName: recordName, reason: "incarnation out of range") }
            guard deletedFlag == 0 || payload.isEmpty else { throw EnvelopeFailure(recordName: recordName, reason: "tombstone with a payload") }
            return Envelope(recordName: name, kind: kind, formatVersion: format, version: version, deleted: deletedFlag == 1,
                            incarnation: incarnation, payload: payload)
        } catch is ByteReader.Truncated {
            throw EnvelopeFailure(recordName: recordName, reason: "malformed envelope")
        }
    }
}
