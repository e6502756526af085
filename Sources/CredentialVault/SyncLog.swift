import Glibc

/// Sync failures, for the user's logs: zone, stage and error code only — never a payload, key,
/// secret, label or message that could carry one. Written to standard error when
/// `CREDVAULT_SYNC_LOG=1`.
enum SyncLog {
    private static let enabled = getenv("CREDVAULT_SYNC_LOG").map { String(cString: $0) == "1" } ?? false

    static func failure(zone: String, stage: String, code: String) {
        guard enabled else { return }
        var line = "credvault sync failed zone=\(zone) stage=\(stage) code=\(code)\n"
        line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    }
}
