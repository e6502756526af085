import Sodium

/// The signed frame every object a device writes travels in (docs/devices.md, "Objects and
/// signatures"): who wrote it, under which epoch and which roster, what it follows, and its body,
/// signed with the writer's Ed25519 key over the vault, the genesis and the object's name — so a
/// frame altered, moved to another name, or carried to another vault or history fails.
///
/// ```
/// frame := "CS" | u8 version | string signer | u32 epoch | u64 roster length | hash[32] roster head
///          | hash[32] previous | data body | signature[64]
/// ```
public struct SignedFrame: Sendable, Equatable {
    public static let version: UInt8 = 1
    static let magic: [UInt8] = [0x43, 0x53]  // "CS"
    static let domain = Array("credvault/v2/object".utf8) + [0]
    public static let hashCount = 32
    /// Bodies are capped as every remote object is.
    public static let maximumBody = 64 << 20

    /// Where a frame belongs: signed with it, never stored in it.
    public struct Place: Sendable, Equatable {
        public let vaultID: String
        public let genesis: [UInt8]
        public let objectName: String

        public init(vaultID: String, genesis: [UInt8], objectName: String) {
            self.vaultID = vaultID
            self.genesis = genesis
            self.objectName = objectName
        }
    }

    public let signer: String
    public let epoch: UInt32
    /// The roster its writer had verified when it wrote: a reader that knows less learns there
    /// is more before it applies the object.
    public let rosterLength: UInt64
    public let rosterHead: [UInt8]
    /// The hash of the writer's previous object in the chain it extends (zeros for none).
    public let previous: [UInt8]
    public let body: [UInt8]

    public init(signer: String, epoch: UInt32, rosterLength: UInt64, rosterHead: [UInt8], previous: [UInt8], body: [UInt8]) {
        self.signer = signer
        self.epoch = epoch
        self.rosterLength = rosterLength
        self.rosterHead = rosterHead
        self.previous = previous
        self.body = body
    }

    /// The frame's bytes up to its signature.
    private var unsigned: [UInt8] {
        var writer = ByteWriter()
        writer.fixed(Self.magic)
        writer.u8(Self.version)
        writer.string(signer)
        writer.u32(epoch)
        writer.u64(rosterLength)
        writer.fixed(rosterHead)
        writer.fixed(previous)
        writer.data(body)
        return writer.bytes
    }

    /// What the signature covers: the domain, the place, and the frame up to the signature.
    private static func message(_ unsigned: [UInt8], at place: Place) -> [UInt8] {
        var writer = ByteWriter()
        writer.fixed(domain)
        writer.string(place.vaultID)
        writer.fixed(place.genesis)
        writer.string(place.objectName)
        writer.fixed(unsigned)
        return writer.bytes
    }

    /// The object's bytes: this frame signed by `key` for `place`.
    public func signed(by key: SigningKeyPair, at place: Place) -> [UInt8] {
        let bytes = unsigned
        return bytes + key.sign(Self.message(bytes, at: place))
    }

    /// A frame read from the remote, and whether it verifies. Parsing first tells a reader who
    /// claims to have written it, so it can look that device's key up; nothing in the body is
    /// to be trusted until `verifies` says so.
    public struct Received: Sendable {
        public let frame: SignedFrame
        let unsigned: [UInt8]
        let signature: [UInt8]

        /// Whether `publicKey` signed exactly these bytes for `place`.
        public func verifies(at place: Place, publicKey: [UInt8]) -> Bool {
            SigningKeyPair.verify(signature, of: SignedFrame.message(unsigned, at: place), publicKey: publicKey)
        }
    }

    /// Parses an object's bytes; anything that is not exactly one well-formed frame is malformed.
    public static func parse(_ bytes: [UInt8]) throws -> Received {
        var reader = ByteReader(bytes)
        do {
            guard try reader.fixed(2) == magic else { throw ReplicationError(.malformed, "The object is not a signed frame.") }
            let version = try reader.u8()
            guard version == Self.version else { throw ReplicationError(.unsupportedFormat, "The object's frame has version \(version); this build reads \(Self.version).") }
            let signer = try reader.string(maximum: 128)
            // The empty signer is the recovery authority, which signs roster entries only.
            guard signer.isEmpty || VersionContext.isDeviceName(signer) else { throw ReplicationError(.malformed, "The object's signer is not a device id.") }
            let frame = SignedFrame(signer: signer, epoch: try reader.u32(), rosterLength: try reader.u64(), rosterHead: try reader.fixed(hashCount),
                                    previous: try reader.fixed(hashCount), body: try reader.data(maximum: maximumBody))
            let unsignedCount = reader.offset
            let signature = try reader.fixed(SigningKeyPair.signatureCount)
            guard reader.isAtEnd else { throw ReplicationError(.malformed, "The object has bytes after its signature.") }
            return Received(frame: frame, unsigned: Array(bytes[..<unsignedCount]), signature: signature)
        } catch is ByteReader.Truncated {
            throw ReplicationError(.malformed, "The object's frame is cut short.")
        }
    }
}
