// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "CredentialVault",
    products: [
        .library(name: "CredentialVault", targets: ["CredentialVault"]),
        .executable(name: "credctl", targets: ["credctl"]),
        .executable(name: "credbench", targets: ["credbench"]),
    ],
    targets: [
        // System libraries: a module map and a shim header each, nothing else.
        .systemLibrary(name: "CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),

        // Wrappers: the only places the C modules are imported.
        .target(name: "SystemErrors"),
        .target(name: "Sodium", dependencies: ["CSodium", "SystemErrors"]),
        .target(name: "SQLite", dependencies: ["CSQLite", "SystemErrors"]),
        // libsecret, and GLib beneath it, through dlopen on first use: only keyring commands load them.
        .target(name: "CLibsecret", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "Keyring", dependencies: ["CLibsecret", "Sodium", "Threads"]),

        // Concepts.
        // The id of every record, without Foundation (docs/startup.md).
        .target(name: "Identifiers", dependencies: ["Sodium"]),
        // Codable documents to and from JSON, strictly read, without Foundation (docs/startup.md).
        .target(name: "JSON"),
        .target(name: "Replication", dependencies: ["JSON", "Sodium", "SQLite", "SystemErrors"]),
        .target(name: "Membership", dependencies: ["JSON", "Sodium", "Replication"]),
        .target(name: "ConfigTrack", dependencies: ["Identifiers", "SQLite", "Replication", "SSHConfig"]),
        .target(name: "SecretTrack", dependencies: ["Sodium", "SQLite", "Replication", "SystemErrors"]),
        // Key file formats (PEM, OpenSSH, DER, SSH wire) read by key import and by signing.
        .target(name: "KeyFormats", dependencies: ["Sodium"]),
        .target(name: "CredentialVault", dependencies: ["Identifiers", "JSON", "ConfigTrack", "SecretTrack", "Replication", "Membership", "Sodium", "Keyring", "SSHConfig", "S3", "SystemErrors", "KeyFormats", "Threads"]),
        // Two GNU calls Glibc's Swift module does not export.
        .target(name: "CPosix"),
        // libcurl through dlopen, on first use: not FoundationNetworking, which would load
        // Foundation and ICU into every credctl run, nor a link-time libcurl and its libraries.
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("dl")]),
        // Threads without libdispatch, which would add its start-up cost to every command (docs/startup.md).
        .target(name: "Threads"),
        .target(name: "UnixSockets", dependencies: ["CPosix", "SystemErrors"]),
        .target(name: "Launch", dependencies: ["Sodium", "CPosix", "SSHConfig", "SystemErrors", "Threads", "UnixSockets"]),
        .target(name: "SSHConfig"),
        // OpenSSH's agent protocol, served by the agent and by credctl ssh itself.
        .target(name: "SSHAgentService", dependencies: ["Launch", "Threads", "UnixSockets", "CPosix", "KeyFormats"]),
        .target(name: "S3", dependencies: ["Identifiers", "Sodium", "Replication", "CCurl"]),
        .target(name: "CLogind", linkerSettings: [.linkedLibrary("dl")]),
        // libcrypto (OpenSSL 3) through dlopen, on first use, for RSA, ECDSA, DSA and PEM keys and
        // AES key files; and bcrypt_pbkdf's Blowfish core, compiled optimised even in debug builds
        // so an encrypted key opens in a tenth of a second in tests too.
        .target(name: "CCrypto", cSettings: [.unsafeFlags(["-O2"])], linkerSettings: [.linkedLibrary("dl")]),
        // Opens stored SSH private keys and signs with them, for the agent.
        .target(name: "SSHKeys", dependencies: ["KeyFormats", "Sodium", "CCrypto"]),
        .target(name: "Agent", dependencies: ["Identifiers", "CredentialVault", "Sodium", "CPosix", "CLogind", "SystemErrors", "Threads", "UnixSockets", "SSHAgentService", "SSHKeys"]),
        .target(name: "CredctlKit", dependencies: ["Identifiers", "CredentialVault", "Keyring", "Launch", "SystemErrors", "Agent", "SSHAgentService", "SSHKeys"]),
        .executableTarget(name: "credctl", dependencies: ["CredctlKit"]),
        .executableTarget(name: "credbench", dependencies: ["Identifiers", "CredentialVault", "Sodium", "CSodium", "Replication", "S3", "TestSupport"]),

        .testTarget(name: "SodiumTests", dependencies: ["Sodium"]),
        .testTarget(name: "SQLiteTests", dependencies: ["SQLite"]),
        .testTarget(name: "ThreadsTests", dependencies: ["Threads"]),
        .testTarget(name: "ReplicationTests", dependencies: ["Replication"]),
        .testTarget(name: "MembershipTests", dependencies: ["Membership", "Sodium", "Replication"]),
        .testTarget(name: "IdentifiersTests", dependencies: ["Identifiers"]),
        .testTarget(name: "JSONTests", dependencies: ["JSON"]),
        .testTarget(name: "ConfigTrackTests", dependencies: ["Identifiers", "ConfigTrack"]),
        .testTarget(name: "SecretTrackTests", dependencies: ["SecretTrack", "Sodium"]),
        .testTarget(name: "LaunchTests", dependencies: ["Launch", "Sodium"]),
        .testTarget(name: "SSHConfigTests", dependencies: ["SSHConfig"]),
        .testTarget(name: "KeyFormatsTests", dependencies: ["KeyFormats"]),
        .testTarget(name: "SSHAgentServiceTests", dependencies: ["SSHAgentService", "UnixSockets", "KeyFormats"]),
        .testTarget(name: "SSHKeysTests", dependencies: ["SSHKeys", "KeyFormats", "Sodium"]),
        // Fixtures more than one test target starts (a real S3 server); never shipped.
        .target(name: "TestSupport", dependencies: ["Identifiers", "S3", "Sodium"], path: "Tests/TestSupport"),
        .testTarget(name: "S3Tests", dependencies: ["Identifiers", "S3", "Sodium", "Replication", "TestSupport"]),
        .testTarget(name: "CredentialVaultTests", dependencies: ["Identifiers", "CredentialVault", "ConfigTrack", "SecretTrack", "SQLite", "Replication", "Membership", "TestSupport"]),
        .testTarget(name: "CredctlTests", dependencies: ["Identifiers", "CredctlKit", "CredentialVault", "SecretTrack", "SQLite", "Keyring", "Sodium", "TestSupport", "Replication", "Membership", "Agent", "UnixSockets"]),
    ]
)

// libFuzzer harnesses (Fuzz/), only with CREDVAULT_FUZZ=1: each defines
// `LLVMFuzzerTestOneInput` and no `main`, so it links only when built with `-sanitize=fuzzer`
// (`make fuzz`); a plain `swift build` or `swift test` never sees them.
if Context.environment["CREDVAULT_FUZZ"] == "1" {
    let harnesses: [(name: String, dependencies: [Target.Dependency])] = [
        ("FuzzBatch", ["Replication", "Sodium"]),
        ("FuzzCompaction", ["Replication", "Sodium"]),
        ("FuzzVaultJSON", ["JSON", "Replication", "Sodium", "Membership"]),
        ("FuzzS3Endpoint", ["S3"]),
        ("FuzzConfigMerge", ["ConfigTrack", "Replication", "SQLite"]),
        ("FuzzS3XML", ["S3"]),
        ("FuzzAWSCredentials", ["S3", "Sodium"]),
        ("FuzzPrivateKey", ["CredentialVault", "Sodium"]),
        ("FuzzPublicKeyLine", ["CredentialVault", "Sodium"]),
        ("FuzzSSHConfig", ["SSHConfig", "CredentialVault"]),
        ("FuzzHostPattern", ["SSHConfig"]),
        ("FuzzTemplate", ["CredctlKit", "ConfigTrack", "Sodium"]),
        ("FuzzSSHCommandLine", ["Launch"]),
        ("FuzzAskpassPrompt", ["Launch"]),
        ("FuzzForwardSpecification", ["Identifiers", "CredentialVault", "ConfigTrack"]),
        ("FuzzMembership", ["Membership", "Replication", "SecretTrack", "Sodium"]),
        ("FuzzAgentFrame", ["Agent", "Sodium", "UnixSockets"]),
        ("FuzzSSHAgentMessage", ["SSHAgentService", "KeyFormats"]),
        ("FuzzSSHKeyOpen", ["SSHKeys", "KeyFormats", "Sodium"]),
    ]
    package.targets.append(.target(name: "FuzzSupport", dependencies: ["Sodium"], path: "Fuzz/FuzzSupport"))
    for harness in harnesses {
        package.targets.append(.executableTarget(name: harness.name, dependencies: harness.dependencies + ["FuzzSupport"], path: "Fuzz/\(harness.name)"))
        package.products.append(.executable(name: harness.name, targets: [harness.name]))
    }
    // Writes the seed corpora (Fuzz/corpus/) from real records, keys and files.
    package.targets.append(.executableTarget(name: "FuzzSeeds", dependencies: ["Identifiers", "CredentialVault", "ConfigTrack", "Replication", "Sodium", "Membership", "KeyFormats", "FuzzSupport"],
                                             path: "Fuzz/FuzzSeeds"))
    package.products.append(.executable(name: "FuzzSeeds", targets: ["FuzzSeeds"]))
}
