import Foundation
import Replication
import Synchronization
import struct Identifiers.UUID

/// A remote as a sync folder delivers it: objects arrive late (a listing misses some until they
/// are delivered, a read finds nothing yet), arrive twice (a sync tool's conflict copy of an
/// existing object), and in any order. Deterministic from its seed, so a failing run can be replayed.
final class FlakyRemote: Remote {
    let inner: DirectoryRemote
    private let state: Mutex<UInt64>
    /// Names a listing has shown: delivered, they stay in the folder (a sync tool does not take
    /// an object back), so a device never sees fewer of a writer's objects than it has read.
    private let delivered = Mutex<Set<String>>([])

    init(inner: DirectoryRemote, seed: UInt64) {
        self.inner = inner
        // Odd and distinct for every seed (`seed | 1` made seeds 2k and 2k+1 the same run).
        state = Mutex(seed &* 2 &+ 1)
    }

    var location: String { inner.location }

    /// A number in 0..<bound from a xorshift generator.
    func next(_ bound: UInt64) -> UInt64 {
        state.withLock { value in
            value ^= value << 13
            value ^= value >> 7
            value ^= value << 17
            return value % bound
        }
    }

    /// A version-4 UUID from the generator: ids that sort the same in every run of a seed.
    func uuid() -> UUID {
        var bytes = (0..<16).map { _ in UInt8(next(256)) }
        bytes[6] = bytes[6] & 0x0f | 0x40
        bytes[8] = bytes[8] & 0x3f | 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }

    func list(prefix: String) throws -> [String] {
        let names = try inner.list(prefix: prefix)
        var generator = Generator(remote: self)
        // Sometimes a sync tool duplicates an object as a conflict copy.
        if let victim = names.filter({ !$0.contains("conflict") }).randomElement(using: &generator), next(5) == 0,
           let bytes = try inner.get(victim) {
            _ = try? inner.createOnly(victim.replacingOccurrences(of: ".batch", with: ".sync-conflict-20261129-120000-DUP\(next(1000)).batch"), bytes: bytes)
        }
        let shown = names.filter { Self.neverLate($0) || delivered.withLock { [name = $0] in $0.contains(name) } || next(4) != 0 }
        delivered.withLock { $0.formUnion(shown) }
        return shown.shuffled(using: &generator)
    }

    /// `vault.json` is there before any device joins, so it is never late. Roster entries are
    /// not late either: in a sync folder an entry a device has read stays in its folder for good,
    /// which this shared directory cannot model per device — and a device refuses a remote that
    /// shows it fewer entries than it has seen. Zone objects may be late.
    private static func neverLate(_ name: String) -> Bool { name == "vault.json" || name.hasPrefix("roster/") }

    func get(_ name: String) throws -> [UInt8]? { !Self.neverLate(name) && next(6) == 0 ? nil : try inner.get(name) }
    func delete(_ name: String) throws { try inner.delete(name) }

    func createOnly(_ name: String, bytes: [UInt8]) throws -> CreateOutcome { try inner.createOnly(name, bytes: bytes) }

    struct Generator: RandomNumberGenerator {
        let remote: FlakyRemote
        mutating func next() -> UInt64 { remote.next(UInt64.max) }
    }
}
