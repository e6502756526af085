import Agent
import FuzzSupport
import Sodium

/// A frame's bytes after its length, as the agent reads them from a client (and a client from
/// the agent): decoded, then taken as a request and as a response. Nothing may trap, and a
/// frame that decodes writes back to the same fields.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAgentFrame(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard size <= Frame.requestLimit, let body = try? SecretBytes(copying: UnsafeRawBufferPointer(start: data, count: size)) else { return 0 }
    guard let frame = Frame.decode(body) else { return 0 }
    FuzzFixtures.require(frame.fields.count <= Frame.fieldLimit, "a frame decoded with more fields than allowed")
    _ = AgentRequest(frame)
    _ = AgentResponse(frame)
    return 0
}
