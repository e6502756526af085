import Glibc

extension S3Credentials {
    /// The variables `resolve(environment:)` reads.
    static let environmentNames = ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_SHARED_CREDENTIALS_FILE", "AWS_PROFILE", "HOME"]

    /// The credentials this process's environment gives (see `resolve`).
    public static func fromProcessEnvironment() throws -> S3Credentials {
        var environment: [String: String] = [:]
        for name in environmentNames {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return try resolve(environment: environment)
    }
}
