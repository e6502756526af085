import Foundation

/// One way to look for a secret, used by every scan of the suites: the secret's bytes raw, in
/// lowercase and uppercase hex, and in Base64 at each of the three alignments it can have inside
/// a longer Base64 text (a secret that starts one or two bytes into an encoded stream shares no
/// characters with its own encoding). Messages name where a secret was found and in which form,
/// never the secret.
public enum SecretScan {
    /// The forms searched for, by name.
    public static func forms(of secret: [UInt8]) -> [(name: String, bytes: [UInt8])] {
        let hex = secret.map { String(format: "%02x", $0) }.joined()
        var forms: [(String, [UInt8])] = [("raw bytes", secret), ("lowercase hex", Array(hex.utf8)), ("uppercase hex", Array(hex.uppercased().utf8))]
        for offset in 0..<3 {
            let encoded = Array(Data(Array(repeating: 0, count: offset) + secret).base64EncodedString().utf8)
            // Only the characters made of the secret's own bits: not those mixing in the bytes
            // before it (the first `offset`'s worth) nor whatever follows it.
            let first = (offset * 8 + 5) / 6, last = (offset + secret.count) * 8 / 6
            guard last - first >= 8 else { continue }
            forms.append(("Base64 at offset \(offset)", Array(encoded[first..<last])))
        }
        return forms
    }

    /// Every form of every secret, named, ready to search with (computed once per scan).
    public static func needles(_ secrets: [[UInt8]]) -> [(name: String, bytes: Data)] {
        secrets.enumerated().flatMap { index, secret in forms(of: secret).map { ("\($0.name) of secret #\(index)", Data($0.bytes)) } }
    }

    /// Which form of which secret (by index) `haystack` holds, or nil.
    public static func find(_ secrets: [[UInt8]], in haystack: [UInt8]) -> String? {
        find(needles(secrets), in: haystack)
    }

    public static func find(_ needles: [(name: String, bytes: Data)], in haystack: [UInt8]) -> String? {
        let data = Data(haystack)
        return needles.first { data.range(of: $0.bytes) != nil }?.name
    }

    /// Every regular file below `roots` (links are not followed), with its bytes; only those
    /// changed at or after `since` when given, and none below `skipping`.
    public static func files(under roots: [String], since: Date? = nil, skipping: String? = nil) -> [(path: String, bytes: [UInt8])] {
        var found: [(String, [UInt8])] = []
        let cutoff = since.map { Int($0.timeIntervalSince1970) } ?? Int.min
        for root in roots {
            guard let walker = FileManager.default.enumerator(atPath: root) else { continue }
            while let relative = walker.nextObject() as? String {
                let path = root + "/" + relative
                if let skipping, path.hasPrefix(skipping + "/") || path == skipping {
                    walker.skipDescendants()
                    continue
                }
                var info = stat()
                guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_mtim.tv_sec >= cutoff,
                      let data = FileManager.default.contents(atPath: path) else { continue }
                found.append((path, Array(data)))
            }
        }
        return found
    }

    /// Where, among those files, any of `secrets` is: "form of secret #i in path".
    public static func findInFiles(_ secrets: [[UInt8]], under roots: [String], since: Date? = nil, skipping: String? = nil) -> [String] {
        let needles = needles(secrets)
        return files(under: roots, since: since, skipping: skipping).compactMap { file in find(needles, in: file.bytes).map { "\($0) in \(file.path)" } }
    }

    /// Every process's arguments and environment (where readable), as /proc has them now.
    public static func processes() -> [(pid: Int, program: String, bytes: [UInt8])] {
        let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.compactMap(Int.init) ?? []
        return pids.compactMap { pid in
            guard let cmdline = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"), !cmdline.isEmpty else { return nil }
            let environ = FileManager.default.contents(atPath: "/proc/\(pid)/environ") ?? Data()
            let program = String(decoding: cmdline.prefix { $0 != 0 }, as: UTF8.self)
            return (pid, (program as NSString).lastPathComponent, Array(cmdline) + [0] + Array(environ))
        }
    }
}
