import Replication
import Sodium

/// An epoch's transport and vault keys as the roster carries them: boxed to each recipient (a
/// member device, or the recovery authority, named by the empty id), with the commitments every
/// recipient checks its boxes against (one per key, so a locked device checks its transport key
/// alone) and, for every epoch after the first, the proof that the entry's signer held the
/// previous vault key (docs/devices.md, "Keys").
public struct EpochKeyBoxes: Sendable, Equatable {
    /// The recipient id of the recovery authority (no device id is empty).
    public static let recoveryRecipient = ""
    public static let maximumRecipients = 1_025
    static let boxCount = 32 + BoxKeyPair.overhead

    public struct Box: Sendable, Equatable {
        public let recipient: String
        public let transport: [UInt8]
        public let vault: [UInt8]

        public init(recipient: String, transport: [UInt8], vault: [UInt8]) {
            self.recipient = recipient
            self.transport = transport
            self.vault = vault
        }
    }

    public let epoch: UInt32
    public let transportCommit: [UInt8]
    public let vaultCommit: [UInt8]
    /// In ascending order of recipient bytes, each recipient once.
    public let boxes: [Box]
    /// Zeros for the first epoch.
    public let proof: [UInt8]

    public init(epoch: UInt32, transportCommit: [UInt8], vaultCommit: [UInt8], boxes: [Box], proof: [UInt8]) {
        self.epoch = epoch
        self.transportCommit = transportCommit
        self.vaultCommit = vaultCommit
        self.boxes = boxes
        self.proof = proof
    }

    func encode(into writer: inout ByteWriter) {
        writer.u32(epoch)
        writer.fixed(transportCommit)
        writer.fixed(vaultCommit)
        writer.u16(UInt16(boxes.count))
        for box in boxes {
            writer.string(box.recipient)
            writer.fixed(box.transport)
            writer.fixed(box.vault)
        }
        writer.fixed(proof)
    }

    static func decode(from reader: inout ByteReader) throws -> EpochKeyBoxes {
        let epoch = try reader.u32()
        guard epoch >= 1 else { throw RosterFormatError("epochs start at 1") }
        let transportCommit = try reader.fixed(SignedFrame.hashCount), vaultCommit = try reader.fixed(SignedFrame.hashCount)
        let count = Int(try reader.u16())
        guard (1...maximumRecipients).contains(count) else { throw RosterFormatError("an epoch is boxed to \(count) recipients") }
        var boxes: [Box] = []
        for _ in 0..<count {
            let recipient = try reader.string(maximum: 128)
            guard recipient == recoveryRecipient || VersionContext.isDeviceName(recipient) else { throw RosterFormatError("a recipient is not a device id") }
            if let last = boxes.last, !last.recipient.utf8.lexicographicallyPrecedes(recipient.utf8) {
                throw RosterFormatError("recipients are not in ascending order, or one repeats")
            }
            boxes.append(Box(recipient: recipient, transport: try reader.fixed(boxCount), vault: try reader.fixed(boxCount)))
        }
        return EpochKeyBoxes(epoch: epoch, transportCommit: transportCommit, vaultCommit: vaultCommit, boxes: boxes, proof: try reader.fixed(SignedFrame.hashCount))
    }

    /// The same boxes with `proof` in place.
    public func proved(_ proof: [UInt8]) -> EpochKeyBoxes {
        EpochKeyBoxes(epoch: epoch, transportCommit: transportCommit, vaultCommit: vaultCommit, boxes: boxes, proof: proof)
    }
}
