import Identifiers
import Replication
import Sodium
import Synchronization

/// A remote in an S3-compatible bucket, with the directory remote's layout and guarantees:
/// names are object keys under the prefix; creating an object never replaces another
/// (`If-None-Match: *`). A store that ignores conditional writes (found at setup, see
/// `probeConditionalWrites`) is still safe here: every device writes only names of its own, so
/// a create-only write there is a read, then a write nobody else makes.
public final class S3Remote: Remote {
    let client: S3Client
    /// Whether the store refuses a write to an existing name (`412`); set from the setup probe.
    public let conditionalWrites: Bool
    /// Each object's ETag from the most recent listing that named it.
    private let etags = Mutex<[String: String]>([:])

    public init(location: S3Location, credentials: S3Credentials, conditionalWrites: Bool = true) {
        client = S3Client(location: location, credentials: credentials)
        self.conditionalWrites = conditionalWrites
    }

    public var location: String { client.location.description }

    /// Pages of a listing (1,000 names each): a million objects, far beyond any vault's.
    static let maximumListingPages = 1_000

    public func list(prefix: String) throws -> [String] {
        try listing(prefix: prefix).map(\.name).sorted()
    }

    /// From the listing's sizes: no object is read.
    public func usage() throws -> RemoteUsage {
        let objects = try listing(prefix: "")
        // Sizes come from the store: summed without overflow, however large or negative they claim to be.
        let bytes = objects.reduce(Int64(0)) { total, object in
            let (sum, overflow) = total.addingReportingOverflow(max(0, object.size))
            return overflow ? .max : sum
        }
        return RemoteUsage(objects: objects.count, bytes: bytes)
    }

    /// Names (under the prefix) and sizes, through every page of ListObjectsV2.
    private func listing(prefix: String) throws -> [(name: String, size: Int64)] {
        let base = client.location.prefix.isEmpty ? "" : client.location.prefix + "/"
        var names: [(name: String, size: Int64)] = []
        var token: String?
        var tokensSeen: Set<String> = []
        repeat {
            // A store that answers "truncated" forever, or hands back a token it gave before,
            // would keep this loop (and the sync) going without end.
            guard tokensSeen.count < Self.maximumListingPages else {
                throw ReplicationError(.io, "The S3 store's listing of \(location) did not end after \(Self.maximumListingPages) pages; refused.")
            }
            var query = [("list-type", "2"), ("prefix", base + prefix)]
            if let token { query.append(("continuation-token", token)) }
            let response = try replicating { try client.send("GET", key: nil, query: query) }
            guard response.status == 200 else { throw replicationError(client.failure(response, doing: "list objects")) }
            // Each <Contents> holds one Key and one Size, in that order.
            let keys = S3XML.values("Key", in: response.body), sizes = S3XML.values("Size", in: response.body)
            let tags = S3XML.values("ETag", in: response.body)
            for (index, key) in keys.enumerated() where key.hasPrefix(base) {
                let name = String(key.dropFirst(base.count))
                names.append((name, index < sizes.count ? Int64(sizes[index]) ?? 0 : 0))
                // Only when every entry has its ETag can they be paired with the keys.
                if tags.count == keys.count { etags.withLock { $0[name] = tags[index] } }
            }
            if S3XML.values("IsTruncated", in: response.body).first == "true" {
                guard let next = S3XML.values("NextContinuationToken", in: response.body).first, !next.isEmpty else {
                    throw ReplicationError(.io, "The S3 store cut a listing short without a continuation token (it may not speak ListObjectsV2).")
                }
                guard tokensSeen.insert(next).inserted else {
                    throw ReplicationError(.io, "The S3 store's listing of \(location) repeats a continuation token (it would never end); refused.")
                }
                token = next
            } else {
                token = nil
            }
        } while token != nil
        return names
    }

    /// The ETag the last listing gave (it changes whenever the bytes do), or nil.
    public func fingerprint(_ name: String) throws -> String? {
        etags.withLock { $0[name] }
    }

    public func get(_ name: String) throws -> [UInt8]? {
        let response = try replicating { try client.send("GET", key: client.location.key(name)) }
        switch response.status {
        case 200: return response.body
        case 404 where response.errorCode != "NoSuchBucket": return nil
        default: throw replicationError(client.failure(response, doing: "read \(name)"))
        }
    }

    public func createOnly(_ name: String, bytes: [UInt8]) throws -> CreateOutcome {
        if !conditionalWrites, let existing = try get(name) { return try compare(existing, bytes, name) }
        let response = try replicating {
            try client.send("PUT", key: client.location.key(name), body: bytes, headers: conditionalWrites ? ["if-none-match": "*"] : [:])
        }
        switch response.status {
        case 200, 201, 204: return .created
        // Taken (or a retried PUT that had succeeded): created only if it holds these bytes.
        case 409, 412:
            // A 409 can also mean a conditional write to this name is still in flight (our own
            // timed-out attempt): nothing to compare yet, so the next sync tries again.
            guard let existing = try get(name) else {
                throw ReplicationError(.unreachable, "The S3 store did not create \(name) yet (another write to it is in flight); the next sync tries again.")
            }
            return try compare(existing, bytes, name)
        default: throw replicationError(client.failure(response, doing: "create \(name)"))
        }
    }

    public func delete(_ name: String) throws {
        let response = try replicating { try client.send("DELETE", key: client.location.key(name)) }
        switch response.status {
        case 200, 202, 204: return
        case 404 where response.errorCode != "NoSuchBucket": return
        default: throw replicationError(client.failure(response, doing: "delete \(name)"))
        }
    }

    private func compare(_ existing: [UInt8], _ bytes: [UInt8], _ name: String) throws -> CreateOutcome {
        guard existing == bytes else {
            throw ReplicationError(.nameConflict, "Unable to publish \(name) in \(location): another writer (for example a copied vault directory) writes under this device's name; nothing was overwritten.")
        }
        return .alreadyPresent
    }

    /// Checks that the bucket exists and the credentials work (some stores would create a
    /// missing bucket on the first write), then whether the store refuses to overwrite an object
    /// on `If-None-Match: *`: a probe object is created twice, then removed.
    public static func probeConditionalWrites(location: S3Location, credentials: S3Credentials) throws -> Bool {
        let client = S3Client(location: location, credentials: credentials)
        let listing = try client.send("GET", key: nil, query: [("list-type", "2"), ("max-keys", "1")])
        guard listing.status == 200 else { throw client.failure(listing, doing: "list objects") }
        let key = location.key("probe/" + UUID().uuidString.lowercased())
        defer { _ = try? client.send("DELETE", key: key) }
        for attempt in 0..<2 {
            let response = try client.send("PUT", key: key, body: Array("probe".utf8), headers: ["if-none-match": "*"])
            // A store that rejects the header rather than ignoring it: no conditional writes.
            if response.status == 501 || response.errorCode == "NotImplemented" { return false }
            // 412 on the first write: an earlier attempt of it succeeded, its answer was lost.
            if response.status == 412 || response.status == 409 { return true }
            if attempt == 1 { return false }
            guard response.status < 300 else { throw client.failure(response, doing: "write a probe object") }
        }
        return false
    }

    private func replicating<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as S3Error { throw replicationError(error) }
    }

    private func replicationError(_ error: S3Error) -> ReplicationError {
        let code: ReplicationError.Code = switch error.code {
        case .unreachable: .unreachable
        case .credentials, .accessDenied: .accessDenied
        case .noSuchBucket, .failed: .io
        case .tooLarge: .tooLarge
        }
        return ReplicationError(code, error.message)
    }
}
