import CredentialVault

/// The options that go with an `s3://BUCKET/PREFIX` remote, for `remote set` and `init --join`.
/// Credentials are never options: they come from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (and
/// AWS_SESSION_TOKEN) or the shared credentials file (AWS_PROFILE).
enum RemoteOptions {
    static let options: [CommandSpec.Option] = [
        .init(name: "--endpoint", value: "URL", help: "The S3 endpoint, e.g. http://127.0.0.1:8333 (default: AWS in the region)."),
        .init(name: "--region", value: "REGION", help: "The S3 region (default: us-east-1)."),
        .init(name: "--path-style", value: nil, help: "Address the bucket as ENDPOINT/BUCKET (MinIO, SeaweedFS, Garage, Ceph) rather than BUCKET.HOST."),
        .init(name: "--allow-insecure-http", value: nil, help: "Accept an http:// endpoint on another machine (loopback needs no option): requests, object names and sizes then cross the network unprotected, for anyone on the way to read or hold back."),
    ]

    /// REMOTE with its options, checked when the command line is read: a refusal is a usage
    /// error of `command`, its remedy included.
    static func address(_ text: String, _ parsed: ParsedCommand, command: CommandSpec) throws -> RemoteAddress {
        do {
            return try RemoteAddress.parse(text, endpoint: parsed.value("--endpoint"), region: parsed.value("--region"), pathStyle: parsed.flag("--path-style"),
                                           allowInsecureHTTP: parsed.flag("--allow-insecure-http"))
        } catch {
            throw UsageError(error.message + (error.hint.map { " " + $0 } ?? ""), command: command)
        }
    }
}
