import Replication
import Sodium

/// Remote format 2's seal for zone objects (docs/devices.md, "Objects and signatures"): the
/// plaintext padded to its size bucket, sealed under the transport key of the writer's newest
/// epoch, in a frame signed by the writer's own signing key over the vault, the genesis and the
/// object's name. Opening checks, before anything is decrypted, that the frame names the writer
/// its object name says, that the roster knows that writer, and that the signature verifies — so
/// a copy of one device's keys writes as that device only, and only until it is revoked.
public struct SignedSeal: ObjectSeal {
    let vaultID: String
    /// The roster as this device has verified it: who may write, with which keys.
    let roster: RosterState
    /// Opens a revoked writer's objects past its cutoff as well (`inspectingRevoked`).
    var opensRevoked = false
    /// This device: its id and signing key.
    public let writerID: String
    let signing: SigningKeyPair
    /// The transport keys of every epoch this device holds; it writes under the newest.
    let transportKeys: [UInt32: SecretBytes]

    public init(vaultID: String, roster: RosterState, writerID: String, signing: SigningKeyPair, transportKeys: [UInt32: SecretBytes]) {
        self.vaultID = vaultID
        self.roster = roster
        self.writerID = writerID
        self.signing = signing
        self.transportKeys = transportKeys
    }

    /// The same seal signing as `writer` with `key`: what a forger who is not that device writes
    /// (tests of what readers refuse).
    package func impersonating(_ writer: String, with key: SigningKeyPair) -> SignedSeal {
        SignedSeal(vaultID: vaultID, roster: roster, writerID: writer, signing: key, transportKeys: transportKeys)
    }

    /// A revoked device's keys, for a batch of its numbered up to its cutoff in that zone (what the
    /// revoking member had read of it); nil for anything else it wrote.
    private func formerMemberUpToItsCutoff(_ writer: String, name: String) -> DevicePublicKeys? {
        guard let cutoffs = roster.revoked[writer], let keys = roster.former[writer] else { return nil }
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "zones", let batch = BatchObjectName(name, zone: String(parts[1])), !batch.isConflictCopy,
              let cutoff = cutoffs.first(where: { $0.zone == parts[1] }), batch.sequence <= cutoff.sequence else { return nil }
        return keys
    }

    public func inspectingRevoked() -> any ObjectSeal {
        var seal = self
        seal.opensRevoked = true
        return seal
    }

    public func cutoffs(zone: String) -> [String: UInt64] {
        roster.revoked.mapValues { cutoffs in cutoffs.first { $0.zone == zone }?.sequence ?? 0 }
    }

    private static let noPrevious = [UInt8](repeating: 0, count: SignedFrame.hashCount)

    /// The sealed body's associated data: the codec's context and the epoch, so a body cannot be
    /// framed under another epoch than it was sealed in.
    private static func context(_ context: [UInt8], epoch: UInt32) -> [UInt8] {
        var writer = ByteWriter()
        writer.data(context)
        writer.u32(epoch)
        return writer.bytes
    }

    public func seal(_ plain: [UInt8], name: String, purpose: SealPurpose, context: [UInt8]) throws -> [UInt8] {
        guard let epoch = transportKeys.keys.max(), let key = transportKeys[epoch] else {
            throw ReplicationError(.authenticationFailed, "This device holds no epoch's keys to write \(name) with.")
        }
        let body = try SealedBox.seal(Padding.pad(plain), key: key, purpose: purpose, context: Self.context(context, epoch: epoch))
        let frame = SignedFrame(signer: writerID, epoch: epoch, rosterLength: roster.length, rosterHead: roster.head, previous: Self.noPrevious, body: body)
        return frame.signed(by: signing, at: SignedFrame.Place(vaultID: vaultID, genesis: roster.genesis, objectName: name))
    }

    public func open(_ bytes: [UInt8], name: String, writer: String, purpose: SealPurpose, context: [UInt8]) throws -> [UInt8] {
        let received: SignedFrame.Received
        do {
            received = try SignedFrame.parse(bytes)
        } catch let error as ReplicationError where error.code == .unsupportedFormat {
            throw error
        } catch {
            // A frame cut short looks like one still being copied: retried, then quarantined.
            throw ReplicationError(.authenticationFailed, "\(name) does not open: altered or incomplete.")
        }
        let frame = received.frame
        guard frame.signer == writer else {
            throw ReplicationError(.forged, "\(name) says it was written by \(frame.signer.isEmpty ? "the recovery authority" : frame.signer), not the device its name gives")
        }
        guard let member = roster.members[writer] ?? formerMemberUpToItsCutoff(writer, name: name) ?? (opensRevoked ? roster.former[writer] : nil) else {
            if roster.revoked[writer] != nil {
                throw ReplicationError(.revokedWriter, "\(name) was written by revoked device \(writer) after its revocation")
            }
            throw ReplicationError(.unknownSigner, "\(name) is signed by device \(writer), which this device's roster does not know (yet)")
        }
        guard received.verifies(at: SignedFrame.Place(vaultID: vaultID, genesis: roster.genesis, objectName: name), publicKey: member.signing) else {
            throw ReplicationError(.forged, "\(name): signature does not verify under the key of device \(writer)")
        }
        // Written under a roster or an epoch this device has not verified yet: read once it has.
        guard frame.rosterLength <= roster.length, let key = transportKeys[frame.epoch] else {
            if frame.rosterLength > roster.length || frame.epoch > (transportKeys.keys.max() ?? 0) {
                throw ReplicationError(.unknownSigner, "\(name) was written under roster entries or an epoch this device has not read yet")
            }
            throw ReplicationError(.authenticationFailed, "\(name) is sealed under epoch \(frame.epoch), which this device does not hold.")
        }
        let padded: SecretBytes
        do {
            padded = try SealedBox.open(frame.body, key: key, purpose: purpose, context: Self.context(context, epoch: frame.epoch))
        } catch let error as SodiumError where error.code == .unsupportedVersion {
            throw ReplicationError(.unsupportedFormat, "\(name) uses a newer sealing format.")
        } catch {
            // Signed by a member, yet not sealed under the epoch it names: never readable.
            throw ReplicationError(.malformed, "\(name) is signed by \(writer) but does not open under epoch \(frame.epoch)'s key")
        }
        do {
            return try padded.withUnsafeBytes { try Padding.unpad(Array($0)) }
        } catch {
            throw ReplicationError(.malformed, "\(name) is not padded as objects are")
        }
    }
}
