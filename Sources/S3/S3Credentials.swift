import Sodium

/// The access key an S3 request is signed with: from `AWS_ACCESS_KEY_ID` and
/// `AWS_SECRET_ACCESS_KEY` (and `AWS_SESSION_TOKEN`), else from the shared credentials file
/// (`AWS_SHARED_CREDENTIALS_FILE`, else `~/.aws/credentials`) under the profile `AWS_PROFILE`
/// (else `default`). Never from the command line, never stored by credctl.
public struct S3Credentials: Sendable {
    public let accessKeyID: String
    let secretAccessKey: SecretBytes
    let sessionToken: String?

    public init(accessKeyID: String, secretAccessKey: SecretBytes, sessionToken: String? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }

    public static func resolve(environment: [String: String]) throws -> S3Credentials {
        if let id = environment["AWS_ACCESS_KEY_ID"], !id.isEmpty, let secret = environment["AWS_SECRET_ACCESS_KEY"], !secret.isEmpty {
            return S3Credentials(accessKeyID: id, secretAccessKey: try SecretBytes(utf8: secret),
                                 sessionToken: environment["AWS_SESSION_TOKEN"].flatMap { $0.isEmpty ? nil : $0 })
        }
        let path = environment["AWS_SHARED_CREDENTIALS_FILE"].flatMap { $0.isEmpty ? nil : $0 } ?? (environment["HOME"] ?? "") + "/.aws/credentials"
        let profile = environment["AWS_PROFILE"].flatMap { $0.isEmpty ? nil : $0 } ?? "default"
        guard let file = try? SecretBytes.read(contentsOfFile: path, limit: 1 << 20) else {
            throw S3Error(.credentials, "No S3 credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or put profile '\(profile)' in \(path).")
        }
        return try SharedCredentialsFile.credentials(in: file, profile: profile, path: path)
    }
}
