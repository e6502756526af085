import CredentialVault
import Synchronization

/// One progress line for a sync whose zones run side by side: each zone's latest counts, together.
final class SyncProgress: Sendable {
    private let line: ProgressLine
    private let verb: String
    private let showsSent: Bool
    private let counts = Mutex<[SyncZone: (received: Int, sent: Int)]>([:])

    init(context: Context, verb: String, showsSent: Bool) {
        line = ProgressLine(context: context)
        self.verb = verb
        self.showsSent = showsSent
    }

    func update(_ zone: SyncZone, received: Int, sent: Int) {
        let text = counts.withLock { counts in
            counts[zone] = (received, sent)
            return SyncZone.allCases.compactMap { zone in
                counts[zone].map { "\(zone.rawValue) \($0.received) received" + (showsSent ? ", \($0.sent) sent" : "") }
            }.joined(separator: "; ")
        }
        line.update("\(verb): \(text)")
    }

    func finish() { line.finish() }
}
