import Sodium

/// The AWS shared credentials file (INI: `[profile]` sections of `key = value` lines), read in
/// guarded memory: the secret key is copied out of it into guarded memory and nowhere else.
package enum SharedCredentialsFile {
    package static func credentials(in file: SecretBytes, profile: String, path: String) throws -> S3Credentials {
        var section = "", id: String?, token: String?, secret: SecretBytes?
        try file.withUnsafeBytes { bytes in
            var start = 0
            while start < bytes.count {
                var end = start
                while end < bytes.count && bytes[end] != 0x0A { end += 1 }
                var line = start..<end
                while let first = line.first, bytes[first] == 0x20 || bytes[first] == 0x09 { line = (first + 1)..<line.upperBound }
                while let last = line.last, bytes[last] == 0x20 || bytes[last] == 0x09 || bytes[last] == 0x0D { line = line.lowerBound..<last }
                start = end + 1
                guard let first = line.first, bytes[first] != 0x23, bytes[first] != 0x3B else { continue }
                if bytes[first] == 0x5B, bytes[line.last!] == 0x5D {
                    section = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[(first + 1)..<line.last!]), as: UTF8.self).trimmingSpaces
                    continue
                }
                guard section == profile, let equals = line.first(where: { bytes[$0] == 0x3D }) else { continue }
                let key = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[first..<equals]), as: UTF8.self).trimmingSpaces.lowercased()
                var value = (equals + 1)..<line.upperBound
                while let head = value.first, bytes[head] == 0x20 || bytes[head] == 0x09 { value = (head + 1)..<value.upperBound }
                switch key {
                case "aws_access_key_id": id = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[value]), as: UTF8.self)
                case "aws_session_token": token = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[value]), as: UTF8.self)
                case "aws_secret_access_key": secret = try SecretBytes(copying: UnsafeRawBufferPointer(rebasing: bytes[value]))
                default: break
                }
            }
        }
        guard let id, !id.isEmpty, let secret, secret.count > 0 else {
            throw S3Error(.credentials, "\(path) has no aws_access_key_id and aws_secret_access_key under [\(profile)].")
        }
        return S3Credentials(accessKeyID: id, secretAccessKey: secret, sessionToken: token)
    }
}
