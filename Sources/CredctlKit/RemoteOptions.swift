import CredentialVault

/// The options that go with an `s3://BUCKET/PREFIX` remote, for `remote set` and `init --join`.
/// Credentials are never options: they come from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (and
/// AWS_SESSION_TOKEN) or the shared credentials file (AWS_PROFILE).
enum RemoteOptions {
    static let options: [CommandSpec.Option] = [
        .init(name: "--endpoint", value: "URL", help: "The S3 endpoint, e.g. http://127.0.0.1:8333 (default: AWS in the region)."),
        .init(name: "--region", value: "REGION", help: "The S3 region (default: us-east-1)."),
        .init(name: "--path-style", value: nil, help: "Address the bucket as ENDPOINT/BUCKET (MinIO, SeaweedFS, Garage, Ceph) rather than BUCKET.HOST."),
    ]

    static func address(_ text: String, _ parsed: ParsedCommand) throws -> RemoteAddress {
        try RemoteAddress.parse(text, endpoint: parsed.value("--endpoint"), region: parsed.value("--region"), pathStyle: parsed.flag("--path-style"))
    }
}
