/// The agent's background sync as `status` tells it: when the last sync ended and the next
/// starts (Unix seconds; nil: none yet, or none planned), and why the last failed.
public struct AgentSyncStatus: Sendable, Equatable {
    public let last: Int64?
    public let next: Int64?
    public let error: String?

    public init(last: Int64?, next: Int64?, error: String?) {
        self.last = last
        self.next = next
        self.error = error
    }
}
