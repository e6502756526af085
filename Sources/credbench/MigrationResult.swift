/// What `credbench migrate` measured for one vault size.
struct MigrationResult: Codable {
    let syncableItems: Int
    let deviceOnlyItems: Int
    let firstUnlockMilliseconds: Double
    let migrated: Int
    /// Later unlocks (key-file unlock plus the scan): median and slowest of `rounds`.
    let laterUnlockMicrosecondsMedian: Double
    let laterUnlockMicrosecondsSlowest: Double
    let rounds: Int
}
