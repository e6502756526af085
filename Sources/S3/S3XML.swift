import Foundation

/// The few values read from S3's XML answers (`<Key>`, `<IsTruncated>`, `<NextContinuationToken>`,
/// `<Code>`): element text, with the five predefined entities decoded. The documents are flat
/// enough that no general XML parser is needed.
enum S3XML {
    static func values(_ element: String, in body: [UInt8]) -> [String] {
        let text = String(decoding: body, as: UTF8.self)
        let open = "<\(element)>", close = "</\(element)>"
        var found: [String] = []
        var rest = text[...]
        while let start = rest.range(of: open) {
            guard let end = rest[start.upperBound...].range(of: close) else { break }
            found.append(decode(String(rest[start.upperBound..<end.lowerBound])))
            rest = rest[end.upperBound...]
        }
        return found
    }

    private static func decode(_ text: String) -> String {
        guard text.contains("&") else { return text }
        return text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'").replacingOccurrences(of: "&amp;", with: "&")
    }
}
