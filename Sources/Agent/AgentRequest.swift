import ConfigTrack
import Identifiers
import Sodium
import SSHAgentService

/// What a client asks of the agent (docs/agent.md, "Wire format").
public enum AgentRequest {
    case status
    /// Unlock with `kind` (`passphrase`, `keyfile`, `keyring`) and its material; the idle and
    /// maximum times in seconds (nil: the defaults).
    case unlock(kind: String, material: SecretBytes, idle: Int?, maximum: Int?)
    case lock
    /// The body of the secret with this reference key.
    case read(reference: String)
    case stop
    /// Seal and store `body` under the reference key (`deviceOnly` or `syncable`).
    case store(reference: String, body: SecretBytes, availability: String)
    /// The vault changed here: sync soon (debounced; no use of the keys, so not one for the
    /// idle time either).
    case changed
    /// An ssh-agent socket serving only these identities, for as long as the connection that
    /// asked stays open; `environment` is the client's askpass session (`KeyUseConfirmation`).
    case sshSocket(identities: [UUID], environment: [String: String])

    /// At most this many identities on one per-connection socket (a host and its jump hosts).
    static let identityLimit = 64

    var frame: Frame {
        get throws {
            switch self {
            case .status: return Frame(type: 0x01, fields: [])
            case .unlock(let kind, let material, let idle, let maximum):
                let texts = try [kind, String(idle ?? 0), String(maximum ?? 0)].map { try SecretBytes(copying: Array($0.utf8)) }
                return Frame(type: 0x02, fields: [texts[0], material, texts[1], texts[2]])
            case .lock: return Frame(type: 0x03, fields: [])
            case .read(let reference): return try Frame(type: 0x04, texts: [reference])
            case .stop: return Frame(type: 0x05, fields: [])
            case .store(let reference, let body, let availability):
                let texts = try [reference, availability].map { try SecretBytes(copying: Array($0.utf8)) }
                return Frame(type: 0x06, fields: [texts[0], body, texts[1]])
            case .changed: return Frame(type: 0x07, fields: [])
            case .sshSocket(let identities, let environment):
                let lines = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                return try Frame(type: 0x08, texts: [identities.map(CanonicalUUID.text).joined(separator: " "), lines.joined(separator: "\n")])
            }
        }
    }

    /// The request a frame holds, or nil when it is none.
    public init?(_ frame: Frame) {
        switch (frame.type, frame.fields.count) {
        case (0x01, 0): self = .status
        case (0x02, 4):
            guard let kind = frame.text(0), ["passphrase", "keyfile", "keyring"].contains(kind),
                  let idle = frame.text(2).flatMap(Int.init), let maximum = frame.text(3).flatMap(Int.init),
                  (0...AgentUnlock.longestMaximum).contains(idle), (0...AgentUnlock.longestMaximum).contains(maximum) else { return nil }
            self = .unlock(kind: kind, material: frame.fields[1], idle: idle == 0 ? nil : idle, maximum: maximum == 0 ? nil : maximum)
        case (0x03, 0): self = .lock
        case (0x04, 1):
            guard let reference = frame.text(0), reference.utf8.count <= 256 else { return nil }
            self = .read(reference: reference)
        case (0x05, 0): self = .stop
        case (0x06, 3):
            guard let reference = frame.text(0), reference.utf8.count <= 256, let availability = frame.text(2),
                  ["deviceOnly", "syncable"].contains(availability) else { return nil }
            self = .store(reference: reference, body: frame.fields[1], availability: availability)
        case (0x07, 0): self = .changed
        case (0x08, 2):
            guard let ids = frame.text(0), let lines = frame.text(1) else { return nil }
            let identities = ids.split(separator: " ", omittingEmptySubsequences: false).map { CanonicalUUID.parse(String($0)) }
            guard !identities.isEmpty, identities.count <= Self.identityLimit, !identities.contains(nil) else { return nil }
            var environment: [String: String] = [:]
            for line in lines.split(separator: "\n") {
                guard let equals = line.firstIndex(of: "="), KeyUseConfirmation.variables.contains(String(line[..<equals])),
                      !line.contains("\0") else { return nil }
                environment[String(line[..<equals])] = String(line[line.index(after: equals)...])
            }
            self = .sshSocket(identities: identities.compactMap { $0 }, environment: environment)
        default: return nil
        }
    }
}
