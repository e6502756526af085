/// Fetched batches waiting to be applied together.
///
/// A joining device reads hundreds of batches; applying each in its own transaction rewrites
/// the same index pages and syncs the disk once per batch. Grouped, they commit together — still
/// all or none, cursors included — so a crash only means the group is fetched again.
struct ApplyQueue {
    /// Envelopes that make a group worth committing; bounds the memory a group holds.
    static let envelopesPerCommit = 4_096

    let store: any ZoneStore
    private var batches: [IncomingBatch] = []
    private var envelopes = 0

    init(store: any ZoneStore) { self.store = store }

    /// Queues `batch` (counted as fetched); commits the group once it is large enough.
    mutating func add(_ batch: IncomingBatch, into report: inout ZoneSyncReport) throws {
        batches.append(batch)
        report.fetchedObjects += 1
        report.receivedChanges += batch.envelopes.count { !$0.isRemoval }
        envelopes += batch.envelopes.count + batch.rejected.count
        if envelopes >= Self.envelopesPerCommit { try flush(into: &report) }
    }

    /// Commits whatever is queued, in one transaction.
    mutating func flush(into report: inout ZoneSyncReport) throws {
        guard !batches.isEmpty else { return }
        let group = batches
        batches = []
        envelopes = 0
        do {
            report.add(try store.apply(group))
        } catch where group.count > 1 {
            // One bad batch must not hold back the others: each alone, in order, up to the one
            // that fails (its cursor stays before it, so it is fetched again next time).
            for batch in group { report.add(try store.apply([batch])) }
        }
    }
}
