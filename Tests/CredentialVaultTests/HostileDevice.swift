import Foundation
import Membership
import Sodium
@testable import Replication

/// A participant of a convergence run that is not one of the devices compared: a member of the
/// roster gone bad (or the thief of a member's `remote.json` and `device-keys`), writing
/// straight into the remote's directory, as a peer of a sync folder can. It signs as itself, and
/// as devices the roster does not know (with keys of its own making). Driven by the run's seeded generator, it serves what the design says
/// must stay inert — names and numbers out of range, replays of honest batches under other
/// names, objects under device names no honest device uses (made-up ids and garbage), garbage
/// conflict copies, records that break validation, and objects whose bytes change between reads.
///
/// A member could also write records that pass every rule; those are indistinguishable from
/// honest ones until it is revoked, so it does not. Everything it
/// forges is stamped by a `mallory…` writer or names a record id it made up, so a replica that
/// holds any of it is caught (`forgeries(in:)`).
final class HostileDevice {
    /// Every version it stamps has a writer starting with this.
    static let writerMark = "mallory"

    let root: String
    let generator: FlakyRemote
    /// Its own seal, as the member it is.
    let member: SignedSeal
    /// Signing keys of the devices it impersonates, which the roster does not know.
    private var impostors: [String: SigningKeyPair] = [:]
    /// The honest devices' names: replays and rewrites aim at their objects; it never writes a
    /// batch those devices would take for their own next one.
    private(set) var honest: [String]
    /// Device names it writes under: made-up ids and garbage, each a valid path component.
    let ghosts: [String]
    /// Record ids it made up: none may ever be in an honest replica.
    var forgedIDs: Set<String> = []
    /// Per "zone/ghost", the next sequence it writes, so honest devices read its batches in order.
    var nextSequence: [String: UInt64] = [:]
    /// Honest objects it rewrote, with their bytes before, to be put back before quiescence.
    private var altered: [String: [UInt8]] = [:]
    /// Its own objects that currently hold garbage, to be replaced by readable bytes later.
    var garbled: [(zone: String, ghost: String, sequence: UInt64)] = []
    /// What one move looked up on the remote (the listing; per zone, record names honest
    /// devices wrote), read at most once per move.
    private var listing: [String]?
    var recordNames: [String: [String]] = [:]

    /// A revoked device is no longer aimed at: a member relaying what a revoked device wrote
    /// after its revocation is a member's own write (it holds until that member is revoked), and
    /// the run checks that nothing else brings such a write in.
    func forget(_ devices: [String]) { honest.removeAll(where: devices.contains) }

    init(root: String, generator: FlakyRemote, member: SignedSeal, honest: [String]) {
        self.root = root
        self.generator = generator
        self.member = member
        self.honest = honest
        // Names a device id is not, but a path component can be: every device directory is read.
        let odd = ["ghost device", "-rf", "%s%n%x", "💀", "名前", "a.sync-conflict-b", "cursors-1", "snap-1",
                   "00000000000000000001.batch", String(repeating: "g", count: 255), "$(reboot)", "late "]
        ghosts = [member.writerID, Self.uuidText(generator).uppercased(), odd[Int(generator.next(UInt64(odd.count)))]]
    }

    /// What it writes `device`'s objects with: its own seal for itself, a key of its own making
    /// for any other name (objects no member signed: unknown signers, never stored).
    func seal(for device: String) throws -> SignedSeal {
        if device == member.writerID { return member }
        if impostors[device] == nil { impostors[device] = try SigningKeyPair.generate() }
        return member.impersonating(device, with: impostors[device]!)
    }

    /// One hostile move, chosen by the generator.
    func act() throws {
        listing = nil
        recordNames = [:]
        switch generator.next(9) {
        case 0: try outOfRangeNames()
        case 1: try extremeEnvelopes(zone: zone())
        case 2: try invalidRecords()
        case 3: try replay()
        case 4: try garbageCopies()
        case 5: try rewriteHonestObject()
        case 6: try compactionObjects(zone: zone())
        case 7: try repairOwnObject()
        default: try restore(all: false)
        }
    }

    func zone() -> String { generator.next(2) == 0 ? "config" : "secrets" }

    // MARK: - Names

    /// Objects named past `Batch.maximumSequence` (under honest and made-up devices alike),
    /// numbers too long for 64 bits, sequence 0, and names the directory remote never lists.
    private func outOfRangeNames() throws {
        let zone = zone()
        let device = generator.next(2) == 0 ? pick(honest) : pick(ghosts)
        let number = pick([UInt64.max, Batch.maximumSequence + 1, UInt64(Int64.max), 1 << 63, 99_999_999_999_999_999])
        let digits = String(number), padded = String(repeating: "0", count: max(0, 20 - digits.count)) + digits
        let names = [
            "zones/\(zone)/\(device)/\(padded).batch",
            "zones/\(zone)/\(device)/\(padded).sync-conflict-20260101-000000-HOSTILE.batch",
            "zones/\(zone)/\(device)/99999999999999999999.batch",
            "zones/\(zone)/\(device)/00000000000000000000.batch",
            "zones/\(zone)/\(device)/cursors-\(padded).cursors",
            "zones/\(zone)/\(device)/snap-\(padded).snapshot",
            "zones/\(zone)/\(device)/snap-\(padded)-000000.chunk",
            "zones/\(zone)/\(device)/snap-00000000000000000001-999999.chunk",
            "zones/\(zone)/bad\\name/00000000000000000001.batch",
            "zones/\(zone)/line\nbreak/00000000000000000001.batch",
            "zones/\(zone)/\(device)/00000000000000000001.batch.part",
        ]
        let name = pick(names)
        // Sealed under the name where it parses, so only the number can refuse it.
        let sequence = BatchObjectName(name, zone: zone)?.sequence ?? number
        let bytes = try generator.next(2) == 0 ? garbage() : sealBatch(zone: zone, device: device, sequence: sequence, [invalidHost(zone)])
        try write(name, bytes)
    }

    // MARK: - Replays, copies and rewrites

    /// Batches honest devices wrote earlier, again: their bytes under a made-up device or as a
    /// conflict copy of another honest name, or their envelopes sealed afresh by a made-up device.
    private func replay() throws {
        let zone = zone()
        guard let (name, parsed) = pickHonestBatch(zone: zone), let bytes = try read(name) else { return }
        switch generator.next(4) {
        case 0:
            let ghost = pick(ghosts)
            try write(Batch.objectName(zone: zone, device: ghost, sequence: takeSequence(zone, ghost)), bytes)
        case 1:
            let other = parsed.sequence + 1 + generator.next(3)
            try write(copyName(Batch.objectName(zone: zone, device: parsed.device, sequence: other)), bytes)
        default:
            // The old envelopes themselves, under a writer that is not theirs: merging them again
            // changes nothing, even for records deleted or edited since.
            guard let opened = try? BatchCodec.open(bytes, zone: zone, device: parsed.device, sequence: parsed.sequence, with: member)
            else { return }
            let ghost = pick(ghosts)
            let sequence = takeSequence(zone, ghost)
            let sealed = try BatchCodec.seal(Batch(zone: zone, device: ghost, sequence: sequence, envelopes: opened.envelopes), with: try seal(for: ghost))
            try write(generator.next(2) == 0 ? Batch.objectName(zone: zone, device: ghost, sequence: sequence)
                                             : copyName(Batch.objectName(zone: zone, device: ghost, sequence: sequence)), sealed)
            if generator.next(2) == 0 { try write(copyName(Batch.objectName(zone: zone, device: ghost, sequence: sequence)), sealed) }
        }
    }

    /// Conflict copies that hold garbage, a cut-short honest batch, or an honest batch that
    /// opens under no name but its own.
    private func garbageCopies() throws {
        let zone = zone()
        let target = pickHonestBatch(zone: zone)?.0 ?? Batch.objectName(zone: zone, device: pick(honest), sequence: 1 + generator.next(5))
        var bytes = try garbage()
        if generator.next(2) == 0, let original = try read(target) {
            bytes = generator.next(2) == 0 ? Array(original.prefix(Int(generator.next(UInt64(original.count))))) : original
        }
        let name = generator.next(3) == 0 ? target.replacingOccurrences(of: ".batch", with: " (conflicted copy 2026-01-01).batch") : copyName(target)
        try write(name, bytes)
    }

    /// An honest object — batch, snapshot part, manifest or published cursors — rewritten with
    /// garbage, a cut-short copy or another object's bytes: a remote that serves something else
    /// for a while. `restore` puts it back.
    private func rewriteHonestObject() throws {
        let names = try listed().filter { name in honest.contains { name.contains("/\($0)/") } && !name.contains("conflict") }
        // Mostly batches: the objects a device quarantines whole once they stay unreadable.
        let batches = names.filter { $0.hasSuffix(".batch") }
        guard !names.isEmpty else { return }
        let name = pick(batches.isEmpty || generator.next(3) == 0 ? names : batches)
        guard let current = try read(name) else { return }
        let original = altered[name] ?? current
        altered[name] = original
        switch generator.next(3) {
        case 0: try write(name, try garbage())
        case 1: try write(name, Array(original.prefix(Int(generator.next(UInt64(original.count))))))
        default: try write(name, try read(pick(names)) ?? [])
        }
    }

    /// Puts back one rewritten honest object, or every one. One that compaction removed
    /// meanwhile stays removed: the remote never brings back what a device collected.
    func restore(all: Bool) throws {
        for name in altered.keys.sorted() where all || generator.next(2) == 0 {
            if FileManager.default.fileExists(atPath: path(name)) { try write(name, altered[name]!) }
            altered[name] = nil
            if !all { return }
        }
    }

    // MARK: - Helpers

    /// Takes the next sequence of `ghost` in `zone`; now and then skips one, leaving a gap
    /// honest devices wait at (and a snapshot may bridge).
    func takeSequence(_ zone: String, _ ghost: String) -> UInt64 {
        let key = "\(zone)/\(ghost)"
        let sequence = (nextSequence[key] ?? 1) + (generator.next(10) == 0 ? 1 : 0)
        nextSequence[key] = sequence + 1
        return sequence
    }

    func copyName(_ name: String) -> String {
        name.replacingOccurrences(of: ".batch", with: ".sync-conflict-20260101-000000-H\(generator.next(100_000)).batch")
    }

    private func pickHonestBatch(zone: String) -> (String, BatchObjectName)? {
        let batches = ((try? listed()) ?? []).compactMap { name in BatchObjectName(name, zone: zone).map { (name, $0) } }
            .filter { honest.contains($0.1.device) && !$0.1.isConflictCopy }
        return batches.isEmpty ? nil : pick(batches)
    }

    func pick<T>(_ choices: [T]) -> T { choices[Int(generator.next(UInt64(choices.count)))] }
    func pickAny<T>(_ choices: [T]) -> T? { choices.isEmpty ? nil : pick(choices) }

    /// Random bytes, now and then with a sealed box's header so they pass its first checks.
    func garbage() throws -> [UInt8] {
        var bytes = (0..<generator.next(200)).map { _ in UInt8(truncatingIfNeeded: generator.next(256)) }
        if generator.next(2) == 0 { bytes = [0x43, 0x56, SealedBox.formatVersion, BatchCodec.purpose.tag] + bytes }
        return bytes
    }

    static func uuidText(_ generator: FlakyRemote) -> String {
        let hex = (0..<32).map { _ in String(generator.next(16), radix: 16) }.joined()
        let characters = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
    }

    // MARK: - The directory

    private func path(_ name: String) -> String { root + "/" + name }

    func listed() throws -> [String] {
        if let listing { return listing }
        let names = try DirectoryRemote(root: root).list(prefix: "zones/")
        listing = names
        return names
    }

    func read(_ name: String) throws -> [UInt8]? {
        FileManager.default.contents(atPath: path(name)).map { Array($0) }
    }

    /// Replaces `name` whole (a hidden file renamed over it, as sync tools do), creating its
    /// directories; names no file system takes are skipped.
    func write(_ name: String, _ bytes: [UInt8]) throws {
        let target = path(name)
        let directory = (target as NSString).deletingLastPathComponent
        guard (try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)) != nil else { return }
        let temporary = directory + "/.hostile-\(generator.next(1 << 32)).tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(bytes)) else { return }
        if rename(temporary, target) != 0 { unlink(temporary) }
    }
}
