
/// The few values read from S3's XML answers (`<Key>`, `<IsTruncated>`, `<NextContinuationToken>`,
/// `<Code>`): element text, with the five predefined entities decoded. The documents are flat
/// enough that no general XML parser is needed.
package enum S3XML {
    package static func values(_ element: String, in body: [UInt8]) -> [String] {
        let open = Array("<\(element)>".utf8), close = Array("</\(element)>".utf8)
        var found: [String] = []
        var index = 0
        while let start = find(open, in: body, from: index) {
            let valueStart = start + open.count
            guard let end = find(close, in: body, from: valueStart) else { break }
            found.append(decode(String(decoding: body[valueStart..<end], as: UTF8.self)))
            index = end + close.count
        }
        return found
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, bytes.count >= needle.count else { return nil }
        var index = start
        while index <= bytes.count - needle.count {
            if bytes[index] == needle[0] && bytes[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    /// The predefined entities and numeric character references (`&#39;`, `&#x9;`), which Go
    /// stores (MinIO, SeaweedFS) write for quotes and control characters.
    package static func decode(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = text[...]
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            guard let semicolon = rest[amp...].firstIndex(of: ";"), rest.distance(from: amp, to: semicolon) <= 10 else {
                result.append("&")
                rest = rest[rest.index(after: amp)...]
                continue
            }
            let entity = rest[rest.index(after: amp)..<semicolon]
            let named: [Substring: String] = ["lt": "<", "gt": ">", "quot": "\"", "apos": "'", "amp": "&"]
            if let value = named[entity] {
                result += value
            } else if entity.hasPrefix("#x") || entity.hasPrefix("#X"), let code = UInt32(entity.dropFirst(2), radix: 16), let scalar = Unicode.Scalar(code) {
                result.unicodeScalars.append(scalar)
            } else if entity.hasPrefix("#"), let code = UInt32(entity.dropFirst()), let scalar = Unicode.Scalar(code) {
                result.unicodeScalars.append(scalar)
            } else {
                result += rest[amp...semicolon]
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return result + rest
    }
}
