import Replication
import S3

/// Where a vault syncs: a directory (a Syncthing or Nextcloud folder, a network mount), or an
/// S3-compatible bucket and prefix at an endpoint.
public enum RemoteAddress: Sendable, Equatable {
    case directory(String)
    case s3(S3Location)

    /// The user's REMOTE: `s3://BUCKET/PREFIX` (with the endpoint, region and addressing
    /// options), else a directory path. The S3 options are refused for a directory, and an
    /// `http://` endpoint other than loopback unless `allowInsecureHTTP` says the user chose it.
    public static func parse(_ text: String, endpoint: String? = nil, region: String? = nil, pathStyle: Bool = false,
                             allowInsecureHTTP: Bool = false) throws(VaultError) -> RemoteAddress {
        guard text.hasPrefix("s3://") else {
            guard endpoint == nil, region == nil, !pathStyle, !allowInsecureHTTP else {
                throw VaultError(.invalidInput, "--endpoint, --region, --path-style and --allow-insecure-http are for an s3:// remote, not a directory.")
            }
            return .directory(VaultDirectory(path: text).path)
        }
        let location: S3Location
        do {
            location = try S3Location(url: text, endpoint: endpoint, region: region, pathStyle: pathStyle)
        } catch {
            throw VaultError(.invalidInput, (error as? S3Error)?.message ?? "\(error)")
        }
        if location.isInsecureRemote && !allowInsecureHTTP {
            throw VaultError(.invalidInput, "The endpoint \(location.endpoint) is plain HTTP to another machine: anyone on the way could read and withhold what the vault sends and receives.",
                             hint: "Use https://, or give --allow-insecure-http if the network between is trusted.")
        }
        return .s3(location)
    }

    var isDirectory: Bool {
        if case .directory = self { return true }
        return false
    }

    var kind: String {
        switch self {
        case .directory: "directory"
        case .s3: "s3"
        }
    }

    /// What `remote.json` and status show: a path, or `s3://BUCKET/PREFIX` (the endpoint is kept beside it).
    var location: String {
        switch self {
        case .directory(let path): path
        case .s3(let location): location.url
        }
    }

    /// For messages and hints: the path, or the S3 address with its endpoint.
    public var description: String {
        switch self {
        case .directory(let path): path
        case .s3(let location): location.description
        }
    }

    /// The remote, with S3 credentials from this process's environment (never stored).
    func open(conditionalWrites: Bool = true) throws -> any Remote {
        switch self {
        case .directory(let path):
            return DirectoryRemote(root: path)
        case .s3(let location):
            do {
                return S3Remote(location: location, credentials: try S3Credentials.fromProcessEnvironment(), conditionalWrites: conditionalWrites)
            } catch let error as S3Error {
                throw VaultError(.accessDenied, error.message, hint: Self.credentialsHint)
            }
        }
    }

    /// Makes the remote usable before binding: a new directory is created private (an existing
    /// one, a Syncthing folder, is left as it is); an S3 bucket is probed with the credentials,
    /// which also tells whether it honours create-only writes.
    func prepare() throws -> Bool {
        switch self {
        case .directory(let path):
            if !VaultDirectory.exists(path) { try VaultDirectory(path: path).prepare() }
            return true
        case .s3(let location):
            do {
                return try S3Remote.probeConditionalWrites(location: location, credentials: try S3Credentials.fromProcessEnvironment())
            } catch let error as S3Error {
                switch error.code {
                case .unreachable: throw VaultError(.unavailable, error.message, hint: "Check the endpoint, and that the store runs and can be reached from here.")
                case .credentials, .accessDenied: throw VaultError(.accessDenied, error.message, hint: Self.credentialsHint)
                case .noSuchBucket, .failed, .tooLarge: throw VaultError(.invalidInput, error.message)
                }
            }
        }
    }

    private static let credentialsHint = "Give credctl the S3 credentials through AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or ~/.aws/credentials."
}
