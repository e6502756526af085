import FoundationEssentials

extension S3Credentials {
    /// The credentials this process's environment gives (see `resolve`).
    public static func fromProcessEnvironment() throws -> S3Credentials {
        try resolve(environment: ProcessInfo.processInfo.environment)
    }
}
