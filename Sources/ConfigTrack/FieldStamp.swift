import Replication

/// The version of one field group's value and its write context: what its writer had seen of
/// that group when it wrote (fixed then, never joined afterwards).
struct FieldStamp: Sendable, Hashable {
    let version: RecordVersion
    let context: VersionContext

    /// The stamp of a value written by `version` after its writer held `previous`.
    init(writing version: RecordVersion, after previous: FieldStamp?) {
        self.version = version
        context = (previous?.context ?? VersionContext()).advanced(to: version)
    }

    init(version: RecordVersion, context: VersionContext) {
        self.version = version
        self.context = context
    }

    /// The stamp every group of a format-1 record (or of a row with no `fields`) has.
    static func only(_ version: RecordVersion) -> FieldStamp { FieldStamp(version: version, context: VersionContext(only: version)) }

    /// The stamp of a group no device has written: one added to its kind after an older build
    /// wrote the record (`FieldGroup.since`), or left at its unwritten values by a new record.
    /// Every write beats it, and nothing is kept as a conflict against it: nobody wrote it.
    static let unwritten = FieldStamp(version: RecordVersion(clock: 0, device: ""), context: VersionContext())

    /// Whether this is `.unwritten` (no device writes with an empty id).
    var isUnwritten: Bool { version.device.isEmpty }

    /// Whether this is `.only(recordVersion)`, asked without building that stamp: every stamp of
    /// every record is asked this when it is stored or sent.
    func isOnly(_ recordVersion: RecordVersion) -> Bool {
        version == recordVersion && (version.clock == 0 ? context.isEmpty : context.isOnly(version))
    }

    /// Tag 0 when the stamp is `only(recordVersion)`, tag 2 when it is `unwritten`, else tag 1,
    /// the version and the context.
    func encode(into writer: inout ByteWriter, recordVersion: RecordVersion) {
        if isUnwritten { return writer.u8(2) }
        if isOnly(recordVersion) { return writer.u8(0) }
        writer.u8(1)
        writer.u64(version.clock)
        writer.string(version.device)
        context.encode(into: &writer)
    }

    /// Reads a stamp written by `encode`, refusing anything not canonical or not a write context.
    /// (Which groups may be unwritten is the payload's rule: `FieldPayload.decode`.)
    static func decode(from reader: inout ByteReader, recordVersion: RecordVersion) throws -> FieldStamp {
        switch try reader.u8() {
        case 0: return .only(recordVersion)
        case 2: return .unwritten
        case 1:
            let version = RecordVersion(clock: try reader.u64(), device: try reader.string(maximum: 128))
            let stamp = FieldStamp(version: version, context: try VersionContext.decode(from: &reader))
            guard !stamp.isOnly(recordVersion), VersionContext.isDeviceName(version.device), stamp.context.isWriteContext(of: version), version <= recordVersion else {
                throw ReplicationError(.malformed, "A field version is not canonical.")
            }
            return stamp
        default:
            throw ReplicationError(.malformed, "A field version has an unknown tag.")
        }
    }

    // MARK: - A row's stamps, as stored in its `fields` column

    /// The stamps of a row for its `fields` column: nil when every group is `only(recordVersion)`.
    static func stored(_ stamps: [FieldStamp], recordVersion: RecordVersion) -> [UInt8]? {
        if stamps.allSatisfy({ $0.isOnly(recordVersion) }) { return nil }
        var writer = ByteWriter()
        writer.u16(UInt16(stamps.count))
        for stamp in stamps { stamp.encode(into: &writer, recordVersion: recordVersion) }
        return writer.bytes
    }

    /// A row's stamps from its `fields` column (`count` groups).
    static func fromStorage(_ blob: [UInt8]?, recordVersion: RecordVersion, count: Int) throws -> [FieldStamp] {
        guard let blob else { return Array(repeating: .only(recordVersion), count: count) }
        var reader = ByteReader(blob)
        guard Int(try reader.u16()) == count else { throw ReplicationError(.malformed, "A record's field versions do not match its kind.") }
        let stamps = try (0..<count).map { _ in try decode(from: &reader, recordVersion: recordVersion) }
        guard reader.isAtEnd else { throw ReplicationError(.malformed, "A record's field versions have trailing bytes.") }
        return stamps
    }
}
