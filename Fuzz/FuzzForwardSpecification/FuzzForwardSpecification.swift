import ConfigTrack
import CredentialVault
import Identifiers
import FuzzSupport

/// Forward specifications (`forward add`, `LocalForward` and friends from ssh_config): a kind
/// selector, then the text. A rule that parses is checked with the same rules a save applies,
/// and its own spelling (what `export ssh-config` and `credctl ssh` hand to ssh) must parse
/// back to the same rule.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzForwardSpecification(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let kinds: [ForwardKind] = [.local, .remote, .dynamic]
    let kind = kinds[Int(input.byte()) % kinds.count]
    let text = String(decoding: input.rest(), as: UTF8.self)
    guard let rule = try? ForwardSpecification.parse(text, kind: kind, hostID: hostID) else { return 0 }
    FuzzFixtures.require(rule.kind == kind && rule.hostID == hostID, "a parsed forward changed kind or host")
    let again = try? ForwardSpecification.parse(rule.specification, kind: kind, hostID: hostID)
    FuzzFixtures.require(again.map { ($0.bindAddress, $0.bindPort, $0.destinationHost, $0.destinationPort) == (rule.bindAddress, rule.bindPort, rule.destinationHost, rule.destinationPort) } ?? false,
                         "a forward's own spelling reads back as another forward")
    if !(rule.kind == .remote && rule.bindPort == 0) { _ = try? ConfigValidation.port(rule.bindPort) }
    if let port = rule.destinationPort { _ = try? ConfigValidation.port(port) }
    if let destination = rule.destinationHost { _ = try? ConfigValidation.hostname(destination, field: "destination") }
    return 0
}

private let hostID = UUID(uuidString: "3F2504E0-4F89-41D3-9A0C-0305E82C3301")!
