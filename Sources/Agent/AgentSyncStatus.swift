/// The agent's background sync as `status` tells it: when the last sync ended and the next
/// starts (Unix seconds; nil: none yet, or none planned), why the last failed, how many it has
/// run since it started, and whether it watches the remote directory: "watching", else why not
/// (nil when the remote is no directory, or there is none).
public struct AgentSyncStatus: Sendable, Equatable {
    public let last: Int64?
    public let next: Int64?
    public let error: String?
    public let count: Int
    public let watch: String?

    public init(last: Int64?, next: Int64?, error: String?, count: Int = 0, watch: String? = nil) {
        self.last = last
        self.next = next
        self.error = error
        self.count = count
        self.watch = watch
    }

    /// What `watch` says while the remote directory is watched.
    public static let watching = "watching"
}
