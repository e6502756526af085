import Sodium

/// The wire form of compaction objects — snapshot parts, snapshot manifests, published cursors —
/// each sealed with the transport key under its own purpose and bound to its zone, device,
/// number (and part), so no object opens under another name.
///
///     part:     format (1) | count | count × length-prefixed envelope (as in batches)
///     manifest: format (1) | zone | device | number | created at | vector | parts × (count, digest)
///     cursors:  format (1) | zone | device | number | written at | vector
///     vector:   count | count × (device, sequence), sorted by device
public enum CompactionCodec {
    public static let formatVersion: UInt8 = 1
    package static let partPurpose = SealPurpose(tag: 6, label: "credvault/v1/snapshot-part")
    package static let manifestPurpose = SealPurpose(tag: 7, label: "credvault/v1/snapshot-manifest")
    package static let cursorsPurpose = SealPurpose(tag: 8, label: "credvault/v1/published-cursors")
    /// More envelopes than any snapshot part is written with: a larger count is damage.
    static let maximumPartEnvelopes = 100_000

    // MARK: - Snapshot parts

    public static func sealPart(_ envelopes: ArraySlice<Envelope>, zone: String, device: String, number: UInt64, part: Int, transportKey: SecretBytes) throws -> [UInt8] {
        try sealPart(envelopes, zone: zone, device: device, number: number, part: part, with: TransportKeySeal(key: transportKey))
    }

    public static func sealPart(_ envelopes: ArraySlice<Envelope>, zone: String, device: String, number: UInt64, part: Int, with seal: any ObjectSeal) throws -> [UInt8] {
        var writer = ByteWriter()
        writer.u8(formatVersion)
        writer.u32(UInt32(envelopes.count))
        for envelope in envelopes { writer.data(BatchCodec.encode(envelope)) }
        let name = CompactionObjectName(device: device, number: number, kind: .snapshotPart(part)).objectName(zone: zone)
        return try seal.seal(writer.bytes, name: name, purpose: partPurpose, context: context(zone, device, number, part: part))
    }

    /// The part's envelopes, and those that could not be read (kept apart, as in batches).
    public static func openPart(_ sealed: [UInt8], zone: String, device: String, number: UInt64, part: Int,
                                transportKey: SecretBytes) throws -> (envelopes: [Envelope], rejected: [RejectedEnvelope]) {
        try openPart(sealed, zone: zone, device: device, number: number, part: part, with: TransportKeySeal(key: transportKey))
    }

    public static func openPart(_ sealed: [UInt8], zone: String, device: String, number: UInt64, part: Int,
                                with seal: any ObjectSeal) throws -> (envelopes: [Envelope], rejected: [RejectedEnvelope]) {
        let what = "Snapshot \(number) of \(device) (part \(part))"
        let name = CompactionObjectName(device: device, number: number, kind: .snapshotPart(part)).objectName(zone: zone)
        return try reading(sealed, what, name: name, writer: device, purpose: partPurpose, context: context(zone, device, number, part: part), seal: seal) { reader in
            try checkFormat(&reader, what)
            let count = Int(try reader.u32())
            guard count <= maximumPartEnvelopes else { throw ReplicationError(.malformed, "\(what) claims \(count) changes.") }
            var envelopes: [Envelope] = []
            var rejected: [RejectedEnvelope] = []
            envelopes.reserveCapacity(count)
            for _ in 0..<count {
                let bytes = try reader.data()
                if let envelope = try? BatchCodec.decode(bytes) {
                    envelopes.append(envelope)
                } else {
                    rejected.append(RejectedEnvelope(recordName: nil, reason: "unreadable envelope in a snapshot", bytes: bytes))
                }
            }
            return (envelopes, rejected)
        }
    }

    // MARK: - Manifests

    public static func seal(_ manifest: SnapshotManifest, transportKey: SecretBytes) throws -> [UInt8] {
        try seal(manifest, with: TransportKeySeal(key: transportKey))
    }

    public static func seal(_ manifest: SnapshotManifest, with seal: any ObjectSeal) throws -> [UInt8] {
        var writer = header(zone: manifest.zone, device: manifest.device, number: manifest.number, time: manifest.createdAt, cursors: manifest.cursors)
        writer.u32(UInt32(manifest.parts.count))
        for part in manifest.parts {
            writer.u32(UInt32(part.count))
            writer.data(part.digest)
        }
        return try seal.seal(writer.bytes, name: manifest.name.objectName(zone: manifest.zone), purpose: manifestPurpose,
                             context: context(manifest.zone, manifest.device, manifest.number))
    }

    public static func openManifest(_ sealed: [UInt8], zone: String, device: String, number: UInt64, transportKey: SecretBytes) throws -> SnapshotManifest {
        try openManifest(sealed, zone: zone, device: device, number: number, with: TransportKeySeal(key: transportKey))
    }

    public static func openManifest(_ sealed: [UInt8], zone: String, device: String, number: UInt64, with seal: any ObjectSeal) throws -> SnapshotManifest {
        let what = "Snapshot manifest \(number) of \(device)"
        let name = CompactionObjectName(device: device, number: number, kind: .snapshotManifest).objectName(zone: zone)
        return try reading(sealed, what, name: name, writer: device, purpose: manifestPurpose, context: context(zone, device, number), seal: seal) { reader in
            let (createdAt, cursors) = try readHeader(&reader, what, zone: zone, device: device, number: number)
            let count = Int(try reader.u32())
            guard count <= 1_000_000 else { throw ReplicationError(.malformed, "\(what) claims \(count) parts.") }
            var parts: [SnapshotManifest.Part] = []
            for _ in 0..<count { parts.append(SnapshotManifest.Part(count: Int(try reader.u32()), digest: try reader.data(maximum: 64))) }
            return SnapshotManifest(zone: zone, device: device, number: number, createdAt: createdAt, cursors: cursors, parts: parts)
        }
    }

    // MARK: - Published cursors

    public static func seal(_ published: PublishedCursors, transportKey: SecretBytes) throws -> [UInt8] {
        try seal(published, with: TransportKeySeal(key: transportKey))
    }

    public static func seal(_ published: PublishedCursors, with seal: any ObjectSeal) throws -> [UInt8] {
        let writer = header(zone: published.zone, device: published.device, number: published.number, time: published.writtenAt, cursors: published.cursors)
        return try seal.seal(writer.bytes, name: published.name.objectName(zone: published.zone), purpose: cursorsPurpose,
                             context: context(published.zone, published.device, published.number))
    }

    public static func openCursors(_ sealed: [UInt8], zone: String, device: String, number: UInt64, transportKey: SecretBytes) throws -> PublishedCursors {
        try openCursors(sealed, zone: zone, device: device, number: number, with: TransportKeySeal(key: transportKey))
    }

    public static func openCursors(_ sealed: [UInt8], zone: String, device: String, number: UInt64, with seal: any ObjectSeal) throws -> PublishedCursors {
        let what = "Published cursors \(number) of \(device)"
        let name = CompactionObjectName(device: device, number: number, kind: .cursors).objectName(zone: zone)
        return try reading(sealed, what, name: name, writer: device, purpose: cursorsPurpose, context: context(zone, device, number), seal: seal) { reader in
            let (writtenAt, cursors) = try readHeader(&reader, what, zone: zone, device: device, number: number)
            return PublishedCursors(zone: zone, device: device, number: number, writtenAt: writtenAt, cursors: cursors)
        }
    }

    // MARK: - Shared framing

    /// The header manifests and published cursors share (package-visible for the fuzz seeds).
    package static func header(zone: String, device: String, number: UInt64, time: UInt64, cursors: [String: UInt64]) -> ByteWriter {
        var writer = ByteWriter()
        writer.u8(formatVersion)
        writer.string(zone)
        writer.string(device)
        writer.u64(number)
        writer.u64(time)
        writer.u32(UInt32(cursors.count))
        for (device, sequence) in cursors.sorted(by: { $0.key < $1.key }) {
            writer.string(device)
            writer.u64(sequence)
        }
        return writer
    }

    private static func readHeader(_ reader: inout ByteReader, _ what: String, zone: String, device: String, number: UInt64) throws -> (UInt64, [String: UInt64]) {
        try checkFormat(&reader, what)
        guard try reader.string() == zone, try reader.string() == device, try reader.u64() == number else {
            throw ReplicationError(.malformed, "\(what) names another zone, device or number inside.")
        }
        let time = try reader.u64()
        let count = Int(try reader.u32())
        guard count <= 100_000 else { throw ReplicationError(.malformed, "\(what) claims \(count) devices.") }
        var cursors: [String: UInt64] = [:]
        for _ in 0..<count {
            let device = try reader.string(), sequence = try reader.u64()
            guard sequence <= Batch.maximumSequence else { throw ReplicationError(.malformed, "\(what) claims sequence \(sequence), beyond any device's.") }
            cursors[device] = sequence
        }
        return (time, cursors)
    }

    private static func checkFormat(_ reader: inout ByteReader, _ what: String) throws {
        let format = try reader.u8()
        guard format == formatVersion else { throw ReplicationError(.unsupportedFormat, "\(what) has format version \(format); this build reads \(formatVersion).") }
    }

    /// Opens `sealed` and reads it with `body`, which must consume every byte.
    private static func reading<T>(_ sealed: [UInt8], _ what: String, name: String, writer: String, purpose: SealPurpose, context: [UInt8],
                                   seal: any ObjectSeal, _ body: (inout ByteReader) throws -> T) throws -> T {
        var reader = ByteReader(try seal.open(sealed, name: name, writer: writer, purpose: purpose, context: context))
        do {
            let value = try body(&reader)
            guard reader.isAtEnd else { throw ReplicationError(.malformed, "\(what) has trailing bytes.") }
            return value
        } catch is ByteReader.Truncated {
            throw ReplicationError(.malformed, "\(what) is cut short inside.")
        }
    }

    package static func context(_ zone: String, _ device: String, _ number: UInt64, part: Int? = nil) -> [UInt8] {
        Array("\(zone)\u{0}\(device)\u{0}\(number)\(part.map { "\u{0}\($0)" } ?? "")".utf8)
    }
}
