import FuzzSupport
import SSHAgentService

/// An ssh-agent message's bytes after its length, as an agent socket reads them from a client
/// (ssh, or a forwarded host behind it), taken as a request and as a reply. Nothing may trap, and
/// a request that parses writes back to the same bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSSHAgentMessage(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard size <= 256 << 10 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let request = SSHAgentRequest(message: bytes) {
        switch request {
        case .requestIdentities, .sign:
            FuzzFixtures.require(SSHAgentRequest(message: request.message) == request, "a request does not survive writing and reading")
        case .sessionBind, .other:
            break
        }
    }
    _ = SSHAgentReply(message: bytes)
    return 0
}
