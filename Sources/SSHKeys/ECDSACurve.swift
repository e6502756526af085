/// The NIST curves SSH names (RFC 5656): their SSH names, OpenSSL's, the length of an
/// uncompressed point, and the digest each signs with.
struct ECDSACurve {
    /// The key type, e.g. `ecdsa-sha2-nistp256`.
    let keyType: String
    /// The curve name inside SSH blobs, e.g. `nistp256`.
    let sshName: String
    /// The group name OpenSSL reports for a key (`prime256v1`); it also accepts it when building one.
    let openSSLName: String
    let pointCount: Int
    let digest: String

    static let all = [
        ECDSACurve(keyType: "ecdsa-sha2-nistp256", sshName: "nistp256", openSSLName: "prime256v1", pointCount: 65, digest: "SHA256"),
        ECDSACurve(keyType: "ecdsa-sha2-nistp384", sshName: "nistp384", openSSLName: "secp384r1", pointCount: 97, digest: "SHA384"),
        ECDSACurve(keyType: "ecdsa-sha2-nistp521", sshName: "nistp521", openSSLName: "secp521r1", pointCount: 133, digest: "SHA512"),
    ]

    static func named(keyType: String) -> ECDSACurve? { all.first { $0.keyType == keyType } }
    static func named(openSSLName: String) -> ECDSACurve? { all.first { $0.openSSLName == openSSLName } }
}
